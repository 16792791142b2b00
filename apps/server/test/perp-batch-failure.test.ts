import { randomUUID } from 'node:crypto';
import { type AppError, toAtoms } from '@bourse/shared';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PerpCommand } from '../src/modules/perpetual/commands.ts';
import { newTrader } from './delivery-harness.ts';
import { DIALECTS, type DialectName, startServer, type TestServer } from './harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';
import { markAt as perpMarkAt } from './perp-harness.ts';

type Trader = Awaited<ReturnType<typeof newTrader>>;

/** The key whose order row the store refuses, and the mark (in atoms) whose figures it refuses. */
const POISON_KEY = 'refused-by-the-store';
const POISON_MARK = 6_543_210_000_000n;

/**
 * Makes the store itself refuse two writes, as a ledger refusing a posting below zero or any
 * broken constraint would: the insert of an order with {@link POISON_KEY}, and the market's
 * figures moving to the mark {@link POISON_MARK}. Nothing in the server knows of it.
 */
async function poisonStore(dialect: DialectName, db: Kysely<any>): Promise<void> {
  if (dialect === 'sqlite') {
    await sql`create trigger refuse_poison_order before insert on perp_orders
      when new.idempotency_key = ${sql.lit(POISON_KEY)}
      begin select raise(abort, 'order refused by the store'); end`.execute(db);
    await sql`create trigger refuse_poison_mark before update on perp_markets
      when new.mark = ${sql.raw(String(POISON_MARK))}
      begin select raise(abort, 'mark refused by the store'); end`.execute(db);
    return;
  }
  await sql`create function refuse_poison() returns trigger language plpgsql as $$
    begin raise exception 'refused by the store'; end $$`.execute(db);
  await sql`create trigger refuse_poison_order before insert on perp_orders for each row
    when (new.idempotency_key = ${sql.lit(POISON_KEY)}) execute function refuse_poison()`.execute(db);
  await sql`create trigger refuse_poison_mark before update on perp_markets for each row
    when (new.mark = ${sql.raw(String(POISON_MARK))}) execute function refuse_poison()`.execute(db);
}

/**
 * A command is the unit of failure (perpetual.md §4b.3): when the store refuses one command of a
 * batch, that command alone is refused and the others of its batch commit, in order; a refused
 * mark neither stops nor fences the market.
 */
