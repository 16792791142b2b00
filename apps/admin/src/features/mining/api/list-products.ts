import { AdminMiningProductList } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** Every mining machine. */
export function listProducts() {
  return api('GET', '/mining/products', undefined, AdminMiningProductList);
}
