// The user's bills: their ledger statement, a page at a time.

import { AppError, fromAtoms, type ResultKey } from '@bourse/shared';
import type { BillLine } from '@bourse/shared/api';
import type { StatementLine } from '../ledger/service.ts';
import type { WalletDeps } from './deps.ts';

const BILLS_PAGE_SIZE = 20;

function toBillLine(line: StatementLine): BillLine {
  return {
    id: String(line.id),
    type: line.type,
    ref: line.ref,
    memo: line.memo,
    coin: line.asset,
    kind: line.kind,
    amount: fromAtoms(line.amount),
    balance_after: fromAtoms(line.balanceAfter),
    created_at: line.createdAt,
  };
}

/** What `listBills` can answer besides the codes every route can. */
export const LIST_BILLS_ERRORS = ['COIN_UNAVAILABLE'] as const satisfies readonly ResultKey[];

/** The user's statement, newest first, a page at a time (`before` = last id of the previous page). */
export async function listBills(
  deps: WalletDeps,
  userId: bigint,
  query: { coin?: string; before?: bigint },
): Promise<{ list: BillLine[]; has_more: boolean }> {
  const lines = await deps.ledger.statement(deps.db, userId, {
    asset: query.coin,
    limit: BILLS_PAGE_SIZE + 1,
    beforeId: query.before,
  });
  return {
    list: lines.slice(0, BILLS_PAGE_SIZE).map(toBillLine),
    has_more: lines.length > BILLS_PAGE_SIZE,
  };
}

/** What `getBill` can answer besides the codes every route can. */
export const GET_BILL_ERRORS = ['RECORD_NOT_FOUND'] as const satisfies readonly ResultKey[];

/** One line of the user's statement; someone else's answers RECORD_NOT_FOUND. */
export async function getBill(deps: WalletDeps, userId: bigint, id: bigint): Promise<BillLine> {
  const line = await deps.ledger.statementLine(deps.db, userId, id);
  if (!line) throw new AppError('RECORD_NOT_FOUND');
  return toBillLine(line);
}
