/**
 * Root of every wallet query key. Anything that moves money (a deposit, a withdrawal, a
 * conversion) invalidates the whole tree: balances, records and bills all change together.
 */
export const walletQueryKey = ['wallet'] as const;
