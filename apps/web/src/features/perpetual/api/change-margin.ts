import type { PerpMarginBody } from '@bourse/shared/api';
import { useMutation } from '@tanstack/react-query';
import { post } from '../../../api/http.ts';
import { useRefreshAccount } from './use-refresh-account.ts';

/** `POST /Perp/margin`: moves USDT between available and the position's isolated margin. */
export function useChangeMargin() {
  const refresh = useRefreshAccount();
  return useMutation({
    mutationFn: (input: Omit<PerpMarginBody, 'token'>) => post('/Perp/margin', input, 'PerpAccount'),
    onSettled: refresh,
  });
}
