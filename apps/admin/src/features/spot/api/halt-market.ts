import { SpotHaltResult } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** Halts a market (its resting orders are revoked), with a reason. */
export function haltMarket(symbol: string, reason: string) {
  return api('POST', `/spot/markets/${encodeURIComponent(symbol)}/halt`, { reason }, SpotHaltResult);
}
