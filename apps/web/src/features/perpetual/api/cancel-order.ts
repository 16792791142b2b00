import { useMutation } from '@tanstack/react-query';
import { post } from '../../../api/http.ts';
import { useRefreshAccount } from './use-refresh-account.ts';

/** `POST /Perp/cancel`: revokes an open order or a waiting trigger; its hold is released. */
export function useCancelPerpOrder() {
  const refresh = useRefreshAccount();
  return useMutation({
    mutationFn: (id: string) => post('/Perp/cancel', { id }, 'PerpOrder'),
    onSettled: refresh,
  });
}
