import { AdminMakerOverview, type MakerSettingsBody } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** The market maker's settings for one market. */
export function saveMakerSettings(symbol: string, values: MakerSettingsBody) {
  return api('POST', `/spot/market-maker/${encodeURIComponent(symbol)}`, { ...values }, AdminMakerOverview);
}
