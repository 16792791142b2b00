/**
 * Root of every delivery query key. Placing a contract, and a contract settling, invalidate the
 * whole tree: balances, trial grants and both contract lists change together.
 */
export const deliveryQueryKey = ['delivery'] as const;
