import { describe, expect, it } from 'vitest';
import { historyPages } from './history-pages.ts';

describe('historyPages', () => {
  it('asks the first page without a cursor, each next one below the last id of the page before', () => {
    expect(historyPages.initialPageParam).toBeUndefined();
    expect(historyPages.getNextPageParam({ list: [{ id: '9' }, { id: '7' }], has_more: true })).toBe('7');
    // why: some lists answer ids as numbers (notices, the login log); `before` goes as a string.
    expect(historyPages.getNextPageParam({ list: [{ id: 12 }, { id: 4 }], has_more: true })).toBe('4');
  });

  it('asks no further once an answer says no more follow', () => {
    expect(historyPages.getNextPageParam({ list: [{ id: '7' }], has_more: false })).toBeUndefined();
    expect(historyPages.getNextPageParam({ list: [], has_more: true })).toBeUndefined();
  });
});
