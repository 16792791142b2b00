import { randomUUID } from 'node:crypto';
import { INSURANCE_USER, orderHold, value } from '@bourse/perp';
import { toAtoms } from '@bourse/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { indexTick, newTrader } from './delivery-harness.ts';
import { DIALECTS, startServer, type TestServer } from './harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';
import {
  clearingOf,
  creditUsdt,
  equityOf,
  fundEquityOf,
  fundOf,
  markAt,
  perpCalls,
  perpOf,
  type Trader,
  usdtOf,
} from './perp-harness.ts';

/** The seconds of test clock the pair pushes for (perpetual.md §4b.1: the attack took 16–60 s). */
const PUSH_SECONDS = 120;
/** Rounds of the push (a sell into the band, a 0.01 market buy) in each second. */
const ROUNDS_PER_SECOND = 3;
/** The mark's clamp c of the demo markets (perpetual.md §1: default 0.5 %), over 1000. */
const CLAMP_PER_MILLE = 5n;
/** A trade's last price counts in the mark for 60 s; past that, with no impact basis yet, the mark is the index. */
const PAST_LAST_MS = 61_000;

/**
 * The market abuse of perpetual.md §4b replayed against the running platform, each attack as the
 * customers who found it did it, over the real API: two accounts dragging the mark through a thin
 * book while the house maker quotes (§4b.1), reduce-only orders that open a position and poison
 * the market's batch (§4b.2, §4b.3), the fund's IOC filling a stale order (§4b.4), two fund lots
 * that each pass alone but not together (§4b.5), and an idempotency key reused with another
 * request (§4b.7). The maker, the index and the pricing loop are driven second by second on the
 * manual clock. The ETH market carries the push; the others run on BTC, whose book holds only the
 * orders each case places, so every amount is exact.
 */
