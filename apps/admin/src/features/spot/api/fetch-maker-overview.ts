import { AdminMakerOverview } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** The market maker's settings per market and the demo traders' switch. */
export function fetchMakerOverview() {
  return api('GET', '/spot/market-maker', undefined, AdminMakerOverview);
}
