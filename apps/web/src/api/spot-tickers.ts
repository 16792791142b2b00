import type { SpotTicker } from '@bourse/shared/api';
import { useQuery } from '@tanstack/react-query';
import { get } from './http.ts';

/**
 * How often the spot markets' live data is asked for. The spot channels of `/ws` are not served
 * yet, so the market list and the trade page poll; when they are, the hooks that use this
 * subscribe instead.
 */
export const LIVE_POLL_MS = 1500;

/** `GET /Market/spottickers`: every spot market's 24h figures from its own trades, with its index. */
export async function getSpotTickers(signal?: AbortSignal): Promise<SpotTicker[]> {
  return (await get<SpotTicker[]>('/Market/spottickers', {}, { signal, silent: true })).data;
}

/** The spot tickers, kept live (shared by the market list and the trade page). */
export function useSpotTickers() {
  return useQuery({
    queryKey: ['spot-tickers'],
    queryFn: ({ signal }) => getSpotTickers(signal),
    refetchInterval: LIVE_POLL_MS * 2,
    staleTime: 0,
  });
}
