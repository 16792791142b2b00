/** The delivery contracts' constants (see delivery.ts), in a module without zod. */

export const CONTRACT_DIRECTIONS = ['up', 'down'] as const;
export type ContractDirection = (typeof CONTRACT_DIRECTIONS)[number];

/** win, loss, draw (close = open, refunded), refund (closed after the grace period). */
export const CONTRACT_RESULTS = ['win', 'loss', 'draw', 'refund'] as const;
export type ContractResult = (typeof CONTRACT_RESULTS)[number];

/** Candle intervals kept for the index, by name on the wire (`1m` … `1d`). */
export const KLINE_INTERVALS = ['1m', '5m', '15m', '1h', '4h', '1d'] as const;
export type KlineInterval = (typeof KLINE_INTERVALS)[number];
export const KLINE_INTERVAL_MS: Record<KlineInterval, number> = {
  '1m': 60_000,
  '5m': 300_000,
  '15m': 900_000,
  '1h': 3_600_000,
  '4h': 14_400_000,
  '1d': 86_400_000,
};

/** Most candles or ticks one history call answers. */
export const HISTORY_MAX = 1000;

/** Why a source's price was left out of an index tick. */
export const CONSTITUENT_DROP_REASONS = ['stale', 'outlier', 'down', 'unmapped', 'invalid'] as const;

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
