import type { CreateSpotMarketBody } from '@bourse/shared/api';
import { z } from 'zod';
import { api } from '../../../api/client.ts';

/** A new spot market. */
export function createMarket(values: CreateSpotMarketBody) {
  return api('POST', '/spot/markets', { ...values }, z.unknown());
}
