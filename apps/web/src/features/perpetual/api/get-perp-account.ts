import { queryOptions, useQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { perpMineKey } from './perp-query-key.ts';

/** The account is asked again this often while the page is visible (fills, funding, liquidation). */
const ACCOUNT_POLL_MS = 3000;

/** `GET /Perp/account`: leverage and whether it is locked, available USDT, the position, open orders. */
export function perpAccountQueryOptions(symbol: string) {
  return queryOptions({
    queryKey: [...perpMineKey, 'account', symbol],
    queryFn: async ({ signal }) =>
      (await get('/Perp/account', { symbol }, 'PerpAccount', { signal, silent: true })).data,
    // why: TanStack Query pauses the interval while the tab is hidden (refetchIntervalInBackground is off).
    refetchInterval: ACCOUNT_POLL_MS,
    staleTime: 0,
  });
}

export function usePerpAccount(symbol: string) {
  return useQuery({ ...perpAccountQueryOptions(symbol), enabled: symbol !== '' });
}
