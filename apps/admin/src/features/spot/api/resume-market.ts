import { AdminSpotMarket } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** Opens a halted market again, with a reason. */
export function resumeMarket(symbol: string, reason: string) {
  return api('POST', `/spot/markets/${encodeURIComponent(symbol)}/resume`, { reason }, AdminSpotMarket);
}
