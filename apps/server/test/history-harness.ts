import { expect } from 'vitest';
import type { ApiAnswer } from './harness.ts';

/** What the suites of the customer's history lists check: paging by `before`, and by page number. */

/** Calls one history list as its owner, in English, with these paging fields. */
export type HistoryCall = (paging: Record<string, string | number>) => Promise<ApiAnswer>;

/**
 * How a list answers besides `list` and `has_more`. `numbered` (the default): it names its page
 * (`page`); false: its answer has no `page` field, as before it took `before`.
 */
export interface HistoryShape {
  numbered?: boolean;
}

const PAGE = 20;
/** More pages than any suite's list holds. */
const MAX_PAGES = 20;
const REFUSED = { code: 1001, msg: 'Invalid parameters.', data: null };
/** `before` values that are no record id: each answers the list's validation error. */
const BAD_CURSORS = ['abc', '-1', '0', '1.5', '12abc', '99999999999999999999'];

/** Ids from the newest down (ids are numbers in strings; a longer one is the larger). */
export function newestFirst(ids: readonly string[]): string[] {
  return [...ids].sort((a, b) => b.length - a.length || (a < b ? 1 : a > b ? -1 : 0));
}

/** A page's ids, as strings (some lists answer ids as numbers). */
function idsOf(answer: ApiAnswer): string[] {
  return answer.data.list.map((row: { id: string | number }) => String(row.id));
}

/** What a page's answer must hold besides its rows: its number, or no `page` field at all. */
function expectPageField(answer: ApiAnswer, page: number, shape: HistoryShape): void {
  if (shape.numbered === false) expect(answer.data).not.toHaveProperty('page');
  else expect(answer.data.page).toBe(page);
}

/** The list walked by `before` from its first page: every page's ids, in order. */
async function walkByCursor(list: HistoryCall, shape: HistoryShape): Promise<string[][]> {
  const pages: string[][] = [];
  let before: string | undefined;
  for (;;) {
    const answer = await list(before === undefined ? {} : { before });
    expect(answer.code, answer.msg).toBe(1000);
    expectPageField(answer, 1, shape);
    const ids = idsOf(answer);
    pages.push(ids);
    if (!answer.data.has_more) return pages;
    // why: a cursor the server ignored would answer the first page again and again.
    expect(pages.length).toBeLessThan(MAX_PAGES);
    before = ids.at(-1);
  }
}

/** The list walked by page number from page 1: every page's ids, in order. */
async function walkByPage(list: HistoryCall, shape: HistoryShape): Promise<string[][]> {
  const pages: string[][] = [];
  for (let page = 1; ; page++) {
    const answer = await list({ page });
    expect(answer.code, answer.msg).toBe(1000);
    expectPageField(answer, page, shape);
    pages.push(idsOf(answer));
    if (!answer.data.has_more) return pages;
    expect(pages.length).toBeLessThan(MAX_PAGES);
  }
}

/**
 * Checks a history list whose owner sees the rows `ids`, in the list's order: walked by `before`,
 * exactly those rows, each once, 20 a page, the same pages as by page number; page numbers end at
 * 50, `before` takes no page beyond 1, and a `before` that is no record id answers PARAM_ERROR
 * (translated).
 */
export async function expectListPages(
  list: HistoryCall,
  ids: readonly string[],
  shape: HistoryShape = {},
): Promise<void> {
  const pages: string[][] = [];
  for (let i = 0; i < ids.length || i === 0; i += PAGE) pages.push(ids.slice(i, i + PAGE));
  expect(await walkByCursor(list, shape)).toEqual(pages);
  expect(await walkByPage(list, shape)).toEqual(pages);

  expect(await list({ page: 51 })).toMatchObject(REFUSED);
  expect(await list({ before: ids[0] ?? '1', page: 2 })).toMatchObject(REFUSED);
  for (const before of BAD_CURSORS) expect(await list({ before }), before).toMatchObject(REFUSED);
  const last = await list({ page: 50 });
  expect(last).toMatchObject({ code: 1000, data: { list: [], has_more: false } });
  expectPageField(last, 50, shape);
  if (ids.length > 0) {
    const below = await list({ before: ids[0], page: 1 });
    expect(below.code).toBe(1000);
    expect(idsOf(below)).toEqual(ids.slice(1, 1 + PAGE));
  }
}

/**
 * Checks a history list ordered by id whose owner has the rows `mine` and another user the rows
 * `theirs` (see `expectListPages`); `before` naming another user's row answers the owner's rows
 * below it and nothing of theirs.
 */
export async function expectHistoryPaging(
  list: HistoryCall,
  rows: { mine: readonly string[]; theirs: readonly string[] },
  shape: HistoryShape = {},
): Promise<void> {
  const mine = newestFirst(rows.mine);
  await expectListPages(list, mine, shape);
  for (const other of rows.theirs) {
    const below = mine.filter((id) => BigInt(id) < BigInt(other));
    const answer = await list({ before: other });
    expect(answer.code).toBe(1000);
    expect(idsOf(answer)).toEqual(below.slice(0, PAGE));
    expect(answer.data.has_more).toBe(below.length > PAGE);
  }
}
