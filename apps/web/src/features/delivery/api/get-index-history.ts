import type { IndexTick } from '@bourse/shared/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { serverNow } from '../../../shared/server-clock.ts';

/** How far back the tick line reaches. */
const LINE_WINDOW_MS = 10 * 60_000;

/** `GET /Market/index`: the recorded ticks of the last minutes, oldest first. */
export async function getIndexHistory(symbol: string, signal?: AbortSignal): Promise<IndexTick[]> {
  const from = Math.max(0, Math.floor(serverNow() - LINE_WINDOW_MS));
  return (await get('/Market/index', { symbol, from, limit: 1000 }, 'IndexHistory', { signal, silent: true }))
    .data;
}

export function indexHistoryQueryOptions(symbol: string) {
  return queryOptions({
    queryKey: ['index', 'ticks', symbol],
    queryFn: ({ signal }) => getIndexHistory(symbol, signal),
    // why: the channel keeps the line current; a fresh history is fetched on every visit.
    staleTime: 0,
    gcTime: 0,
  });
}

export function useIndexHistory(symbol: string, isEnabled: boolean) {
  return useQuery({ ...indexHistoryQueryOptions(symbol), enabled: isEnabled && symbol !== '' });
}
