import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { propertyRuns } from '../../../packages/shared/test/property-runs.ts';
import { advance, indexTick, newTrader, place } from './delivery-harness.ts';
import { DIALECTS, startServer, type TestServer } from './harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';

type Command =
  | { kind: 'place'; user: number; up: boolean; trial: boolean; amount: number; period: number }
  | { kind: 'tick'; move: number }
  | { kind: 'advance'; seconds: number };

const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({
    kind: fc.constant('place' as const),
    user: fc.integer({ min: 0, max: 2 }),
    up: fc.boolean(),
    trial: fc.boolean(),
    amount: fc.integer({ min: 10, max: 700 }),
    period: fc.constantFrom(60, 180),
  }),
  fc.record({ kind: fc.constant('tick' as const), move: fc.integer({ min: -3, max: 3 }) }),
  fc.record({ kind: fc.constant('advance' as const), seconds: fc.integer({ min: 1, max: 400 }) }),
);

describe.each(DIALECTS)('delivery property on $name', ({ name, skip }) => {
  describe.skipIf(skip)('', () => {
    let server: TestServer;
    let users: { token: string; userId: bigint }[];
    let price = 1000;
    beforeAll(async () => {
      server = await startServer(name, {
        env: {
          DEMO: 'on',
          LIMIT_REGISTER_PER_IP: '1000/3600',
          SESSION_IDLE_MINUTES: '100000',
          DELIVERY_GRACE_SECONDS: '200',
        },
      });
      users = [];
      for (let i = 0; i < 3; i++) users.push(await newTrader(server, { usdt: i !== 2 }));
      await indexTick(server, 'BTCUSDT', String(price));
    });
    afterAll(async () => {
      await expectLedgerInvariants(server);
      await server?.close();
    });

    it('keeps every ledger invariant through random real and trial placements and settlements', async () => {
      const { ledger, store, wallet } = server.app.ctx;
      let placed = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 12 }), async (commands) => {
          for (const c of commands) {
            if (c.kind === 'tick') {
              price = Math.max(1, price + c.move);
              await indexTick(server, 'BTCUSDT', String(price));
            } else if (c.kind === 'advance') {
              // why: sometimes with a tick at the new time, sometimes without (the index went stale).
              await advance(server, c.seconds * 1000);
              if (c.seconds % 2 === 0) await indexTick(server, 'BTCUSDT', String(price));
            } else {
              const answer = await place(server, users[c.user]!.token, {
                direction: c.up ? 'up' : 'down',
                trial: c.trial ? '1' : '0',
                amount: String(c.amount),
                period: c.period,
              });
              // why: every refusal must be a business answer, never a fault of our own.
              expect([1000, 7004, 7005, 7006, 7007, 7008, 7009, 7010, 7031, 7032]).toContain(answer.code);
              if (answer.code === 1000) placed++;
            }
          }
          const check = await ledger.checkInvariants();
          expect(check.problems).toEqual([]);
          // trial money is never what the wallet can withdraw or convert: its available is the ledger's available
          for (const u of users) {
            const shown = await wallet?.getBalance(u.userId, 'USDT');
            const available = await ledger.balance(store.db, { userId: u.userId }, 'USDT', 'available');
            expect(shown?.available).toBe((Number(available) / 1e8).toFixed(8));
          }
        }),
        { numRuns: propertyRuns(12) },
      );
      expect(placed).toBeGreaterThan(0);
      // everything placed eventually settles or closes
      await advance(server, 400_000);
      await indexTick(server, 'BTCUSDT', String(price));
      await advance(server, 1000);
      const open = await store.db
        .selectFrom('delivery_contracts')
        .select('id')
        .where('status', 'in', ['opening', 'open', 'settling'])
        .execute();
      expect(open).toEqual([]);
      expect((await ledger.checkInvariants()).problems).toEqual([]);
    });
  });
});
