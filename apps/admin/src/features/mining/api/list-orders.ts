import { AdminMiningOrderList } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** The latest mining orders. */
export function listOrders() {
  return api('GET', '/mining/orders', undefined, AdminMiningOrderList);
}
