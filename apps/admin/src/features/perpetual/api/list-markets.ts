import { AdminPerpMarketList } from '@bourse/shared/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client.ts';
import { PERP_MARKETS_KEY } from './query-keys.ts';

/** Every perpetual market with its parameters and live figures (mark, index, fund, open interest). */
export function listMarkets() {
  return api('GET', '/perp/markets', undefined, AdminPerpMarketList);
}

/** why: the live figures move with every mark tick; ten seconds keeps the table near them. */
const LIVE_REFRESH_MS = 10_000;

export function marketsQueryOptions() {
  return queryOptions({ queryKey: PERP_MARKETS_KEY, queryFn: listMarkets, refetchInterval: LIVE_REFRESH_MS });
}

export function useMarkets() {
  return useQuery(marketsQueryOptions());
}
