import { setTimeout as sleep } from 'node:timers/promises';
import { toAtoms } from '@bourse/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, clusterSkipReason, startCluster } from './cluster.ts';
import {
  api,
  balanceOf,
  type Customer,
  cancelEverywhere,
  expectBooksMatchStore,
  expectLedgerHolds,
  indexOf,
  login,
  onTick,
  perpMarkOf,
  placeLimit,
  placePerp,
  storedBook,
  systemBalance,
} from './cluster-trading.ts';
import { connect, type Frame, on } from './ws-client.ts';

/**
 * Three nodes, one truth: three server processes on one PostgreSQL database and one NATS server,
 * customers calling whichever node. Every market is sequenced by the one node holding its lease;
 * the others route to it. After every test the ledger's invariants hold and every node's book
 * equals the open orders in the database.
 */

const skipReason = await clusterSkipReason();
if (skipReason) console.warn(`[skip] the suite of several nodes is skipped: ${skipReason}`);

const SYMBOLS = ['BTCUSDT', 'ETHUSDT'];
const TICK = 1_000_000n; // 0.01 USDT, BTCUSDT's and ETHUSDT's price step
const QTY = 100_000n; // 0.001 BTC
const FEE_BPS = 10n;

describe.skipIf(skipReason !== null)('three nodes on one database and one bus', () => {
  let cluster: Cluster;
  let buyer: Customer;
  let seller: Customer;
  let failed = false;

  beforeAll(async () => {
    // why: the bots stay off but in the maker's own test, so every order in the other tests' books is theirs.
    cluster = await startCluster({ nodes: 3, env: { MARKET_MAKER: 'off' } });
    // why: nodes 2 and 3 take markets from node 1 for a few lease rounds after they start; a
    // market changing owner mid-test restarts its deltas (a new epoch), which a test would read as a gap.
    await cluster.settled();
    buyer = await login(cluster.url(1), 'demo', 'demo1234');
    seller = await login(cluster.url(2), 'demo2', 'demo1234');
  }, 150_000);

  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') failed = true;
    // why: the state each test left, before the clean-up touches it.
    await expectBooksMatchStore(cluster, SYMBOLS);
    await expectLedgerHolds(cluster);
    await cancelEverywhere(cluster, [buyer, seller]);
  });

  afterAll(async () => {
    if (failed) console.warn(`[multinode] node logs kept in ${cluster?.dir}`);
    await cluster?.close({ keepLogs: failed });
  }, 60_000);

  /** Each market's owner (1-based node), undefined where no lease is recorded. */
  async function marketOwners() {
    const { rows } = await cluster.pg.query<{ symbol: string }>(
      'select symbol from spot_markets order by symbol',
    );
    const owners = new Map<string, number | undefined>();
    for (const { symbol } of rows) owners.set(symbol, nodeOf((await cluster.ownerOf(symbol))?.holder));
    return owners;
  }

  /** The node (1-based) named `holder`, or undefined. */
  const nodeOf = (holder: string | undefined) => {
    const i = cluster.nodes.findIndex((node) => node.id === holder);
    return i < 0 ? undefined : i + 1;
  };

  it('crossing orders placed through two different nodes trade exactly once', async () => {
    const price = onTick(await indexOf(cluster.url(1), 'BTCUSDT'), -100n, TICK);
    const before = {
      buyerUsdt: await balanceOf(cluster.pg, buyer.userId, 'USDT'),
      buyerBtc: await balanceOf(cluster.pg, buyer.userId, 'BTC'),
      sellerUsdt: await balanceOf(cluster.pg, seller.userId, 'USDT'),
      sellerBtc: await balanceOf(cluster.pg, seller.userId, 'BTC'),
    };

    const sell = await placeLimit(cluster.url(2), seller, { side: 'sell', price, qty: QTY });
    expect(sell).toMatchObject({ code: 1000, data: { status: 'entrusted' } });
    const buy = await placeLimit(cluster.url(3), buyer, { side: 'buy', price, qty: QTY });
    expect(buy).toMatchObject({ code: 1000, data: { status: 'completed', filled_qty: '0.00100000' } });

    const trades = await cluster.pg.query(
      `select maker_order_id::text, taker_order_id::text, price::text, qty::text from spot_trades
       where maker_order_id in ($1, $2) or taker_order_id in ($1, $2)`,
      [sell.data.id, buy.data.id],
    );
    expect(trades.rows).toEqual([
      { maker_order_id: sell.data.id, taker_order_id: buy.data.id, price: String(price), qty: String(QTY) },
    ]);
    const orders = await cluster.pg.query(
      'select id::text, status, filled_qty::text, held::text from spot_orders where id in ($1, $2) order by spot_orders.id',
      [sell.data.id, buy.data.id],
    );
    expect(orders.rows).toEqual(
      [sell.data.id, buy.data.id]
        .sort((a, b) => Number(BigInt(a) - BigInt(b)))
        .map((id) => ({ id, status: 'completed', filled_qty: String(QTY), held: '0' })),
    );

    // the seller pays its fee in USDT, the buyer in BTC, each on what it receives
    const quote = (price * QTY) / 100_000_000n;
    expect(await balanceOf(cluster.pg, buyer.userId, 'USDT')).toEqual({
      available: before.buyerUsdt.available - quote,
      frozen: before.buyerUsdt.frozen,
    });
    expect(await balanceOf(cluster.pg, buyer.userId, 'BTC')).toEqual({
      available: before.buyerBtc.available + QTY - (QTY * FEE_BPS) / 10_000n,
      frozen: before.buyerBtc.frozen,
    });
    expect(await balanceOf(cluster.pg, seller.userId, 'USDT')).toEqual({
      available: before.sellerUsdt.available + quote - (quote * FEE_BPS) / 10_000n,
      frozen: before.sellerUsdt.frozen,
    });
    expect(await balanceOf(cluster.pg, seller.userId, 'BTC')).toEqual({
      available: before.sellerBtc.available - QTY,
      frozen: before.sellerBtc.frozen,
    });
  });

  it('crossing perpetual orders placed through two nodes that do not own the market trade once; the fees go to the market’s own account', async () => {
    const owner = nodeOf((await cluster.ownerOf('perp:BTCUSDT'))?.holder);
    const [first, second] = [1, 2, 3].filter((i) => i !== owner);
    const tick = 10_000_000n; // 0.1 USDT, BTCUSDT perpetual's price step
    const price = ((await perpMarkOf(cluster.url(first!), 'BTCUSDT')) / tick) * tick;
    const feesBefore = await systemBalance(cluster.pg, 'fees', 'USDT');
    const marketFeesBefore = await systemBalance(cluster.pg, 'perp_fees:BTCUSDT', 'USDT');

    const sell = await placePerp(cluster.url(first!), seller, {
      symbol: 'BTCUSDT',
      side: 'sell',
      price,
      qty: QTY,
    });
    expect(sell, JSON.stringify(sell)).toMatchObject({ code: 1000, data: [{ state: 'new' }] });
    const buy = await placePerp(cluster.url(second!), buyer, {
      symbol: 'BTCUSDT',
      side: 'buy',
      price,
      qty: QTY,
    });
    expect(buy, JSON.stringify(buy)).toMatchObject({
      code: 1000,
      data: [{ state: 'filled', filled_qty: '0.00100000' }],
    });
    const ids = [sell.data[0].id, buy.data[0].id];
    const { rows: orders } = await cluster.pg.query<{ order_no: string; fee: string }>(
      'select order_no::text, fee::text from perp_orders where id = any($1::bigint[]) order by id',
      [ids],
    );
    const trades = await cluster.pg.query(
      `select price::text, qty::text from perp_trades
       where symbol = 'BTCUSDT' and maker_order_no = $1 and taker_order_no = $2`,
      [orders[0]!.order_no, orders[1]!.order_no],
    );
    expect(trades.rows).toEqual([{ price: String(price), qty: String(QTY) }]);

    // maker 0.02 %, taker 0.05 % of the value, rounded up to the atom, into perp_fees:BTCUSDT alone
    const value = (price * QTY) / 100_000_000n;
    const ceil = (n: bigint, d: bigint) => (n + d - 1n) / d;
    const makerFee = ceil(value * 20_000n, 100_000_000n);
    const takerFee = ceil(value * 50_000n, 100_000_000n);
    expect(orders.map((o) => BigInt(o.fee))).toEqual([makerFee, takerFee]);
    expect(await systemBalance(cluster.pg, 'perp_fees:BTCUSDT', 'USDT')).toBe(
      marketFeesBefore + makerFee + takerFee,
    );
    expect(await systemBalance(cluster.pg, 'fees', 'USDT')).toBe(feesBefore);
  });

  it('every node’s /ws carries the same depth deltas and trades, in order, whichever node took the orders', async () => {
    const clients = await Promise.all([1, 2, 3].map((i) => connect({ url: cluster.url(i) })));
    try {
      for (const client of clients) {
        client.send({ op: 'subscribe', channel: 'depth:BTCUSDT' });
        client.send({ op: 'subscribe', channel: 'trades:BTCUSDT' });
      }
      const snapshots = [];
      for (const client of clients) {
        snapshots.push((await client.next(on('depth:BTCUSDT'))).data);
        await client.next(on('trades:BTCUSDT'));
      }
      expect(snapshots[1], 'node 2’s snapshot is node 1’s').toEqual(snapshots[0]);
      expect(snapshots[2], 'node 3’s snapshot is node 1’s').toEqual(snapshots[0]);
      const lastTrade = await cluster.pg.query<{ id: string }>(
        `select coalesce(max(id), 0)::text as id from spot_trades where symbol = 'BTCUSDT'`,
      );

      const x = onTick(await indexOf(cluster.url(1), 'BTCUSDT'), -150n, TICK);
      const steps: [number, Customer, 'buy' | 'sell', bigint, bigint][] = [
        [1, seller, 'sell', x + 2n * TICK, QTY],
        [2, buyer, 'buy', x - 2n * TICK, QTY],
        [3, seller, 'sell', x + TICK, QTY],
        [1, buyer, 'buy', x + 2n * TICK, 2n * QTY], // takes both asks: two trades
        [2, seller, 'sell', x - 2n * TICK, QTY], // takes the bid: one trade
        [3, buyer, 'buy', x - 3n * TICK, QTY],
      ];
      let resting = '';
      for (const [node, user, side, price, qty] of steps) {
        const answer = await placeLimit(cluster.url(node), user, { side, price, qty });
        expect(answer.code, JSON.stringify(answer)).toBe(1000);
        resting = answer.data.id;
      }
      const cancelled = await api(cluster.url(1), 'POST', '/Trade/cancel', { id: resting }, buyer.token);
      expect(cancelled.code, JSON.stringify(cancelled)).toBe(1000);

      const stored = await cluster.pg.query<{ id: string }>(
        `select id::text from spot_trades where symbol = 'BTCUSDT' and id > $1 order by id`,
        [lastTrade.rows[0]!.id],
      );
      expect(stored.rows).toHaveLength(3);
      const { rows } = await cluster.pg.query<{ seq: string }>(
        `select seq::text from spot_markets where symbol = 'BTCUSDT'`,
      );
      const finalSeq = Number(rows[0]!.seq);

      const deltas: Frame[][] = [];
      const trades: Frame[][] = [];
      for (const client of clients) {
        const deadline = Date.now() + 5000;
        const ofClient = () => ({
          deltas: client.unread('depth:BTCUSDT').map((frame) => frame.data),
          trades: client.unread('trades:BTCUSDT').flatMap((frame) => frame.data.trades),
        });
        while (
          Date.now() < deadline &&
          (ofClient().trades.length < 3 || ofClient().deltas.at(-1)?.seq !== finalSeq)
        )
          await sleep(20);
        deltas.push(ofClient().deltas);
        trades.push(ofClient().trades);
      }
      // the deltas chain from the snapshot to the market's last sequence, with no gap
      let seq = snapshots[0].seq;
      for (const delta of deltas[0]!) {
        expect(delta.prev_seq).toBe(seq);
        seq = delta.seq;
      }
      expect(seq).toBe(finalSeq);
      expect(deltas[1], 'node 2’s deltas are node 1’s').toEqual(deltas[0]);
      expect(deltas[2], 'node 3’s deltas are node 1’s').toEqual(deltas[0]);
      expect(
        trades[0]!.map((trade: { id: string }) => trade.id).sort(),
        'every node pushes each stored trade once',
      ).toEqual(stored.rows.map((row) => row.id).sort());
      expect(trades[1], 'node 2’s trades are node 1’s').toEqual(trades[0]);
      expect(trades[2], 'node 3’s trades are node 1’s').toEqual(trades[0]);

      // and the snapshot with the deltas applied is the book the database holds
      const book = {
        bids: new Map<string, string>(snapshots[0].bids),
        asks: new Map<string, string>(snapshots[0].asks),
      };
      for (const delta of deltas[0]!) {
        for (const [side, changes] of [
          [book.bids, delta.bids],
          [book.asks, delta.asks],
        ] as const) {
          for (const [price, qty] of changes) {
            if (Number(qty) === 0) side.delete(price);
            else side.set(price, qty);
          }
        }
      }
      const asAtoms = (side: Map<string, string>) =>
        Object.fromEntries([...side].map(([price, qty]) => [String(toAtoms(price)), String(toAtoms(qty))]));
      expect({ bids: asAtoms(book.bids), asks: asAtoms(book.asks) }).toEqual(
        await storedBook(cluster.pg, 'BTCUSDT'),
      );
    } finally {
      for (const client of clients) client.socket.close();
    }
  });

  /** A resting buy on `symbol`, `k` steps below the index: twice the minimum notional. */
  async function restingBuy(node: number, user: Customer, symbol: string, k: bigint) {
    const { rows } = await cluster.pg.query<{ tick_size: string; lot_size: string; min_notional: string }>(
      'select tick_size::text, lot_size::text, min_notional::text from spot_markets where symbol = $1',
      [symbol],
    );
    const market = rows[0]!;
    const tick = BigInt(market.tick_size);
    const lot = BigInt(market.lot_size);
    const price = onTick(await indexOf(cluster.url(node), symbol), -300n, tick) - k * tick;
    const qty = ((2n * BigInt(market.min_notional) * 100_000_000n) / price / lot + 1n) * lot;
    const answer = await placeLimit(cluster.url(node), user, { symbol, side: 'buy', price, qty });
    expect(answer, `resting buy on ${symbol} through node ${node}: ${answer.msg}`).toMatchObject({
      code: 1000,
      data: { status: 'entrusted' },
    });
    return answer.data.id as string;
  }

  /** Cancel-all through node `through`: every open order of the buyer cancelled once, its holds back. */
  async function expectCancelAll(
    through: number,
    placed: string[],
    usdtBefore: { available: bigint; frozen: bigint },
  ) {
    const answer = await api(cluster.url(through), 'POST', '/Trade/cancelall', {}, buyer.token);
    expect(answer, `cancel-all through node ${through}`).toMatchObject({
      code: 1000,
      data: { cancelled: placed.length },
    });
    const { rows } = await cluster.pg.query(
      'select id::text, status, revoke_reason, held::text from spot_orders where id = any($1::bigint[]) order by spot_orders.id',
      [placed],
    );
    expect(rows).toEqual(
      [...placed]
        .sort((a, b) => Number(BigInt(a) - BigInt(b)))
        .map((id) => ({ id, status: 'revoked', revoke_reason: 'user', held: '0' })),
    );
    expect(await balanceOf(cluster.pg, buyer.userId, 'USDT'), 'holds released exactly').toEqual(usdtBefore);
    const again = await api(cluster.url(through), 'POST', '/Trade/cancelall', {}, buyer.token);
    expect(again, 'a second cancel-all finds nothing open').toMatchObject({
      code: 1000,
      data: { cancelled: 0 },
    });
  }

  it('cancel-all through a node that does not own the market cancels every open order once', async () => {
    const usdtBefore = await balanceOf(cluster.pg, buyer.userId, 'USDT');
    const placed = [
      await restingBuy(1, buyer, 'BTCUSDT', 0n),
      await restingBuy(2, buyer, 'BTCUSDT', 1n),
      await restingBuy(3, buyer, 'BTCUSDT', 2n),
    ];
    const owner = nodeOf((await cluster.ownerOf('BTCUSDT'))?.holder);
    const through = [3, 2, 1].find((i) => i !== owner)!;
    await expectCancelAll(through, placed, usdtBefore);
  });

  it('cancel-all through the owner of one of the markets the orders are on cancels them all once', async (context) => {
    // why: buys need only USDT, so any two markets with different owners will do.
    let owners = await marketOwners();
    const owning = () => new Set([...owners.values()].filter((owner) => owner !== undefined));
    if (owning().size === 1) {
      // one node took every market: stopped, it leaves them to the other two to share
      const [only] = owning();
      await cluster.stop(only!);
      const deadline = Date.now() + 20_000;
      do {
        await sleep(200);
        owners = await marketOwners();
      } while (
        Date.now() < deadline &&
        [...owners.values()].some((owner) => owner === undefined || owner === only)
      );
      await cluster.start(only!);
      owners = await marketOwners();
    }
    let pair = ['BTCUSDT', 'ETHUSDT'];
    let through = 1;
    if (owning().size > 0) {
      const first = [...owners].find(([, owner]) => owner !== undefined)!;
      const second = [...owners].find(([, owner]) => owner !== undefined && owner !== first[1]);
      if (!second) {
        console.warn('[skip] one node owns every market, also after it stopped: none owns just one of two');
        context.skip();
        return;
      }
      pair = [first[0], second[0]];
      through = first[1]!;
    }
    const usdtBefore = await balanceOf(cluster.pg, buyer.userId, 'USDT');
    const placed = [
      await restingBuy(1, buyer, pair[0]!, 0n),
      await restingBuy(2, buyer, pair[1]!, 0n),
      await restingBuy(3, buyer, pair[0]!, 1n),
      await restingBuy(3, buyer, pair[1]!, 1n),
    ];
    await expectCancelAll(through, placed, usdtBefore);
  }, 90_000);

  it('the market maker quotes into markets its node does not own, through their owners', async () => {
    // why: a node that rejoins takes markets back (each node hands back one above its share per
    // round), so "a node owning nothing" does not last. What is proven instead: a market held by
    // another node at one epoch from before the maker started until after it stopped received the
    // maker's quotes, so every one of them was sequenced by that owner, routed from the maker's node.
    const maker = 3;
    const makerId = (
      await cluster.pg.query<{ id: string }>(`select id::text from users where username = 'market-maker'`)
    ).rows[0]!.id;
    const quotedSides = async (symbol: string) =>
      (
        await cluster.pg.query<{ side: string }>(
          `select distinct side from spot_orders
           where user_id = $1 and symbol = $2 and status = 'entrusted' order by side`,
          [makerId, symbol],
        )
      ).rows.map((row) => row.side);
    const { rows } = await cluster.pg.query<{ symbol: string }>(
      'select symbol from spot_markets order by symbol',
    );
    const before = new Map<string, { holder: string; epoch: bigint } | null>();
    for (const { symbol } of rows) {
      expect(await quotedSides(symbol), `no quote of the maker on ${symbol} yet`).toEqual([]);
      before.set(symbol, await cluster.ownerOf(symbol));
    }
    const sameOwner = async (symbol: string) => {
      const was = before.get(symbol);
      const now = await cluster.ownerOf(symbol);
      return (
        was !== null &&
        was !== undefined &&
        was.holder !== cluster.nodes[maker - 1]!.id &&
        now?.holder === was.holder &&
        now.epoch === was.epoch
      );
    };

    // the maker's job runs only where MARKET_MAKER is on: on this node alone
    await cluster.stop(maker);
    await cluster.start(maker, { MARKET_MAKER: 'on' });
    const deadline = Date.now() + 20_000;
    let job = await cluster.jobHolder('market-maker');
    while (job?.node !== maker && Date.now() < deadline) {
      await sleep(100);
      job = await cluster.jobHolder('market-maker');
    }
    expect(job?.node, `the market maker’s lease (${job?.holder}) is node ${maker}’s`).toBe(maker);
    let quoted: string | undefined;
    while (quoted === undefined && Date.now() < deadline) {
      for (const { symbol } of rows) {
        if ((await sameOwner(symbol)) && (await quotedSides(symbol)).join() === 'buy,sell') {
          quoted = symbol;
          break;
        }
      }
      if (quoted === undefined) await sleep(200);
    }
    expect(quoted, 'a market another node kept throughout has the maker’s bids and asks').toBeDefined();
    const symbol = quoted!;

    // stopped, the bots place nothing more, so the books can be compared at rest
    await cluster.stop(maker);
    expect(await sameOwner(symbol), `${symbol} kept its owner and epoch while the maker quoted`).toBe(true);
    const book = await storedBook(cluster.pg, symbol);
    const bestBid = Object.keys(book.bids).reduce((a, b) => (BigInt(b) > BigInt(a) ? b : a), '0');
    const bestAsk = Object.keys(book.asks).reduce(
      (a, b) => (BigInt(b) < BigInt(a) ? b : a),
      String(2n ** 62n),
    );
    expect(BigInt(bestBid) < BigInt(bestAsk), 'the stored book is not crossed (one sequencer)').toBe(true);
    expect(Object.keys(book.bids).length, `${symbol} has stored bids`).toBeGreaterThan(0);
    expect(Object.keys(book.asks).length, `${symbol} has stored asks`).toBeGreaterThan(0);
    await expectBooksMatchStore(cluster, [symbol]);
  }, 90_000);
});
