import type { PerpTpslBody } from '@bourse/shared/api';
import { useMutation } from '@tanstack/react-query';
import { post } from '../../../api/http.ts';
import { useRefreshAccount } from './use-refresh-account.ts';

/** `POST /Perp/tpsl`: replaces the position's stop-loss / take-profit pair (one cancels the other). */
export function useSetTpsl() {
  const refresh = useRefreshAccount();
  return useMutation({
    mutationFn: (input: Omit<PerpTpslBody, 'token'>) => post('/Perp/tpsl', input, 'PerpOrderList'),
    onSettled: refresh,
  });
}
