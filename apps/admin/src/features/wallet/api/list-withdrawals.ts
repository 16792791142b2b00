import { StaffWithdrawalQueue } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** A page of withdrawals in one status (all statuses when absent). */
export function listWithdrawals(status: string | undefined, page: number) {
  return api('GET', '/withdrawals', { status, page }, StaffWithdrawalQueue);
}
