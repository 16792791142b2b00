import { expect } from 'vitest';
import type { ApiAnswer } from './harness.ts';

/** What the suites of the customer's history lists check: paging by `before`, and by page number. */

/** Calls one history list as its owner, in English, with these paging fields. */
export type HistoryCall = (paging: Record<string, string | number>) => Promise<ApiAnswer>;

const PAGE = 20;
/** More pages than any suite's list holds. */
const MAX_PAGES = 20;

/** Ids from the newest down (ids are numbers in strings; a longer one is the larger). */
export function newestFirst(ids: readonly string[]): string[] {
  return [...ids].sort((a, b) => b.length - a.length || (a < b ? 1 : a > b ? -1 : 0));
}

/** The list walked by `before` from its first page: every page's ids, in order. */
async function walkByCursor(list: HistoryCall): Promise<string[][]> {
  const pages: string[][] = [];
  let before: string | undefined;
  for (;;) {
    const answer = await list(before === undefined ? {} : { before });
    expect(answer).toMatchObject({ code: 1000, data: { page: 1 } });
    const ids: string[] = answer.data.list.map((row: { id: string }) => row.id);
    pages.push(ids);
    if (!answer.data.has_more) return pages;
    // why: a cursor the server ignored would answer the first page again and again.
    expect(pages.length).toBeLessThan(MAX_PAGES);
    before = ids.at(-1);
  }
}

/** The list walked by page number from page 1: every page's ids, in order. */
async function walkByPage(list: HistoryCall): Promise<string[][]> {
  const pages: string[][] = [];
  for (let page = 1; ; page++) {
    const answer = await list({ page });
    expect(answer).toMatchObject({ code: 1000, data: { page } });
    pages.push(answer.data.list.map((row: { id: string }) => row.id));
    if (!answer.data.has_more) return pages;
    expect(pages.length).toBeLessThan(MAX_PAGES);
  }
}

/**
 * Checks a history list whose owner has the rows `mine` and another user the rows `theirs`: walked
 * by `before`, every row of the owner once, newest first, 20 a page, the same pages as by page
 * number; page numbers end at 50 and `before` takes no page beyond 1 (PARAM_ERROR, translated);
 * `before` naming another user's row answers the owner's rows below it and nothing of theirs.
 */
export async function expectHistoryPaging(
  list: HistoryCall,
  rows: { mine: readonly string[]; theirs: readonly string[] },
): Promise<void> {
  const mine = newestFirst(rows.mine);
  const pages: string[][] = [];
  for (let i = 0; i < mine.length || i === 0; i += PAGE) pages.push(mine.slice(i, i + PAGE));
  expect(await walkByCursor(list)).toEqual(pages);
  expect(await walkByPage(list)).toEqual(pages);

  const refused = { code: 1001, msg: 'Invalid parameters.', data: null };
  expect(await list({ page: 51 })).toMatchObject(refused);
  expect(await list({ before: mine[0], page: 2 })).toMatchObject(refused);
  expect(await list({ page: 50 })).toMatchObject({
    code: 1000,
    data: { list: [], page: 50, has_more: false },
  });
  expect(await list({ before: mine[0], page: 1 })).toMatchObject({
    code: 1000,
    data: { list: mine.slice(1, 1 + PAGE).map((id) => ({ id })) },
  });

  for (const other of rows.theirs) {
    const below = mine.filter((id) => BigInt(id) < BigInt(other));
    const answer = await list({ before: other });
    expect(answer.code).toBe(1000);
    expect(answer.data.list.map((row: { id: string }) => row.id)).toEqual(below.slice(0, PAGE));
    expect(answer.data.has_more).toBe(below.length > PAGE);
  }
}
