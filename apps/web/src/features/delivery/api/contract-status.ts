import type { ContractRecord, ContractStatus } from '@bourse/shared/api';

/**
 * The statuses of a contract whose amount is still held: `LIVE_CONTRACT_STATUSES` of the wire,
 * written out here because that import is a value of the zod schema modules (zod and every schema
 * would join this page's first load); contract-status.test.ts keeps the two the same.
 */
const LIVE_STATUSES: Readonly<Record<ContractStatus, boolean>> = {
  opening: true,
  open: true,
  settling: true,
  settled: false,
  closed: false,
};

/** True while a contract's amount is held: waiting to open, counting down, or settling. */
export function isLive(record: Pick<ContractRecord, 'status'>): boolean {
  return LIVE_STATUSES[record.status] === true;
}
