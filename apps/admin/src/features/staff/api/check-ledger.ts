import { LedgerCheck } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** Runs the ledger's balance check now. */
export function checkLedger() {
  return api('POST', '/ledger/check', undefined, LedgerCheck);
}