describe.each(DIALECTS)(
  'a perpetual batch the store refuses in part, on $name',
  ({ name: dialect, skip }) => {
    let server: TestServer;

    const perp = () => server.app.ctx.perpetual!;
    const sequencer = () => perp().local('BTCUSDT')!;
    const call = (user: Trader, method: 'GET' | 'POST', path: string, fields: Record<string, string> = {}) =>
      server.call(method, path, fields, { token: user.token, lang: 'en-us' });
    /** A resting buy of 0.01 BTC at `price` USDT, as the sequencer takes it. */
    const buy = (user: Trader, price: string, key: string = randomUUID()): PerpCommand => ({
      kind: 'place',
      userId: user.userId,
      input: {
        userId: user.userId,
        side: 'buy',
        type: 'limit',
        price: toAtoms(price) / sequencer().market.tick_size,
        qty: toAtoms('0.01'),
        reduceOnly: false,
        postOnly: false,
      },
      key,
      ioc: false,
      fingerprint: key,
    });
    /** The index at `price`, then one second of the market's pricing loop (the mark follows). */
    const markAt = (price: string) => perpMarkAt(server, 'BTCUSDT', price);
    const storedMark = async () =>
      (
        await server.app.ctx.store.db
          .selectFrom('perp_markets')
          .select('mark')
          .where('symbol', '=', 'BTCUSDT')
          .executeTakeFirstOrThrow()
      ).mark;
    /** What the server logged as refused by the store, by command kind. */
    function refusals(spy: { mock: { calls: unknown[][] } }): string[] {
      return spy.mock.calls
        .map(([detail]) => (detail as { what?: string } | undefined)?.what ?? '')
        .filter((what) => what.includes('refused by the store'));
    }

    beforeAll(async () => {
      if (skip) return;
      server = await startServer(dialect, { env: { DEMO: 'on', LIMIT_REGISTER_PER_IP: '1000/3600' } });
      await poisonStore(dialect, server.app.ctx.store.db);
    }, 120_000);

    afterAll(async () => {
      if (skip) return;
      await expectLedgerInvariants(server);
      await server.close();
    });

    it.skipIf(skip)(
      'refuses the one order the store refuses; the orders and the mark of its batch commit, and the mark goes on',
      async () => {
        const [a, b, c] = [await newTrader(server), await newTrader(server), await newTrader(server)];
        await markAt('60000');
        const logged = vi.spyOn(server.app.log, 'error');
        // why: submitted in one turn, the four are queued before the sequencer drains: one batch.
        const answers = await Promise.allSettled([
          sequencer().submit(buy(a, '59000')),
          sequencer().submit(buy(b, '59100', POISON_KEY)),
          sequencer().submit({ kind: 'mark', mark: 601_000n, index: toAtoms('60100') }),
          sequencer().submit(buy(c, '58900')),
        ]);
        expect(answers.map((x) => x.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
        expect(((answers[1] as PromiseRejectedResult).reason as AppError).key).toBe('ILLEGAL_OPERATION');
        expect(refusals(logged)).toEqual(['perpetual place refused by the store on BTCUSDT']);
        logged.mockRestore();
        expect(await storedMark()).toBe(toAtoms('60100'));

        // the others' orders rest and hold; the refused one left nothing, in the store or the book
        const open = async (user: Trader) =>
          (await call(user, 'GET', '/Perp/account', { symbol: 'BTCUSDT' })).data;
        expect((await open(a)).orders.map((o: { price: string }) => o.price)).toEqual(['59000.00000000']);
        expect((await open(c)).orders.map((o: { price: string }) => o.price)).toEqual(['58900.00000000']);
        expect(await open(b)).toMatchObject({ orders: [], available: '10000.00000000' });
        const depth = await server.call('GET', '/Perp/depth', { symbol: 'BTCUSDT', levels: '5' });
        expect(depth.data.bids).toEqual([
          ['59000.00000000', '0.01000000'],
          ['58900.00000000', '0.01000000'],
        ]);

        // why: a book of bids alone gives no basis and no trade prints a last: the mark is the index.
        await markAt('60200');
        expect(await storedMark()).toBe(toAtoms('60200'));
        const again = await call(b, 'POST', '/Perp/place', {
          symbol: 'BTCUSDT',
          side: 'buy',
          type: 'limit',
          price: '59100',
          qty: '0.01',
          idempotency_key: randomUUID(),
        });
        expect(again).toMatchObject({ code: 1000, data: [{ price: '59100.00000000', state: 'new' }] });
      },
    );

    it.skipIf(skip)(
      'refuses a mark the store refuses without stopping or fencing the market: the next mark commits',
      async () => {
        const a = await newTrader(server);
        await markAt('60000');
        const owner = sequencer();
        const logged = vi.spyOn(server.app.log, 'error');
        const answers = await Promise.allSettled([
          sequencer().submit(buy(a, '58000')),
          sequencer().submit({ kind: 'mark', mark: POISON_MARK / 10_000_000n, index: POISON_MARK }),
        ]);
        expect(answers.map((x) => x.status)).toEqual(['fulfilled', 'rejected']);
        expect(((answers[1] as PromiseRejectedResult).reason as AppError).key).toBe('ILLEGAL_OPERATION');
        expect(refusals(logged)).toEqual(['perpetual mark refused by the store on BTCUSDT']);
        logged.mockRestore();
        expect(await storedMark()).toBe(toAtoms('60000'));
        // why: a fenced sequencer would be dropped and the market taken anew (a new sequencer).
        expect(perp().local('BTCUSDT')).toBe(owner);

        await markAt('60300');
        expect(await storedMark()).toBe(toAtoms('60300'));
        const account = await call(a, 'GET', '/Perp/account', { symbol: 'BTCUSDT' });
        expect(account.data.orders.map((o: { price: string }) => o.price)).toEqual(['58000.00000000']);
      },
    );
  },
);
