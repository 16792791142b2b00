import { AdminDeliveryProductList } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** Every delivery product with its periods and exposure cap. */
export function listProducts() {
  return api('GET', '/delivery/products', undefined, AdminDeliveryProductList);
}
