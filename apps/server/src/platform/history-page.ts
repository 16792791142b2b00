import { HISTORY_PAGE_SIZE } from '@bourse/shared/api';

/**
 * One page of a list that grows with a customer's activity, newest first, as its route read it
 * (`historyQuery` in the shared contract): below the row `before` (the last id of the previous
 * page), or the page number `page` (1 whenever `before` is given).
 */
export interface HistoryPage {
  page: number;
  before?: bigint;
}

/** The page a history list's query asks for. */
export function historyPage(query: { page: number; before?: string }): HistoryPage {
  return { page: query.page, before: query.before === undefined ? undefined : BigInt(query.before) };
}

/** The rows a repository reads for one page, newest first: `limit` after `offset`, below the id `beforeId` when given. */
export interface HistoryWindow {
  limit: number;
  offset: number;
  beforeId?: bigint;
}

/**
 * The rows a repository reads for `page`: one more than a page, so the answer knows whether more
 * follow; below `beforeId` when the client pages by cursor, else after `offset` rows (bounded by
 * the schema's page limit).
 */
export function historyWindow(page: HistoryPage): HistoryWindow {
  return {
    limit: HISTORY_PAGE_SIZE + 1,
    offset: (page.page - 1) * HISTORY_PAGE_SIZE,
    beforeId: page.before,
  };
}

/** A history list's answer: the page's rows (`rows` read by {@link historyWindow}), its number, and whether more follow. */
export function historyAnswer<R, T>(
  rows: readonly R[],
  page: HistoryPage,
  toItem: (row: R) => T,
): { list: T[]; page: number; has_more: boolean } {
  return {
    list: rows.slice(0, HISTORY_PAGE_SIZE).map(toItem),
    page: page.page,
    has_more: rows.length > HISTORY_PAGE_SIZE,
  };
}
