import { PublicTradeList } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** A market's latest trades. */
export function listTrades(symbol: string, limit: number) {
  return api('GET', `/spot/markets/${encodeURIComponent(symbol)}/trades`, { limit }, PublicTradeList);
}
