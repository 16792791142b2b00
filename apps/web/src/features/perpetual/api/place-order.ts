import type { PerpPlaceBody } from '@bourse/shared/api';
import { useMutation } from '@tanstack/react-query';
import { post } from '../../../api/http.ts';
import { useRefreshAccount } from './use-refresh-account.ts';

/**
 * `POST /Perp/place`: the opening quantity holds IM + taker fee from the available USDT. One
 * `idempotency_key` per submission: sending it twice places one order. A one-way flip answers two
 * orders (the close and the open).
 */
export function placePerpOrder(input: Omit<PerpPlaceBody, 'token'>) {
  return post('/Perp/place', input, 'PerpOrderList', { action: 'trade' });
}

export function usePlacePerpOrder() {
  const refresh = useRefreshAccount();
  return useMutation({ mutationFn: placePerpOrder, onSettled: refresh });
}
