import { randomUUID } from 'node:crypto';
import { toAtoms } from '@bourse/shared';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { propertyRuns } from '../../../packages/shared/test/property-runs.ts';
import { DIALECTS, startServer, type TestServer } from './harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';
import {
  ADDRESSES,
  fund,
  newUser,
  pngImage,
  postDeposit,
  STAFF,
  saveAddress,
  walletOf,
  withdraw,
} from './wallet-harness.ts';

type Command =
  | { kind: 'deposit'; user: number; amount: number }
  | { kind: 'confirm'; pick: number; percent: number }
  | { kind: 'rejectDeposit'; pick: number }
  | { kind: 'withdraw'; user: number; amount: number }
  | { kind: 'approve'; pick: number }
  | { kind: 'rejectWithdrawal'; pick: number }
  | { kind: 'convert'; user: number; toBtc: boolean; amount: number };

const user = fc.integer({ min: 0, max: 1 });
const pick = fc.nat({ max: 20 });
const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ kind: fc.constant('deposit' as const), user, amount: fc.integer({ min: 10, max: 400 }) }),
  fc.record({ kind: fc.constant('confirm' as const), pick, percent: fc.integer({ min: 1, max: 120 }) }),
  fc.record({ kind: fc.constant('rejectDeposit' as const), pick }),
  fc.record({ kind: fc.constant('withdraw' as const), user, amount: fc.integer({ min: 5, max: 300 }) }),
  fc.record({ kind: fc.constant('approve' as const), pick }),
  fc.record({ kind: fc.constant('rejectWithdrawal' as const), pick }),
  fc.record({
    kind: fc.constant('convert' as const),
    user,
    toBtc: fc.boolean(),
    amount: fc.integer({ min: 1, max: 200 }),
  }),
);

describe.each(DIALECTS)('wallet property on $name', ({ name, skip }) => {
  describe.skipIf(skip)('', () => {
    let server: TestServer;
    let users: { token: string; payPassword: string; addressId: string }[];
    let voucher: Buffer;

    beforeAll(async () => {
      server = await startServer(name, {
        env: { DEMO: 'on', LIMIT_PASSWORD_CHECKS: '100000/900', LIMIT_REGISTER_PER_IP: '1000/3600' },
      });
      voucher = await pngImage();
      users = [];
      for (let i = 0; i < 2; i++) {
        const u = await newUser(server);
        const addressId = await saveAddress(server, u.token, {
          coin: 'USDT',
          network: 'TRC20',
          address: ADDRESSES.trx,
        });
        await fund(server, u, 'USDT', 'TRC20', '1500');
        users.push({ token: u.token, payPassword: u.payPassword, addressId });
      }
    });
    afterAll(async () => {
      await expectLedgerInvariants(server);
      await server?.close();
    });

    it('keeps every ledger invariant through random deposits, reviews, withdrawals and conversions', async () => {
      const wallet = walletOf(server);
      await fc.assert(
        fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 12 }), async (commands) => {
          for (const c of commands) {
            const outcome = await run(c);
            // why: every refusal must be a business answer, never a fault of our own.
            expect([1000, 1003, 3004, 3006, 3007, 3024]).toContain(outcome);
          }
          const check = await server.app.ctx.ledger.checkInvariants();
          expect(check.problems).toEqual([]);
        }),
        { numRuns: propertyRuns(15) },
      );
      // why: the sequences must really have moved money, or the property proved nothing.
      expect((await wallet.listDeposits({ status: 'credited', page: 1 })).list.length).toBeGreaterThan(0);
      expect((await wallet.listWithdrawals({ page: 1 })).list.length).toBeGreaterThan(0);

      async function run(c: Command): Promise<number> {
        switch (c.kind) {
          case 'deposit': {
            const answer = await postDeposit(
              server,
              users[c.user]!.token,
              { coin: 'USDT', network: 'TRC20', amount: String(c.amount) },
              { data: voucher, filename: 'v.png' },
            );
            return answer.code;
          }
          case 'confirm':
          case 'rejectDeposit': {
            const queue = (await wallet.listDeposits({ status: 'confirming', page: 1 })).list;
            const target = queue[c.pick % Math.max(1, queue.length)];
            if (!target) return 1000;
            const depositId = BigInt(target.id);
            return settle(() =>
              c.kind === 'confirm'
                ? wallet.confirmDeposit({
                    depositId,
                    creditedAmount: (toAtoms(target.amount) * BigInt(c.percent)) / 100n,
                    staff: STAFF,
                  })
                : wallet.rejectDeposit({ depositId, reason: 'property', staff: STAFF }),
            );
          }
          case 'withdraw': {
            const u = users[c.user]!;
            const answer = await withdraw(server, u.token, {
              coin: 'USDT',
              address_id: u.addressId,
              amount: String(c.amount),
              paypassword: u.payPassword,
            });
            return answer.code;
          }
          case 'approve':
          case 'rejectWithdrawal': {
            const queue = (await wallet.listWithdrawals({ status: 'review', page: 1 })).list;
            const target = queue[c.pick % Math.max(1, queue.length)];
            if (!target) return 1000;
            const withdrawalId = BigInt(target.id);
            return settle(() =>
              c.kind === 'approve'
                ? wallet.approveWithdrawal({ withdrawalId, staff: STAFF })
                : wallet.rejectWithdrawal({ withdrawalId, reason: 'property', staff: STAFF }),
            );
          }
          case 'convert': {
            const answer = await server.call(
              'POST',
              '/Finance/zhuanhua',
              {
                from: c.toBtc ? 'USDT' : 'BTC',
                to: c.toBtc ? 'BTC' : 'USDT',
                amount: c.toBtc ? String(c.amount) : `0.000${c.amount}`,
                idempotency_key: randomUUID(),
              },
              { token: users[c.user]!.token },
            );
            return answer.code;
          }
        }
      }

      async function settle(action: () => Promise<unknown>): Promise<number> {
        try {
          await action();
          return 1000;
        } catch (error) {
          const code = (error as { code?: number }).code;
          if (typeof code === 'number') return code;
          throw error;
        }
      }
    }, 120_000);
  });
});
