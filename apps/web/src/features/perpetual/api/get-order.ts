import { useQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { perpMineKey } from './perp-query-key.ts';

/** An open order shown on its page is asked again this often. */
const OPEN_ORDER_POLL_MS = 3000;

/** `GET /Perp/order`: one order with its fills; an entrusted one is asked again while shown. */
export function usePerpOrder(id: string) {
  return useQuery({
    queryKey: [...perpMineKey, 'order', id],
    queryFn: async ({ signal }) =>
      (await get('/Perp/order', { id }, 'PerpOrderDetail', { signal, silent: true })).data,
    enabled: id !== '',
    refetchInterval: (query) => (query.state.data?.status === 'entrusted' ? OPEN_ORDER_POLL_MS : false),
    staleTime: 0,
  });
}
