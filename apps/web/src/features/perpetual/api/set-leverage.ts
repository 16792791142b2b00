import { useMutation } from '@tanstack/react-query';
import { post } from '../../../api/http.ts';
import { useRefreshAccount } from './use-refresh-account.ts';

/** `POST /Perp/leverage`: only while the caller holds no position and no open order in the market. */
export function useSetLeverage() {
  const refresh = useRefreshAccount();
  return useMutation({
    mutationFn: (input: { symbol: string; leverage: number }) => post('/Perp/leverage', input, 'PerpAccount'),
    onSettled: refresh,
  });
}
