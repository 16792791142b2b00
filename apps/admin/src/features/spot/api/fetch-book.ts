import { DepthSnapshot } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** A market's best `limit` levels each side. */
export function fetchBook(symbol: string, limit: number) {
  return api('GET', `/spot/markets/${encodeURIComponent(symbol)}/book`, { limit }, DepthSnapshot);
}
