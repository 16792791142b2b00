import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { propertyRuns } from '../../../packages/shared/test/property-runs.ts';
import { summarizeSettled } from '../src/modules/delivery/repository.ts';
import { advance, deliveryOf, indexTick, newTrader, place, placeOpen } from './delivery-harness.ts';
import { DIALECTS, startServer, type TestServer } from './harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface Settled {
  symbol: string;
  funding: string;
  result: string | null;
  amount: bigint;
  profit: bigint | null;
  settled_at: bigint | null;
}

/** The oracle: the settled contracts in [from, to] grouped by market, funding and result. */
function grouped(rows: readonly Settled[], from?: bigint, to?: bigint): string[] {
  const lines = new Map<string, { count: bigint; amount: bigint; profit: bigint }>();
  for (const row of rows) {
    const at = row.settled_at as bigint;
    if ((from !== undefined && at < from) || (to !== undefined && at > to)) continue;
    const key = `${row.symbol}|${row.funding}|${row.result}`;
    const line = lines.get(key) ?? { count: 0n, amount: 0n, profit: 0n };
    line.count += 1n;
    line.amount += row.amount;
    line.profit += row.profit ?? 0n;
    lines.set(key, line);
  }
  return [...lines].map(([key, l]) => `${key} ${l.count} ${l.amount} ${l.profit}`).sort();
}

describe.each(DIALECTS)("the house's delivery result per day on $name", ({ name, skip }) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(name, {
      env: {
        DEMO: 'on',
        LIMIT_REGISTER_PER_IP: '1000/3600',
        // why: the clock moves days forward; the session must outlive it.
        SESSION_IDLE_MINUTES: '100000',
      },
    });
  });
  afterAll(async () => {
    await expectLedgerInvariants(server);
    await server?.close();
  });

  it.skipIf(skip)(
    'is kept as contracts settle, and any range reads the same as grouping the contracts',
    async () => {
      const user = await newTrader(server);
      // why: contracts settled across four UTC days, at uneven hours, won, lost and drawn.
      const closes = ['70100', '69900', '70000', '70200', '69800', '70100', '70000', '69000'];
      for (const [i, close] of closes.entries()) {
        await indexTick(server, 'BTCUSDT', '70000');
        const placed = await placeOpen(
          server,
          user.token,
          { amount: String(10 + i), direction: i % 2 === 0 ? 'up' : 'down' },
          '70000',
        );
        expect({ i, code: placed.code, status: placed.data?.status }).toEqual({
          i,
          code: 1000,
          status: 'open',
        });
        const expires = placed.data.expires_at as number;
        await indexTick(server, 'BTCUSDT', close, expires + 100);
        // why: one contract settles on a UTC midnight, the edge between a day's figures and the next.
        const settleAt = i === 3 ? expires + DAY - ((expires + DAY) % DAY) : expires + 1000;
        await advance(server, settleAt - server.clock.now());
        await server.clock.advance(11 * HOUR + i * 7 * 60_000);
      }
      const db = server.app.ctx.store.db;
      const contracts = await db
        .selectFrom('delivery_contracts')
        .select(['symbol', 'funding', 'result', 'amount', 'profit', 'settled_at'])
        .where('status', 'in', ['settled', 'closed'])
        .execute();
      expect(contracts).toHaveLength(closes.length);
      const settledAt = contracts.map((c) => c.settled_at as bigint);
      const days = new Set(settledAt.map((at) => at - (at % BigInt(DAY))));
      expect(days.size).toBeGreaterThanOrEqual(4);
      expect(settledAt.filter((at) => at % BigInt(DAY) === 0n)).toHaveLength(1);

      // The figures kept per day are the contracts' own, day by day.
      const kept = await db.selectFrom('delivery_pnl_days').selectAll().execute();
      for (const day of days) {
        const ofDay = contracts.filter(
          (c) => (c.settled_at as bigint) - ((c.settled_at as bigint) % BigInt(DAY)) === day,
        );
        expect(
          kept
            .filter((k) => k.day === day)
            .map((k) => `${k.symbol}|${k.funding}|${k.result} ${k.count} ${k.amount} ${k.profit}`)
            .sort(),
        ).toEqual(grouped(ofDay));
      }

      const first = settledAt.reduce((a, b) => (a < b ? a : b)) - BigInt(DAY);
      const last = settledAt.reduce((a, b) => (a > b ? a : b)) + BigInt(DAY);
      const bound = fc.option(fc.bigInt({ min: first, max: last }), { nil: undefined });
      const edges = fc.constantFrom(
        ...settledAt.flatMap((at) => [at - 1n, at, at + 1n, at - (at % BigInt(DAY))]),
      );
      await fc.assert(
        fc.asyncProperty(fc.oneof(bound, edges), fc.oneof(bound, edges), async (from, to) => {
          const rows = await summarizeSettled(db, { from, to });
          const answer = rows.map(
            (r) => `${r.symbol}|${r.funding}|${r.result} ${r.count} ${r.amount} ${r.profit ?? 0n}`,
          );
          expect(answer.sort()).toEqual(grouped(contracts, from, to));
        }),
        { numRuns: propertyRuns(60) },
      );
    },
  );

  it.skipIf(skip)(
    'counts each contract once when settlement runs on several workers at the same moment',
    async () => {
      const db = server.app.ctx.store.db;
      const user = await newTrader(server);
      await indexTick(server, 'BTCUSDT', '70000');
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) {
        const placed = await place(server, user.token, {
          amount: '10',
          direction: i % 2 === 0 ? 'up' : 'down',
        });
        expect(placed.code).toBe(1000);
        ids.push(placed.data.id as string);
      }
      // why: one opening tick for all, then one closing tick: every contract is due at once.
      const opened = server.clock.now() + 1;
      await indexTick(server, 'BTCUSDT', '70000', opened);
      await advance(server, 1000);
      await indexTick(server, 'BTCUSDT', '70050', opened + 60_500);
      await server.clock.advance(62_000);
      await Promise.all(Array.from({ length: 6 }, () => deliveryOf(server).service.runSettlement()));

      const rows = await db
        .selectFrom('delivery_contracts')
        .select(['symbol', 'funding', 'result', 'amount', 'profit', 'settled_at', 'status'])
        .where('id', 'in', ids.map(BigInt))
        .execute();
      expect(rows.map((r) => r.status)).toEqual(Array(12).fill('settled'));
      const day = (rows[0]?.settled_at as bigint) - ((rows[0]?.settled_at as bigint) % BigInt(DAY));
      const all = await db
        .selectFrom('delivery_contracts')
        .select(['symbol', 'funding', 'result', 'amount', 'profit', 'settled_at'])
        .where('status', 'in', ['settled', 'closed'])
        .execute();
      const kept = await db.selectFrom('delivery_pnl_days').selectAll().where('day', '=', day).execute();
      expect(
        kept.map((k) => `${k.symbol}|${k.funding}|${k.result} ${k.count} ${k.amount} ${k.profit}`).sort(),
      ).toEqual(
        grouped(
          all.filter((c) => (c.settled_at as bigint) - ((c.settled_at as bigint) % BigInt(DAY)) === day),
        ),
      );
      expect(kept.find((k) => k.result === 'win')?.count).toBe(6n);
      expect(kept.find((k) => k.result === 'loss')?.count).toBe(6n);
    },
  );
});