describe.each(DIALECTS)('perpetual market abuse on $name', ({ name: dialect, skip }) => {
  let server: TestServer;
  const perp = () => perpOf(server);
  const eth = () => perpCalls(server, 'ETHUSDT');
  const btc = () => perpCalls(server, 'BTCUSDT');

  beforeAll(async () => {
    if (skip) return;
    server = await startServer(dialect, {
      env: { DEMO: 'on', LIMIT_REGISTER_PER_IP: '1000/3600' },
    });
  }, 120_000);

  afterAll(async () => {
    if (skip) return;
    await expectLedgerInvariants(server);
    await server.close();
  });

  // why: a case that stopped half-way leaves no BTC order behind to trade with the next one.
  afterEach(async () => {
    if (skip) return;
    for (const o of clearingOf(server, 'BTCUSDT').openOrders()) {
      if (o.userId === INSURANCE_USER) continue;
      await perp()
        .send('BTCUSDT', { kind: 'cancel', userId: o.userId, orderNo: o.id })
        .catch(() => {});
    }
  });

  /** A new trader with 10,000 USDT (and `extra` more), at `leverage` on BTCUSDT. */
  async function trader(leverage = 5, extra?: string): Promise<Trader> {
    const user = await newTrader(server);
    if (extra) await creditUsdt(server, user.userId, extra);
    if (leverage !== 5) expect((await btc().leverage(user, leverage)).code).toBe(1000);
    return user;
  }

  /** BTC's mark at `price` exactly: a minute after the last trade, no impact basis yet, the mark is the index. */
  async function btcMarkAt(price: string) {
    await server.clock.advance(PAST_LAST_MS);
    await markAt(server, 'BTCUSDT', price);
    expect((await btc().ticker()).mark).toBe(decimal(price));
  }

  it.skipIf(skip)(
    'two accounts pushing through a thin book for 120 s leave the mark within c of a flat index, liquidate no 5x long, make no profit and never sink the fund',
    async () => {
      const symbol = 'ETHUSDT';
      const index = '3000';
      const indexAtoms = toAtoms(index);
      const low = indexAtoms - (indexAtoms * CLAMP_PER_MILLE) / 1000n;
      const high = indexAtoms + (indexAtoms * CLAMP_PER_MILLE) / 1000n;
      const tick = toAtoms('0.01');
      const { place, cancel, close, call, account, liquidations, ticker } = eth();
      await markAt(server, symbol, index);
      await perp().maker.runOnce();

      // why: the pair holds about what the bench's pair holds after converting the demo credit's
      // coins (75,000 USDT each, bench/README.md): enough to push the maker past its inventory cap.
      const a = await newTrader(server);
      const b = await newTrader(server);
      const victim = await newTrader(server);
      await creditUsdt(server, a.userId, '65000');
      await creditUsdt(server, b.userId, '65000');
      expect((await call(b, 'POST', '/Perp/leverage', { symbol, leverage: '1' })).code).toBe(1000);
      const opened = await place(victim, { side: 'buy', type: 'market', qty: '1' });
      expect(opened.data[0]).toMatchObject({ state: 'filled', filled_qty: '1.00000000', leverage: 5 });
      const pairStart = (await usdtOf(server, a.userId)) + (await usdtOf(server, b.userId));

      // why: a bid far under the market keeps a mid in the book whenever the maker's bids are gone.
      let floorBid: string | undefined;
      let resting: string | undefined;
      const outside: string[] = [];
      let fundLowest = await fundOf(server, symbol);
      let pushed = 0n;
      let printed = 0n;
      for (let second = 1; second <= PUSH_SECONDS; second++) {
        await server.clock.advance(1000);
        await indexTick(server, symbol, index);
        await perp().maker.runOnce();
        if (
          floorBid === undefined ||
          !(await account(b)).orders.some((o: { id: string }) => o.id === floorBid)
        ) {
          const bid = await place(b, { side: 'buy', type: 'limit', price: '0.01', qty: '0.01' });
          floorBid = bid.code === 1000 ? bid.data[0].id : undefined;
        }
        for (let round = 0; round < ROUNDS_PER_SECOND; round++) {
          const mark = toAtoms((await ticker()).mark);
          // just inside the 5 % band: one tick over its floor
          const price = ((mark * 95n + 100n * tick - 1n) / (100n * tick)) * tick + tick;
          if (resting) await cancel(a, resting);
          const push = await place(a, { side: 'sell', type: 'limit', price: decimalOf(price), qty: '0.5' });
          resting =
            push.code === 1000
              ? push.data.find((o: { state: string }) => o.state === 'new' || o.state === 'partial')?.id
              : undefined;
          for (const o of push.code === 1000 ? push.data : []) pushed += toAtoms(o.filled_qty);
          const print = await place(b, { side: 'buy', type: 'market', qty: '0.01' });
          for (const o of print.code === 1000 ? print.data : []) printed += toAtoms(o.filled_qty);
        }
        await perp().pricing.tick(symbol);
        const now = await ticker();
        expect(now.index).toBe(decimal(index));
        const mark = toAtoms(now.mark);
        if (mark < low || mark > high) outside.push(`${second} s: ${now.mark}`);
        const fund = await fundOf(server, symbol);
        if (fund < fundLowest) fundLowest = fund;
      }
      if (resting) await cancel(a, resting);
      if (floorBid) await cancel(b, floorBid);

      // The pair closes what it holds at market, the maker quoting between, so its profit is real.
      for (let i = 0; i < 40; i++) {
        const open = [(await account(a)).position, (await account(b)).position];
        if (open.every((p) => p === null)) break;
        await server.clock.advance(1000);
        await indexTick(server, symbol, index);
        await perp().maker.runOnce();
        if (open[0]) await close(a);
        if (open[1]) await close(b);
        await perp().pricing.tick(symbol);
      }
      const pairEnd = (await equityOf(server, symbol, a.userId)) + (await equityOf(server, symbol, b.userId));

      console.log(
        pairEnd - pairStart,
        'fund',
        fundLowest,
        'open after close',
        JSON.stringify([(await account(a)).position, (await account(b)).position]),
      );
      // the push traded: the pair sold into the band and printed
      expect(pushed).toBeGreaterThan(0n);
      expect(printed).toBeGreaterThan(0n);
      expect(outside).toEqual([]);
      expect(await liquidations(victim)).toEqual([]);
      expect((await account(victim)).position).toMatchObject({ side: 'long', qty: '1.00000000' });
      expect(fundLowest).toBeGreaterThanOrEqual(0n);
      expect(await fundEquityOf(server, symbol)).toBeGreaterThanOrEqual(0n);
      // their fees and the maker's spread included: pushing cannot pay
      expect(pairEnd - pairStart).toBeLessThanOrEqual(0n);
    },
    300_000,
  );

  it.skipIf(skip)(
    'answers a key reused with another request with IDEMPOTENCY_KEY_REUSED and changes nothing; the same request answers as the first',
    async () => {
      const { place, cancel, close, call, account } = btc();
      await btcMarkAt('60000');
      const a = await trader();
      const c = await trader(1);
      const key = randomUUID();
      const bid = { side: 'buy', type: 'limit', price: '59000', qty: '0.01', idempotency_key: key };
      const first = await place(a, bid);
      expect(first.code).toBe(1000);
      const id = first.data[0].id;
      const held = await account(a);
      // hold: 0.01 × 59,000 / 5 + the taker fee 0.295
      expect(held.available).toBe('9881.70500000');

      for (const other of [{ price: '59100' }, { qty: '0.02' }, { side: 'sell', price: '61000' }]) {
        const reused = await place(a, { ...bid, ...other });
        expect(reused).toMatchObject({ code: 3021 });
      }
      const again = await place(a, bid);
      expect(again.code).toBe(1000);
      expect(again.data.map((o: { id: string }) => o.id)).toEqual([id]);
      const after = await account(a);
      expect(after.available).toBe('9881.70500000');
      expect(after.orders.map((o: { id: string; price: string }) => [o.id, o.price])).toEqual([
        [id, '59000.00000000'],
      ]);

      expect((await place(c, { side: 'sell', type: 'limit', price: '60000', qty: '0.01' })).code).toBe(1000);
      expect((await place(a, { side: 'buy', type: 'market', qty: '0.01' })).code).toBe(1000);
      const marginKey = randomUUID();
      const add = { symbol: 'BTCUSDT', direction: 'add', amount: '10', idempotency_key: marginKey };
      expect((await call(a, 'POST', '/Perp/margin', add)).code).toBe(1000);
      const added = await account(a);
      expect(added.position.margin).toBe('130.00000000');
      for (const other of [{ amount: '20' }, { direction: 'remove' }]) {
        const reused = await call(a, 'POST', '/Perp/margin', { ...add, ...other });
        expect(reused).toMatchObject({ code: 3021 });
      }
      expect((await call(a, 'POST', '/Perp/margin', add)).code).toBe(1000);
      const once = await account(a);
      expect(once.position.margin).toBe('130.00000000');
      expect(once.available).toBe(added.available);

      // leave the book and the positions empty for the cases after this one
      expect((await cancel(a, id)).code).toBe(1000);
      expect((await place(c, { side: 'buy', type: 'limit', price: '60000', qty: '0.01' })).code).toBe(1000);
      expect((await close(a)).code).toBe(1000);
      expect((await account(a)).position).toBeNull();
      expect((await account(c)).position).toBeNull();
    },
  );

  it.skipIf(skip)(
    'refuses a reduce-only order that would take the resting ones past the position (7068); a reduce-only fill never opens one',
    async () => {
      const { place, account, order } = btc();
      await btcMarkAt('60000');
      const p = await trader();
      const seller = await trader(1);
      // why: at 1x a market buy of 0.2 holds 0.2 × the band's ceiling (12,600): twice, and it keeps what it buys.
      const taker = await trader(1, '20000');
      expect((await place(seller, { side: 'sell', type: 'limit', price: '60000', qty: '0.1' })).code).toBe(
        1000,
      );
      expect((await place(p, { side: 'buy', type: 'market', qty: '0.1' })).code).toBe(1000);
      const first = await place(p, {
        side: 'sell',
        type: 'limit',
        price: '60500',
        qty: '0.1',
        reduce_only: 'true',
      });
      expect(first.code).toBe(1000);
      for (const qty of ['0.1', '0.001']) {
        const second = await place(p, {
          side: 'sell',
          type: 'limit',
          price: '60600',
          qty,
          reduce_only: 'true',
        });
        expect(second).toMatchObject({ code: 7068 });
      }
      expect((await account(p)).orders.map((o: { id: string; qty: string }) => [o.id, o.qty])).toEqual([
        [first.data[0].id, '0.10000000'],
      ]);
      const bought = await place(taker, { side: 'buy', type: 'market', qty: '0.2' });
      expect(bought.data[0]).toMatchObject({ filled_qty: '0.10000000', avg_price: '60500.00000000' });
      const closed = await account(p);
      expect(closed.position).toBeNull();
      // 10,000 − 1,200 margin − 3 fee, then margin 1,200 + profit 50 − maker fee 1.21 back
      expect(closed.available).toBe('10045.79000000');

      // A position that shrinks under its resting reduce-only orders: the farthest is cancelled (§3).
      const p2 = await trader();
      const seller2 = await trader(1);
      const bidder = await trader(1);
      expect((await place(seller2, { side: 'sell', type: 'limit', price: '60000', qty: '0.1' })).code).toBe(
        1000,
      );
      expect((await place(p2, { side: 'buy', type: 'market', qty: '0.1' })).code).toBe(1000);
      const near = await place(p2, {
        side: 'sell',
        type: 'limit',
        price: '60500',
        qty: '0.05',
        reduce_only: 'true',
      });
      const far = await place(p2, {
        side: 'sell',
        type: 'limit',
        price: '60600',
        qty: '0.05',
        reduce_only: 'true',
      });
      expect([near.code, far.code]).toEqual([1000, 1000]);
      expect((await place(bidder, { side: 'buy', type: 'limit', price: '60000', qty: '0.05' })).code).toBe(
        1000,
      );
      expect((await place(p2, { side: 'sell', type: 'limit', price: '60000', qty: '0.05' })).code).toBe(1000);
      expect((await account(p2)).position).toMatchObject({ side: 'long', qty: '0.05000000' });
      expect(await order(p2, far.data[0].id)).toMatchObject({ state: 'cancelled', filled_qty: '0.00000000' });
      const swept = await place(taker, { side: 'buy', type: 'market', qty: '0.2' });
      expect(swept.data[0]).toMatchObject({ filled_qty: '0.05000000', avg_price: '60500.00000000' });
      expect((await account(p2)).position).toBeNull();
    },
  );

  it.skipIf(skip)(
    'takes exactly one of eight reduce-only orders of the whole position sent at once (a burst through one batch)',
    async () => {
      const { place, account } = btc();
      await btcMarkAt('60000');
      const p = await trader();
      const seller = await trader(1);
      expect((await place(seller, { side: 'sell', type: 'limit', price: '60000', qty: '0.1' })).code).toBe(
        1000,
      );
      expect((await place(p, { side: 'buy', type: 'market', qty: '0.1' })).code).toBe(1000);
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          place(p, {
            side: 'sell',
            type: 'limit',
            price: String(60_500 + i * 10),
            qty: '0.1',
            reduce_only: 'true',
          }),
        ),
      );
      expect(answers.map((a) => a.code).sort()).toEqual([1000, 7068, 7068, 7068, 7068, 7068, 7068, 7068]);
      const resting = (await account(p)).orders as { qty: string }[];
      expect(resting.map((o) => o.qty)).toEqual(['0.10000000']);
      // why: both sides flat again, so no later case's marks liquidate them.
      expect((await place(seller, { side: 'buy', type: 'limit', price: '60600', qty: '0.1' })).code).toBe(
        1000,
      );
      expect((await account(p)).position).toBeNull();
      expect((await account(seller)).position).toBeNull();
    },
  );

  it.skipIf(skip)(
    'keeps pricing and liquidating while a reduce-only order rests, and its fill past the bankruptcy price opens nothing',
    async () => {
      const { place, cancel, account, order, liquidations } = btc();
      await btcMarkAt('60000');
      const p = await trader();
      const seller = await trader(1);
      expect((await place(seller, { side: 'sell', type: 'limit', price: '60000', qty: '0.1' })).code).toBe(
        1000,
      );
      expect((await place(p, { side: 'buy', type: 'market', qty: '0.1' })).code).toBe(1000);
      await btcMarkAt('50000');
      // a 5x short of 0.2 whose fund IOC (a buy of 0.2 at its bankruptcy price 60,000) will meet p's sells
      const victim = await trader();
      const buyer = await trader(1, '5000');
      expect((await place(victim, { side: 'sell', type: 'limit', price: '50000', qty: '0.2' })).code).toBe(
        1000,
      );
      expect((await place(buyer, { side: 'buy', type: 'market', qty: '0.2' })).code).toBe(1000);
      // p parks nearly all its money in a waiting stop-limit buy (held, not in the book): less than
      // a fee stays available
      const spec = clearingOf(server, 'BTCUSDT').spec;
      const available = toAtoms((await account(p)).available);
      const parkQty = toAtoms('2');
      let parkPrice = (available * 5n) / value(spec, parkQty, 1n);
      while (orderHold(spec, parkQty, parkPrice, 5) > available) parkPrice -= 1n;
      const parked = await place(p, {
        side: 'buy',
        type: 'stop_limit',
        trigger_price: '90000',
        price: decimalOf(parkPrice * spec.tickAtoms),
        qty: '2',
      });
      expect(parked.code).toBe(1000);
      expect(toAtoms((await account(p)).available)).toBeLessThan(toAtoms('0.95'));
      // a close priced past p's bankruptcy price 48,000 (the band's floor, 47,500) is refused: the
      // fund would pay for it (docs/perpetual.md §4c.4)
      const pastBankruptcy = await place(p, {
        side: 'sell',
        type: 'limit',
        price: '47500',
        qty: '0.1',
        reduce_only: 'true',
      });
      expect(pastBankruptcy).toMatchObject({ code: 7070 });
      // p's reduce-only sells at the bankruptcy price: the second is the one that once opened a
      // short with negative margin and failed every batch after it
      const ro = await place(p, {
        side: 'sell',
        type: 'limit',
        price: '48000',
        qty: '0.1',
        reduce_only: 'true',
      });
      expect(ro.code).toBe(1000);
      const poison = await place(p, {
        side: 'sell',
        type: 'limit',
        price: '48000',
        qty: '0.1',
        reduce_only: 'true',
      });
      // why: soft, so that were it accepted the rest shows what it does to the market
      expect.soft(poison).toMatchObject({ code: 7068 });
      const fundBefore = await fundOf(server, 'BTCUSDT');

      // the next mark liquidates the short, and the fund's IOC buys p's reduce-only sell
      await btcMarkAt('59000');
      expect(await liquidations(victim)).toMatchObject([
        {
          kind: 'liquidation',
          side: 'short',
          qty: '0.20000000',
          entry_price: '50000.00000000',
          margin: '2000.00000000',
          mark: '59000.00000000',
          price: '60000.00000000',
          pnl: '-2000.00000000',
        },
      ]);
      expect((await account(victim)).position).toBeNull();
      expect(await order(p, ro.data[0].id)).toMatchObject({
        state: 'filled',
        filled_qty: '0.10000000',
        avg_price: '48000.00000000',
      });
      expect((await account(p)).position).toBeNull();
      for (const position of clearingOf(server, 'BTCUSDT').positions())
        if (position.qty !== 0n) expect(position.margin).toBeGreaterThan(0n);
      // the fund kept the other 0.1 of its lot (its estimated loss at the mark is nil)
      expect(
        clearingOf(server, 'BTCUSDT')
          .lots()
          .map((l) => [l.qty, l.entry]),
      ).toEqual([[-toAtoms('0.1'), toAtoms('6000')]]);

      // and the market keeps pricing: the next mark finds an ask and the fund buys its lot back
      const lotBuyer = await trader(1);
      expect((await place(lotBuyer, { side: 'sell', type: 'limit', price: '59000', qty: '0.1' })).code).toBe(
        1000,
      );
      await btcMarkAt('59000');
      expect(clearingOf(server, 'BTCUSDT').lots()).toEqual([]);
      expect((await cancel(p, parked.data[0].id)).code).toBe(1000);
      expect((await account(p)).available).toBe('8797.00000000');
      // the fund bought back at 48,000 (+1,200) and 59,000 (+100); p's close at its bankruptcy
      // price lost exactly its margin and paid no fee it could not cover, so the fund paid nothing
      expect((await fundOf(server, 'BTCUSDT')) - fundBefore).toBe(toAtoms('1300'));
    },
  );

  it.skipIf(skip)(
    "liquidates, within the same mark, a position the fund's IOC opened by filling a stale order",
    async () => {
      const { place, account, liquidations } = btc();
      await btcMarkAt('60000');
      // a bid left from when the price was 60,000
      const stale = await trader();
      expect((await place(stale, { side: 'buy', type: 'limit', price: '59500', qty: '0.1' })).code).toBe(
        1000,
      );
      const victim = await trader();
      const seller = await trader(1);
      expect((await place(seller, { side: 'sell', type: 'limit', price: '60000', qty: '0.1' })).code).toBe(
        1000,
      );
      expect((await place(victim, { side: 'buy', type: 'market', qty: '0.1' })).code).toBe(1000);
      const fundBefore = await fundOf(server, 'BTCUSDT');

      // One mark: the victim is taken over at 48,000, the fund's IOC sells into the stale bid at
      // 59,500, and that new long (equity 40 against maintenance 96) is taken over at 47,600.
      await btcMarkAt('48000');
      expect(await liquidations(victim)).toMatchObject([
        { kind: 'liquidation', mark: '48000.00000000', price: '48000.00000000', pnl: '-1200.00000000' },
      ]);
      expect(await liquidations(stale)).toMatchObject([
        {
          kind: 'liquidation',
          side: 'long',
          qty: '0.10000000',
          entry_price: '59500.00000000',
          margin: '1190.00000000',
          mark: '48000.00000000',
          price: '47600.00000000',
          pnl: '-1190.00000000',
        },
      ]);
      const after = await account(stale);
      expect(after.position).toBeNull();
      // 10,000 − 1,190 margin − 1.19 maker fee
      expect(after.available).toBe('8808.81000000');
      expect((await fundOf(server, 'BTCUSDT')) - fundBefore).toBe(toAtoms('1150'));
      expect(
        clearingOf(server, 'BTCUSDT')
          .lots()
          .map((l) => [l.qty, l.entry]),
      ).toEqual([[toAtoms('0.1'), toAtoms('4760')]]);

      // a bid for the fund's lot, so the next case starts with none
      const sweeper = await trader(1);
      expect((await place(sweeper, { side: 'buy', type: 'limit', price: '48000', qty: '0.1' })).code).toBe(
        1000,
      );
      await btcMarkAt('48000');
      expect(clearingOf(server, 'BTCUSDT').lots()).toEqual([]);
      expect((await fundOf(server, 'BTCUSDT')) - fundBefore).toBe(toAtoms('1190'));
    },
  );

  it.skipIf(skip)(
    'decides on two fund lots together when each alone passes IF ≥ L_est: the fund never goes below zero',
    async () => {
      const { place, account, liquidations } = btc();
      await btcMarkAt('60000');
      // two 5x longs of 4 BTC (240,000 USDT, tier 1; limit buys, since a market buy is held and
      // tiered at the band's ceiling) against two shorts
      const longs = [await trader(5, '40000'), await trader(5, '40000')];
      const shorts = [await trader(5, '40000'), await trader(5, '40000')];
      for (const [i, short] of shorts.entries()) {
        expect((await place(short, { side: 'sell', type: 'limit', price: '60000', qty: '4' })).code).toBe(
          1000,
        );
        const bought = await place(longs[i]!, { side: 'buy', type: 'limit', price: '60000', qty: '4' });
        expect(bought.data[0]).toMatchObject({ state: 'filled', filled_qty: '4.00000000' });
        expect((await account(longs[i]!)).position).toMatchObject({
          qty: '4.00000000',
          margin: '48000.00000000',
          bankruptcy_price: '48000.00000000',
        });
      }
      // At 30,000 each lot taken over at 48,000 would lose L_est = 4 × 18,000 = 72,000: each alone
      // within the fund, both together not.
      const fundBefore = await fundOf(server, 'BTCUSDT');
      const lossEach = toAtoms('72000');
      expect(fundBefore).toBeGreaterThanOrEqual(lossEach);
      expect(fundBefore).toBeLessThan(2n * lossEach);

      await btcMarkAt('30000');
      for (const long of longs) {
        expect(await liquidations(long)).toMatchObject([
          {
            kind: 'liquidation',
            qty: '4.00000000',
            entry_price: '60000.00000000',
            margin: '48000.00000000',
            mark: '30000.00000000',
            price: '48000.00000000',
            pnl: '-48000.00000000',
          },
        ]);
        expect((await account(long)).position).toBeNull();
      }
      expect(await fundOf(server, 'BTCUSDT')).toBeGreaterThanOrEqual(0n);
      expect(await fundEquityOf(server, 'BTCUSDT')).toBeGreaterThanOrEqual(0n);
      // The fund could not keep both lots, so the shorts were deleveraged: what it kept and what
      // they took are the 8 BTC taken over.
      let deleveraged = 0n;
      for (const short of shorts)
        for (const record of (await liquidations(short)) as { kind: string; qty: string }[])
          if (record.kind === 'adl') deleveraged += toAtoms(record.qty.replace('-', ''));
      let kept = 0n;
      for (const lot of clearingOf(server, 'BTCUSDT').lots()) kept += lot.qty;
      expect(deleveraged).toBeGreaterThan(0n);
      expect(kept + deleveraged).toBe(toAtoms('8'));
      // and on the marks after it
      for (let i = 0; i < 2; i++) {
        await btcMarkAt('30000');
        expect(await fundOf(server, 'BTCUSDT')).toBeGreaterThanOrEqual(0n);
        expect(await fundEquityOf(server, 'BTCUSDT')).toBeGreaterThanOrEqual(0n);
      }
    },
  );
});

/** A decimal as the API writes it (8 places). */
function decimal(value: string): string {
  return decimalOf(toAtoms(value));
}

function decimalOf(atoms: bigint): string {
  const whole = atoms / 100_000_000n;
  const fraction = atoms % 100_000_000n;
  return `${whole}.${String(fraction).padStart(8, '0')}`;
}
