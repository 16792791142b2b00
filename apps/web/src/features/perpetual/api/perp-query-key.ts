/**
 * Root of every perpetual query key. An action (place, cancel, close, stop-loss / take-profit,
 * margin, leverage) invalidates the caller's part of the tree: the account, orders and histories.
 */
export const perpQueryKey = ['perp'] as const;

/** The caller's perpetual data: account, orders, funding payments and liquidations. */
export const perpMineKey = [...perpQueryKey, 'mine'] as const;
