import type { ContractList, ContractListQuery, ContractRecord } from '@bourse/shared/api';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { historyPages } from '../../../api/history-pages.ts';
import { get } from '../../../api/http.ts';
import { serverNow } from '../../../shared/server-clock.ts';
import { isLive } from './contract-status.ts';
import { deliveryQueryKey } from './delivery-query-key.ts';

/**
 * `GET /Contract/ctbill`: open (and settling) or settled (and closed) contracts, newest first;
 * `before` is the last id of the previous page.
 */
export async function getContractList(
  status: NonNullable<ContractListQuery['status']>,
  before?: string,
  signal?: AbortSignal,
): Promise<ContractList> {
  return (await get('/Contract/ctbill', { status, before }, 'ContractList', { signal, silent: true })).data;
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

export function contractListQueryOptions(status: NonNullable<ContractListQuery['status']>) {
  return infiniteQueryOptions({
    queryKey: [...deliveryQueryKey, 'contracts', status],
    queryFn: ({ pageParam, signal }) => getContractList(status, pageParam, signal),
    ...historyPages,
    // why: a contract opens, and an expired one settles, on the next index tick; the list asks
    // again until it has.
    refetchInterval: (query) =>
      status === 'open' ? nextCheckIn(query.state.data?.pages.flatMap((page) => page.list) ?? []) : false,
  });
}

export function useContractList(status: NonNullable<ContractListQuery['status']>) {
  return useInfiniteQuery(contractListQueryOptions(status));
}
