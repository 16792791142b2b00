import { type ContractRecord, LIVE_CONTRACT_STATUSES } from '@bourse/shared/api';

/** True while a contract's amount is held: waiting to open, counting down, or settling. */
export function isLive(record: Pick<ContractRecord, 'status'>): boolean {
  return (LIVE_CONTRACT_STATUSES as readonly string[]).includes(record.status);
}
