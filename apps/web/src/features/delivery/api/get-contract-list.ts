import type { ContractList, ContractListQuery, ContractRecord } from '@bourse/shared/api';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { serverNow } from '../../../shared/server-clock.ts';
import { isLive } from './contract-status.ts';
import { deliveryQueryKey } from './delivery-query-key.ts';
import { type EarlyRequest, earlyRequest } from './early-request.ts';

/** `GET /Contract/ctbill`: open (and settling) or settled (and closed) contracts, newest first. */
export async function getContractList(
  status: NonNullable<ContractListQuery['status']>,
  page: number,
  signal?: AbortSignal,
): Promise<ContractList> {
  return (await get('/Contract/ctbill', { status, page }, 'ContractList', { signal, silent: true })).data;
}

/** How often a contract that waits for its opening tick or its settlement is asked after. */
export const SETTLING_POLL_MS = 2000;

/** True once a listed contract has run out its time but is not settled yet. */
export function isAwaitingSettlement(record: ContractRecord, now = serverNow()): boolean {
  return record.status === 'settling' || (record.status === 'open' && record.expires_at <= now);
}

/**
 * When to ask again about `records`: soon while one waits for its opening tick or its settlement,
 * else just after the next expiry, else never (false).
 */
export function nextCheckIn(records: readonly ContractRecord[], now = serverNow()): number | false {
  let next: number | false = false;
  for (const record of records) {
    if (!isLive(record)) continue;
    const wait =
      record.status === 'opening' || isAwaitingSettlement(record, now)
        ? SETTLING_POLL_MS
        : Math.max(SETTLING_POLL_MS, record.expires_at - now + 500);
    if (next === false || wait < next) next = wait;
  }
  return next;
}

type ContractListStatus = NonNullable<ContractListQuery['status']>;

const firstPages: Record<ContractListStatus, EarlyRequest<ContractList>> = {
  open: earlyRequest((signal) => getContractList('open', 1, signal)),
  settled: earlyRequest((signal) => getContractList('settled', 1, signal)),
};

/** Asks for the first page of a contract list as the page's code loads (see early-request.ts). */
export function startContractList(status: ContractListStatus): void {
  firstPages[status].start();
}

export function contractListQueryOptions(status: ContractListStatus) {
  return infiniteQueryOptions({
    queryKey: [...deliveryQueryKey, 'contracts', status],
    queryFn: ({ pageParam, signal }) =>
      pageParam === 1 ? firstPages[status].take(signal) : getContractList(status, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.has_more ? last.page + 1 : undefined),
    // why: a contract opens, and an expired one settles, on the next index tick; the list asks
    // again until it has.
    refetchInterval: (query) =>
      status === 'open' ? nextCheckIn(query.state.data?.pages.flatMap((page) => page.list) ?? []) : false,
  });
}

export function useContractList(status: ContractListStatus) {
  return useInfiniteQuery(contractListQueryOptions(status));
}
