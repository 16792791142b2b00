import type { PlaceOrderBody } from '@bourse/shared/api';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { get, post } from '../../../api/http.ts';
import { LIVE_POLL_MS } from '../../../api/spot-tickers.ts';
import { usePrivateChannel, useRealtimeStatus } from '../../../api/ws.ts';
import { spotQueryKey } from './spot-query-key.ts';

/** The caller's orders and balances: everything an order placed or cancelled changes. */
export const mineKey = [...spotQueryKey, 'mine'] as const;

/** `GET /Trade/openorders`: the caller's open orders on one market, newest first. */
export function openOrdersQueryOptions(symbol: string) {
  return queryOptions({
    queryKey: [...mineKey, 'open', symbol],
    queryFn: async ({ signal }) =>
      (await get('/Trade/openorders', { symbol }, 'SpotOrderList', { signal, silent: true })).data,
    // why: a resting order fills whenever someone trades against it.
    refetchInterval: LIVE_POLL_MS * 2,
    staleTime: 0,
  });
}

/**
 * The caller's open orders on one market, kept current by the private `orders` channel: a pushed
 * order that changed refreshes the caller's orders and balances.
 */
export function useOpenOrders(symbol: string, isEnabled: boolean) {
  const client = useQueryClient();
  const isLive = useRealtimeStatus() === 'open';
  usePrivateChannel(
    'orders',
    (data) => {
      // why: an order of ours changed (or the snapshot on subscribe arrived): read them again.
      if (Array.isArray(data) && data.length > 0) void client.invalidateQueries({ queryKey: mineKey });
    },
    isEnabled,
  );
  return useQuery({
    ...openOrdersQueryOptions(symbol),
    refetchInterval: isLive ? false : LIVE_POLL_MS * 2,
    enabled: isEnabled && symbol !== '',
  });
}

/** `GET /Trade/billinfo`: one order with its fills; an open one is asked again while shown. */
export function useOrder(id: string) {
  return useQuery({
    queryKey: [...mineKey, 'order', id],
    queryFn: async ({ signal }) =>
      (await get('/Trade/billinfo', { id }, 'SpotOrderDetail', { signal, silent: true })).data,
    enabled: id !== '',
    refetchInterval: (query) => (query.state.data?.status === 'entrusted' ? LIVE_POLL_MS * 2 : false),
    staleTime: 0,
  });
}

/**
 * `POST /Trade/place`: funds are held at acceptance; a taker fills at once against the book, a
 * trigger order waits for its trigger price. One `idempotency_key` per submission: sending it
 * twice places one order.
 */
export function placeOrder(input: Omit<PlaceOrderBody, 'token'>) {
  return post('/Trade/place', input, 'SpotOrder', { action: 'trade' });
}

/** What an order changes: the caller's orders and balances, and the market's book and trades. */
function useRefreshAfterOrder() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: spotQueryKey });
}

export function usePlaceOrder() {
  const refresh = useRefreshAfterOrder();
  return useMutation({ mutationFn: placeOrder, onSettled: refresh });
}

/** `POST /Trade/cancel`: revokes an open order; what is left of its hold is released. */
export function useCancelOrder() {
  const refresh = useRefreshAfterOrder();
  return useMutation({
    mutationFn: (id: string) => post('/Trade/cancel', { id }, 'SpotOrder'),
    onSettled: refresh,
  });
}

/** `POST /Trade/cancelall`: revokes every open order of the caller on one market. */
export function useCancelAll() {
  const refresh = useRefreshAfterOrder();
  return useMutation({
    mutationFn: (symbol: string) => post('/Trade/cancelall', { symbol }, 'CancelAllResult'),
    onSettled: refresh,
  });
}
