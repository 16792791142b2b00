import { queryOptions, useQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { perpQueryKey } from './perp-query-key.ts';

/** The contract names no pushed channel for the perpetual book, so it is asked again this often. */
const DEPTH_POLL_MS = 2000;
const LEVELS = 20;

/** `GET /Perp/depth`: the market's book, best prices first. */
export function perpDepthQueryOptions(symbol: string) {
  return queryOptions({
    queryKey: [...perpQueryKey, 'depth', symbol],
    queryFn: async ({ signal }) =>
      (await get('/Perp/depth', { symbol, levels: LEVELS }, 'PerpDepth', { signal, silent: true })).data,
    refetchInterval: DEPTH_POLL_MS,
    staleTime: 0,
  });
}

export function usePerpDepth(symbol: string) {
  return useQuery({ ...perpDepthQueryOptions(symbol), enabled: symbol !== '' });
}
