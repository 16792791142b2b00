import { expect } from 'vitest';
import type { TestServer } from './harness.ts';

/**
 * Asserts the ledger's invariants on a test server's store: sums zero per asset, balances equal
 * folds of postings, no negative user balance, frozen equals open reservations. Call it in the
 * `afterAll` of every integration suite that moves money, before closing the server.
 */
export async function expectLedgerInvariants(server: TestServer | undefined): Promise<void> {
  if (!server) return;
  const result = await server.app.ctx.ledger.checkInvariants();
  expect(result.problems).toEqual([]);
  expect(result.ok).toBe(true);
}
