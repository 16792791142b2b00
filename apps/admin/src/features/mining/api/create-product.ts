import { type AdminMiningProductInput, CreatedId } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** A new mining machine, not yet on sale. */
export function createProduct(values: AdminMiningProductInput) {
  return api('POST', '/mining/products', { ...values }, CreatedId);
}
