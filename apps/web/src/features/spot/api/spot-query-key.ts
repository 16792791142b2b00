/**
 * Root of every spot query key. Placing or cancelling an order invalidates the caller's part of
 * the tree (orders and balances) and the book it changed.
 */
export const spotQueryKey = ['spot'] as const;
