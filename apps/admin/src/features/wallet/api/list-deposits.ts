import { StaffDepositQueue } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** A page of deposits in one status (all statuses when absent). */
export function listDeposits(status: string | undefined, page: number) {
  return api('GET', '/deposits', { status, page }, StaffDepositQueue);
}
