import { randomUUID } from 'node:crypto';
import { fromAtoms } from '@bourse/shared';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { propertyRuns, propertyTimeout } from '../../../packages/shared/test/property-runs.ts';
import { indexTick } from './delivery-harness.ts';
import { type ApiAnswer, callAdmin, DIALECTS, type TestServer } from './harness.ts';
import { expectListPages, newestFirst } from './history-harness.ts';
import {
  atoms,
  chain,
  DAY_MS,
  fundUsdt,
  join,
  type Member,
  startLaunchpadServer,
  units,
  verifyUser,
} from './launchpad-harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';

const HOUR_MS = 3_600_000;

describe.each(DIALECTS)('mining market on $name', ({ name, skip }) => {
  describe.skipIf(skip)('', () => {
    let server: TestServer;
    let staff: Awaited<ReturnType<typeof startLaunchpadServer>>['staff'];

    const mining = () => {
      const service = server.app.ctx.mining;
      if (!service) throw new Error('the mining module is not registered');
      return service;
    };
    const midnightAfter = (at: number) => at - (at % DAY_MS) + DAY_MS;
    /** Moves the clock to `at` and runs the midnight job once. */
    async function jobAt(at: number) {
      if (at > server.clock.now()) await server.clock.advance(at - server.clock.now());
      return mining().runJobs();
    }

    async function product(terms: Record<string, unknown>): Promise<string> {
      const created = await callAdmin(
        server,
        'POST',
        '/mining/products',
        {
          name: 'Machine',
          type: 'sole',
          feeHashrate: '320',
          feeElectricityDay: '5.4',
          feeManagement: '18',
          coin: 'BTC',
          incomeType: 'constant',
          dailyQ: '0.0002',
          days: 30,
          capacity: 10,
          releaseDelayDays: 1,
          ...terms,
        },
        staff.owner,
      );
      expect(created.code, created.msg).toBe(1000);
      const id = created.data.id as string;
      expect(
        (await callAdmin(server, 'POST', `/mining/products/${id}/status`, { status: 'normal' }, staff.owner))
          .code,
      ).toBe(1000);
      return id;
    }

    async function fundPool(coin: string, amount: string) {
      const answer = await callAdmin(
        server,
        'POST',
        `/mining/pools/${coin}/fund`,
        { amount, idempotency_key: randomUUID() },
        staff.finance,
      );
      expect(answer.code, answer.msg).toBe(1000);
    }

    function buy(
      member: Member,
      id: string,
      fields: Record<string, string | number> = {},
    ): Promise<ApiAnswer> {
      return server.call(
        'POST',
        '/Orepool/buy',
        { id, idempotency_key: randomUUID(), ...fields },
        { token: member.token, lang: 'en-us' },
      );
    }

    async function buyer(username: string, usdt: string): Promise<Member> {
      const member = await join(server, `${username}_${name}`);
      await fundUsdt(server, member, usdt);
      return member;
    }

    const revenues = async (member: Member) =>
      (await server.call('GET', '/Orepool/Profitlist', {}, { token: member.token })).data.list as {
        day: number;
        amount: string;
        price_used: string | null;
        released: boolean;
      }[];

    beforeAll(async () => {
      ({ server, staff } = await startLaunchpadServer(name));
    }, 120_000);

    afterAll(async () => {
      await expectLedgerInvariants(server);
      await server?.close();
    });

    it('M4: holding 99.5 of 100 PLAT refuses with "platform coin insufficient"; 2 of 3 verified referees with "too few direct referrals"', async () => {
      const id = await product({ coin: 'XRP', holdCoin: 'PLAT', minHold: '100', minReferrals: 3 });
      const [holder] = await chain(server, staff.compliance, [`m4_holder_${name}`]);
      const member = holder!;
      await fundUsdt(server, member, '1000');
      const credit = (amount: string, ref: string) =>
        server.app.ctx.store.db.transaction().execute((trx) =>
          server.app.ctx.ledger.post(trx, {
            type: 'adjustment',
            ref,
            postings: [
              { owner: { system: 'adjustments' }, asset: 'PLAT', kind: 'available', amount: -units(amount) },
              { owner: { userId: member.userId }, asset: 'PLAT', kind: 'available', amount: units(amount) },
            ],
          }),
        );
      await credit('99.5', `m4-plat-1-${name}`);
      for (const [i, verified] of [true, true, false].entries()) {
        const referee = await join(server, `m4_ref${i}_${name}`, member.code);
        if (verified) await verifyUser(server, referee, staff.compliance);
      }
      const poor = await buy(member, id);
      expect([poor.code, poor.msg]).toEqual([7805, 'Platform coin insufficient.']);
      await credit('0.5', `m4-plat-2-${name}`);
      const few = await buy(member, id);
      expect([few.code, few.msg]).toEqual([7806, 'Too few direct referrals.']);
      // the holding is checked, not spent; nothing was charged
      expect(await atoms(server, { userId: member.userId }, 'PLAT')).toBe(units('100'));
      expect(await atoms(server, { userId: member.userId }, 'USDT')).toBe(units('1000'));
    });

    it('M3: A buys 3,000 bp, B 5,000 bp through A’s link, C’s 2,500 is refused; a day pays 60,000 and 100,000 atoms, 40,000 stay', async () => {
      const id = await product({
        type: 'shared',
        coin: 'LTC',
        feeHashrate: '10000',
        feeElectricityDay: '0',
        feeManagement: '0',
        dailyQ: '0.002',
        minShareBp: 1000,
        stepBp: 1000,
      });
      await fundPool('LTC', '1');
      const a = await buyer('m3_a', '3000');
      const b = await buyer('m3_b', '5000');
      const c = await buyer('m3_c', '5000');
      const first = await buy(a, id, { share_bp: 3000 });
      expect(first.data).toMatchObject({ share_bp: 3000, price: '3000.00000000', status: 'waiting' });
      const code = first.data.share_code as string;
      expect(code).toMatch(/^[A-Za-z0-9_-]{12}$/);
      const detail = await server.call('GET', '/Orepool/kjinfo', { id, share: code }, { token: b.token });
      expect(detail.data.share).toEqual({ code, left_bp: 7000 });
      expect((await buy(b, id, { share_bp: 5000, share: code })).code).toBe(1000);
      const refused = await buy(c, id, { share_bp: 2500, share: code });
      expect([refused.code, refused.msg]).toEqual([7804, 'Share proportion incorrect: 20% left.']);
      expect(await atoms(server, { userId: c.userId }, 'USDT')).toBe(units('5000'));
      const sole = await product({ coin: 'LTC', name: 'Sole' });
      expect((await buy(c, sole, { share: code })).code).toBe(7803);

      const start = midnightAfter(server.clock.now());
      const poolBefore = await atoms(server, { system: 'mining_pool:LTC' }, 'LTC');
      await jobAt(start + DAY_MS);
      expect(await atoms(server, { userId: a.userId }, 'LTC', 'mining')).toBe(60_000n);
      expect(await atoms(server, { userId: b.userId }, 'LTC', 'mining')).toBe(100_000n);
      expect(poolBefore - (await atoms(server, { system: 'mining_pool:LTC' }, 'LTC'))).toBe(160_000n);
    });

    it('M2: by output value, 5 USDT a day: 10,000 atoms at 50,000, then 8,000 at 62,500, each with its price', async () => {
      const id = await product({ coin: 'ETH', incomeType: 'value', dailyQ: '0', dailyValue: '5', days: 10 });
      await fundPool('ETH', '1');
      const holder = await buyer('m2', '1000');
      expect((await buy(holder, id)).code).toBe(1000);
      const start = midnightAfter(server.clock.now());
      await server.clock.advance(start + DAY_MS - server.clock.now());
      // the day's output waits for the index at its closing 00:00
      await mining().runJobs();
      expect(await revenues(holder)).toEqual([]);
      await indexTick(server, 'ETHUSDT', '50000');
      await mining().runJobs();
      await server.clock.advance(DAY_MS);
      await indexTick(server, 'ETHUSDT', '62500');
      await mining().runJobs();
      const rows = await revenues(holder);
      expect(rows.map((r) => [r.amount, r.price_used])).toEqual([
        ['0.00008000', '62500.00000000'],
        ['0.00010000', '50000.00000000'],
      ]);
    });

    it('M5: a pool that cannot cover a day pays nothing, shows stopped and extends the contract; refilled, it resumes', async () => {
      const id = await product({ coin: 'DOGE', dailyQ: '0.0015', days: 5 });
      await fundPool('DOGE', '0.001');
      const holder = await buyer('m5', '1000');
      const order = (await buy(holder, id)).data;
      const start = midnightAfter(server.clock.now());
      await jobAt(start + DAY_MS);
      await jobAt(start + 2 * DAY_MS);
      expect(await atoms(server, { userId: holder.userId }, 'DOGE', 'mining')).toBe(0n);
      const market = (await server.call('GET', '/Orepool/index', {}, { token: holder.token })).data;
      expect(market.list.find((p: { id: string }) => p.id === id).status).toBe('stopped');
      expect(market.orders.find((o: { id: string }) => o.id === order.id)).toMatchObject({
        status: 'stopped',
        stopped_days: 2,
        expire_at: start + 7 * DAY_MS,
      });
      await fundPool('DOGE', '1');
      await jobAt(start + 3 * DAY_MS);
      expect(await atoms(server, { userId: holder.userId }, 'DOGE', 'mining')).toBe(units('0.0015'));
      expect((await mining().pools()).find((p) => p.coin === 'DOGE')).toMatchObject({ warning: false });
      const after = (await server.call('GET', '/Orepool/index', {}, { token: holder.token })).data;
      expect(after.list.find((p: { id: string }) => p.id === id).status).toBe('normal');
    });

    it('50 buyers at once for the last capacity never oversell: 5 machines, 2,000 bp of a shared one', async () => {
      const sole = await product({ coin: 'TRX', capacity: 5 });
      const shared = await product({
        type: 'shared',
        coin: 'TRX',
        name: 'Shared',
        capacity: 1,
        feeHashrate: '100',
        feeElectricityDay: '0',
        feeManagement: '0',
        minShareBp: 1000,
        stepBp: 1000,
      });
      const first = await buyer('race_first', '100');
      const code = (await buy(first, shared, { share_bp: 8000 })).data.share_code as string;
      const crowd: Member[] = [];
      for (let i = 0; i < 50; i++) crowd.push(await buyer(`race${i}`, '600'));
      const machines = await Promise.all(crowd.map((m) => buy(m, sole)));
      expect(machines.filter((a) => a.code === 1000)).toHaveLength(5);
      expect(machines.filter((a) => a.code === 7802)).toHaveLength(45);
      const shares = await Promise.all(crowd.map((m) => buy(m, shared, { share_bp: 1000, share: code })));
      expect(shares.filter((a) => a.code === 1000)).toHaveLength(2);
      expect(shares.filter((a) => a.code === 7804)).toHaveLength(48);
      const market = (await server.call('GET', '/Orepool/index', {}, { token: first.token })).data.list;
      expect(market.find((p: { id: string }) => p.id === sole)).toMatchObject({
        capacity_left: '0.00000000',
        status: 'sold_out',
      });
      expect(market.find((p: { id: string }) => p.id === shared)).toMatchObject({
        capacity_left: '0.00000000',
      });
      let paid = 0n;
      for (const m of crowd) paid += units('600') - (await atoms(server, { userId: m.userId }, 'USDT'));
      expect(paid).toBe(units('2500') + units('20'));
    });

    it(
      'random purchases, share purchases, pool fundings and days keep every invariant; Σ sold ≤ capacity; Σ paid out ≤ Σ funded',
      async () => {
        const coin = 'SOL';
        const sole = await product({
          coin,
          capacity: 3,
          dailyQ: '0.01',
          days: 4,
          feeHashrate: '10',
          feeElectricityDay: '0',
          feeManagement: '0',
          maxOrders: 3,
        });
        const shared = await product({
          type: 'shared',
          coin,
          name: 'Shared SOL',
          capacity: 2,
          dailyQ: '0.03',
          days: 4,
          feeHashrate: '10',
          feeElectricityDay: '0',
          feeManagement: '0',
          minShareBp: 500,
          stepBp: 500,
          maxOrders: 5,
        });
        const people: Member[] = [];
        for (let i = 0; i < 4; i++) people.push(await buyer(`prop${i}`, '1000'));
        let funded = 0n;
        const codes: string[] = [];
        await fc.assert(
          fc.asyncProperty(
            fc.array(
              fc.oneof(
                fc.record({ kind: fc.constant('sole' as const), who: fc.nat({ max: 3 }) }),
                fc.record({
                  kind: fc.constant('share' as const),
                  who: fc.nat({ max: 3 }),
                  bp: fc.integer({ min: 1, max: 24 }),
                  viaLink: fc.boolean(),
                }),
                fc.record({ kind: fc.constant('fund' as const), amount: fc.integer({ min: 1, max: 40 }) }),
                fc.record({ kind: fc.constant('day' as const) }),
              ),
              { maxLength: 12 },
            ),
            async (steps) => {
              for (const step of steps) {
                if (step.kind === 'sole') {
                  expect([1000, 7802, 7807]).toContain((await buy(people[step.who]!, sole)).code);
                } else if (step.kind === 'share') {
                  const code = step.viaLink ? codes.at(-1) : undefined;
                  const answer = await buy(people[step.who]!, shared, {
                    share_bp: step.bp * 500,
                    ...(code ? { share: code } : {}),
                  });
                  expect([1000, 7802, 7804, 7807]).toContain(answer.code);
                  if (answer.code === 1000 && answer.data.share_code) codes.push(answer.data.share_code);
                } else if (step.kind === 'fund') {
                  await fundPool(coin, (step.amount / 1000).toFixed(3));
                  funded += BigInt(step.amount) * 100_000n;
                } else {
                  await jobAt(midnightAfter(server.clock.now()) + 1);
                }
              }
              const market = (await server.call('GET', '/Orepool/index', {}, { token: people[0]!.token }))
                .data.list;
              for (const id of [sole, shared]) {
                const left = market.find((p: { id: string }) => p.id === id).capacity_left as string;
                expect(units(left) >= 0n).toBe(true);
              }
              const paid = await server.app.ctx.store.db
                .selectFrom('mining_revenues')
                .select((eb) => eb.fn.sum<string>('amount').as('total'))
                .where('coin', '=', coin)
                .executeTakeFirst();
              const pool = await atoms(server, { system: `mining_pool:${coin}` }, coin);
              expect(BigInt(paid?.total ?? 0) <= funded).toBe(true);
              expect(pool).toBe(funded - BigInt(paid?.total ?? 0));
              expect((await server.app.ctx.ledger.checkInvariants()).problems).toEqual([]);
            },
          ),
          { numRuns: propertyRuns(name === 'sqlite' ? 8 : 4) },
        );
      },
      propertyTimeout(240_000),
    );

    it('M1: sole, 500 USDT = 320 + 30 × 5.40 + 18, 0.0002 BTC a day for 30 days: 0.006 BTC, the last released on 12-24', async () => {
      // bought at 15:00 on the day after the clock's start day, as the scenario's 2026-11-22T15:00Z is
      await server.clock.advance(midnightAfter(server.clock.now()) + 15 * HOUR_MS - server.clock.now());
      const id = await product({ name: 'S19 sole' });
      await fundPool('BTC', '1');
      const holder = await buyer('m1', '600');
      const detail = (await server.call('GET', '/Orepool/kjinfo', { id }, { token: holder.token })).data;
      expect(detail).toMatchObject({
        price: '500.00000000',
        fees: {
          hashrate: '320.00000000',
          electricity_day: '5.40000000',
          electricity_total: '162.00000000',
          management: '18.00000000',
        },
        daily_output: '0.00020000',
        break_even: '83333.33333333',
        capacity_left: '10.00000000',
      });
      const bought = await buy(holder, id);
      const start = midnightAfter(server.clock.now());
      expect(bought.data).toMatchObject({
        price: '500.00000000',
        start_at: start,
        expire_at: start + 30 * DAY_MS,
      });
      expect(await atoms(server, { userId: holder.userId }, 'USDT')).toBe(units('100'));
      expect((await buy(holder, id)).msg).toBe('Already purchased.');

      await jobAt(start + DAY_MS);
      expect(await atoms(server, { userId: holder.userId }, 'BTC', 'mining')).toBe(20_000n);
      await jobAt(start + 2 * DAY_MS);
      expect(await atoms(server, { userId: holder.userId }, 'BTC')).toBe(20_000n);
      await jobAt(start + 31 * DAY_MS - 1);
      expect(await atoms(server, { userId: holder.userId }, 'BTC', 'mining')).toBe(20_000n);
      await jobAt(start + 31 * DAY_MS);
      // the job run twice changes nothing
      await mining().runJobs();
      expect(await atoms(server, { userId: holder.userId }, 'BTC')).toBe(units('0.006'));
      expect(await atoms(server, { userId: holder.userId }, 'BTC', 'mining')).toBe(0n);
      const rows = await revenues(holder);
      expect(rows).toHaveLength(20);
      expect(rows[0]).toMatchObject({ day: start + 29 * DAY_MS, amount: fromAtoms(20_000n), released: true });
    });

    it('pages the daily output by `before` in the list’s order (newest day, then newest id); another user’s row is no cursor', async () => {
      const [first, second] = [await product({ name: 'Pager A' }), await product({ name: 'Pager B' })];
      const [mine, other] = [await buyer('pager_mine', '1100'), await buyer('pager_other', '600')];
      const orderOf = async (member: Member, id: string) => {
        const bought = await buy(member, id);
        expect(bought.code, bought.msg).toBe(1000);
        return BigInt(bought.data.id);
      };
      const [a, b, theirs] = [
        await orderOf(mine, first),
        await orderOf(mine, second),
        await orderOf(other, first),
      ];
      const db = server.app.ctx.store.db;
      const base = BigInt(midnightAfter(server.clock.now()) - 400 * DAY_MS);
      // why: released rows of no amount written straight to the store (they hold no money), on days
      // long before the orders run, so the midnight job never writes those days.
      const revenue = async (member: Member, order: bigint, day: bigint) => {
        const row = await db
          .insertInto('mining_revenues')
          .values({
            order_id: order,
            user_id: member.userId,
            day,
            coin: 'BTC',
            price_used: null,
            price_source: null,
            amount: 0n,
            release_at: day,
            released_at: day,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        return { id: String(row.id), day };
      };
      const rows: { id: string; day: bigint }[] = [];
      const theirRows: string[] = [];
      for (let i = 0; i < 45; i++) {
        // why: days written out of order (as one coin's days catching up after another's), and a
        // third of them twice (two machines), so the list's order is not the ids' order.
        const day = base + BigInt(((i * 17) % 45) * DAY_MS);
        rows.push(await revenue(mine, a, day));
        if (i % 3 === 0) rows.push(await revenue(mine, b, day));
        if (i % 10 === 3) theirRows.push((await revenue(other, theirs, day)).id);
      }
      const expected = [...rows]
        .sort((x, y) => (x.day === y.day ? (BigInt(y.id) > BigInt(x.id) ? 1 : -1) : y.day > x.day ? 1 : -1))
        .map((row) => row.id);
      expect(expected).not.toEqual(newestFirst(expected));
      const list = (paging: Record<string, string | number>) =>
        server.call('GET', '/Orepool/Profitlist', paging, { token: mine.token, lang: 'en-us' });
      await expectListPages(list, expected, { numbered: false });

      // page 1, then below its last id: exactly the next 20 rows in the list's order
      const page1 = await list({});
      const ids = page1.data.list.map((row: { id: string }) => row.id);
      expect(ids).toEqual(expected.slice(0, 20));
      const page2 = await list({ before: ids.at(-1) });
      expect(page2.data.list.map((row: { id: string }) => row.id)).toEqual(expected.slice(20, 40));
      expect(page2.data.has_more).toBe(true);
      for (const before of theirRows) {
        expect(await list({ before })).toMatchObject({ code: 1001, msg: 'Invalid parameters.', data: null });
      }
    });
  });
});
