import { useMutation } from '@tanstack/react-query';
import { post } from '../../../api/http.ts';
import { useRefreshAccount } from './use-refresh-account.ts';

/** `POST /Perp/close`: a market reduce-only close of the whole position. */
export function useClosePosition() {
  const refresh = useRefreshAccount();
  return useMutation({
    mutationFn: (input: { symbol: string; idempotency_key: string }) =>
      post('/Perp/close', input, 'PerpOrderList', { action: 'trade' }),
    onSettled: refresh,
  });
}
