import type { EditSpotMarketBody } from '@bourse/shared/api';
import { z } from 'zod';
import { api } from '../../../api/client.ts';

/** A market's settings (its symbol and status are not settings). */
export function editMarket(symbol: string, values: EditSpotMarketBody) {
  return api('POST', `/spot/markets/${encodeURIComponent(symbol)}`, { ...values }, z.unknown());
}
