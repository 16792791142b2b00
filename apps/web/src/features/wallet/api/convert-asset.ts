import type { ConvertBody } from '@bourse/shared/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { post } from '../../../api/http.ts';
import { walletQueryKey } from './wallet-query-key.ts';

/**
 * `POST /Finance/zhuanhua`: converts `amount` of `from` into `to` at the index price, less the
 * published fee. The idempotency key makes a repeated submission take effect once.
 */
export function convertAsset(input: Omit<ConvertBody, 'token'>) {
  return post('/Finance/zhuanhua', { ...input }, 'ConvertResult', { action: 'trade' });
}

export function useConvertAsset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: convertAsset,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: walletQueryKey }),
  });
}
