import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { historyPages } from '../../../api/history-pages.ts';
import { get, post } from '../../../api/http.ts';

const KEY = ['mining'] as const;

/** `GET /Orepool/index`: the machines on sale and the user's own. */
export function useMarket() {
  return useQuery({
    queryKey: [...KEY, 'market'],
    queryFn: async ({ signal }) => (await get('/Orepool/index', undefined, 'MiningMarket', { signal })).data,
  });
}

/** `GET /Orepool/kjinfo`: one machine; with a share code, what its shared machine has left. */
export function useMachine(id: string, share: string) {
  return useQuery({
    queryKey: [...KEY, 'machine', id, share],
    queryFn: async ({ signal }) =>
      (await get('/Orepool/kjinfo', { id, ...(share ? { share } : {}) }, 'MiningProductDetail', { signal }))
        .data,
    enabled: id !== '',
  });
}

export function useBuy() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; shareBp: number; share: string; key: string }) =>
      post(
        '/Orepool/buy',
        {
          id: input.id,
          share_bp: input.shareBp,
          ...(input.share ? { share: input.share } : {}),
          idempotency_key: input.key,
        },
        'MiningOrder',
        { action: 'submit' },
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
  });
}

/** `GET /Orepool/Profitlist`: daily output, newest first, 20 a page. */
export function useRevenues() {
  return useInfiniteQuery({
    queryKey: [...KEY, 'revenues'],
    queryFn: async ({ pageParam, signal }) =>
      (await get('/Orepool/Profitlist', { before: pageParam }, 'MiningRevenueList', { signal })).data,
    ...historyPages,
  });
}

/** `GET /Orepool/profitline`: output per coin and day with the running total. */
export function useProfitLine() {
  return useQuery({
    queryKey: [...KEY, 'line'],
    queryFn: async ({ signal }) =>
      (await get('/Orepool/profitline', undefined, 'MiningProfitLine', { signal })).data,
  });
}
