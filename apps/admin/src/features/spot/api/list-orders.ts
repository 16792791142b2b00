import { type AdminSpotOrderFilter, AdminSpotOrderList } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** A page of spot orders, filtered. */
export function listOrders(filter: Omit<AdminSpotOrderFilter, 'token'> | undefined) {
  return api('GET', '/spot/orders', filter && { ...filter }, AdminSpotOrderList);
}
