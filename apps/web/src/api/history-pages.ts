/** A page of a customer's history list as the server answers it (`historyQuery` on the server). */
interface HistoryPageAnswer {
  list: readonly { id: string | number }[];
  has_more: boolean;
}

/**
 * The paging of a customer's history list, spread into `useInfiniteQuery` or
 * `infiniteQueryOptions` whose `queryFn` sends its `pageParam` as `before`: the first page without
 * one, each next page below the last id of the page before, none once an answer says no more follow.
 */
export const historyPages = {
  initialPageParam: undefined as string | undefined,
  getNextPageParam: (last: HistoryPageAnswer): string | undefined => {
    const id = last.list.at(-1)?.id;
    return last.has_more && id !== undefined ? String(id) : undefined;
  },
};
