/**
 * opening: accepted, its amount held, waiting for the first index tick recorded after acceptance,
 * which is its opening price (refunded when none comes within the grace period); open: counting
 * down to expiry; settling: expired, waiting for the first index tick at or after
 * the expiry (the index is stale); settled: won, lost or drawn; closed: refunded because the index
 * stayed unavailable past the published grace period.
 */
export const CONTRACT_STATUSES = ['opening', 'open', 'settling', 'settled', 'closed'] as const;
export type ContractStatus = (typeof CONTRACT_STATUSES)[number];

/** The statuses of a contract whose amount is still held: accepted and not yet settled or closed. */
export const LIVE_CONTRACT_STATUSES = [
  'opening',
  'open',
  'settling',
] as const satisfies readonly ContractStatus[];
