import type { DepositFields } from '@bourse/shared/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { postMultipart } from '../../../api/http.ts';
import { walletQueryKey } from './wallet-query-key.ts';

/**
 * `POST /Finance/czhandle` (multipart): a deposit for staff to review, with its voucher image (the
 * server requires one); `hash` is optional.
 * Resolves with the envelope (`msg` is the success message, `data` the new record, confirming).
 */
export function submitDeposit({
  fields,
  voucher,
}: {
  fields: Required<Omit<DepositFields, 'token' | 'hash'>> & { hash?: string };
  voucher: File;
}) {
  const form = new FormData();
  form.append('coin', fields.coin);
  form.append('network', fields.network);
  form.append('amount', fields.amount);
  if (fields.hash) form.append('hash', fields.hash);
  form.append('voucher', voucher, voucher.name || 'voucher.png');
  return postMultipart('/Finance/czhandle', form, 'DepositRecord', { action: 'submit' });
}

export function useSubmitDeposit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitDeposit,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: walletQueryKey }),
  });
}
