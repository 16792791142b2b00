import { AdminSpotMarketList } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** Every spot market with its settings and status. */
export function listMarkets() {
  return api('GET', '/spot/markets', undefined, AdminSpotMarketList);
}
