import type { DeliveryProductBody } from '@bourse/shared/api';
import { z } from 'zod';
import { api } from '../../../api/client.ts';

/** A product's periods and exposure cap. */
export function saveProduct(symbol: string, values: DeliveryProductBody) {
  return api('POST', `/delivery/products/${encodeURIComponent(symbol)}`, { ...values }, z.unknown());
}
