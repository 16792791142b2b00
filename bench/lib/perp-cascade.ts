// The perpetual liquidation cascade, in process: the app built on a fresh SQLite store with a
// manual clock (no feed, no pricing timer, no maker), `positions` users each long 0.001–0.01 BTC
// at 5x against a few short counterparties, then ONE mark move that puts every long past its
// liquidation price. The mark comes from the index as in production: the bench records an index
// tick through the markets service (as the feed would) and runs one second of the market's
// pricing loop (`pricing.tick`), which submits the mark command to the sequencer; liquidation,
// the takeover at the bankruptcy price, the insurance fund's IOC unwind and ADL all happen in
// that command's batch. The time is taken with process.hrtime from the pricing tick to its
// commit, then every position is read back from the store.
//
// why in process: the mark follows the index, and no HTTP route sets prices (nor should one);
// the users and positions are set up through the services directly (no password hashing for
// 1,000 accounts, no HTTP for the opening trades), which is setup, not what is measured.
import fs from 'node:fs';
import inspector from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { PerpClearing } from '@bourse/perp';
import { toAtoms } from '@bourse/shared';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import type { PerpPlaceRequest } from '../../apps/server/src/modules/perpetual/commands.ts';
import { specOf } from '../../apps/server/src/modules/perpetual/records.ts';
import { insertUser } from '../../apps/server/src/modules/users/repository.ts';
import type { AuthContext } from '../../apps/server/src/platform/auth-hook.ts';
import { ManualClock } from '../../apps/server/src/platform/clock.ts';
import type { Db } from '../../apps/server/src/platform/db.ts';
import { toMillis } from '../../apps/server/src/platform/time.ts';

const SYMBOL = 'BTCUSDT';
const LOT = toAtoms('0.001');
const ATOMS = 100_000_000n;

export interface CascadeFigures {
  positions: number;
  /** Open positions before the move, and still open (not FLAT) after its commit. */
  openBefore: number;
  openAfter: number;
  /** From the pricing tick (the mark move) until its batch committed: every position FLAT. */
  closedMs: number;
  /** The same mark command on a copy of the clearing alone (no store), ms. */
  clearingMs: number;
  liquidations: number;
  adl: number;
  unwindFills: number;
  unwindQty: bigint;
  /** Lots the fund still holds after the move, and their quantity. */
  lotsKept: number;
  lotsQty: bigint;
  insuranceBefore: bigint;
  insuranceAfter: bigint;
  markBefore: bigint;
  markAfter: bigint;
  openSeconds: number;
}

/** Decimal string of atoms with `decimals` places. */
export function atomsText(atoms: bigint, decimals = 2): string {
  const sign = atoms < 0n ? '-' : '';
  const abs = atoms < 0n ? -atoms : atoms;
  const scale = 10n ** BigInt(8 - decimals);
  const whole = abs / ATOMS;
  const fraction = (abs % ATOMS) / scale;
  return decimals === 0 ? `${sign}${whole}` : `${sign}${whole}.${String(fraction).padStart(decimals, '0')}`;
}

export async function measureCascade(options: {
  env: Record<string, string>;
  positions: number;
  shorts: number;
  /** Index before and after the move (USDT). */
  from: string;
  to: string;
  /** Share of the longs' total quantity the shorts bid for (at the band's floor) before the move. */
  bidShare: number;
  log: (line: string) => void;
}): Promise<CascadeFigures> {
  const { positions, shorts, log } = options;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-bench-cascade-'));
  // why: far from a funding time (00:00, 08:00, 16:00 UTC), so the move's tick pays no funding.
  const clock = new ManualClock(Date.UTC(2026, 10, 22, 10, 0, 0));
  const app = await buildApp({
    config: loadConfig({ ...options.env, DATA_DIR: dataDir }),
    clock,
    startFeed: false,
    startMarketMaker: false,
    logger: false,
  });
  try {
    const { store, ledger, markets } = app.ctx;
    const perp = app.ctx.perpetual;
    if (!perp || !markets) throw new Error('the perpetual or markets module is not registered');
    const db = store.db;

    const indexAt = async (price: string): Promise<void> => {
      const at = clock.now();
      const atoms = toAtoms(price);
      const value = {
        symbol: SYMBOL,
        price: atoms,
        at,
        source: 'bench',
        constituents: [{ source: 'bench', price: atoms, at, used: true, reason: null }],
      };
      await markets.recordIndex([value]);
      markets.noteIndex(value);
    };

    // Users: inserted directly (no password: nobody logs in), funded from the demo account.
    const openStart = process.hrtime.bigint();
    const longIds: bigint[] = [];
    const shortIds: bigint[] = [];
    const now = toMillis(clock.now());
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < positions + shorts; i++) {
        const name = i < positions ? `cascade-long-${i}` : `cascade-short-${i - positions}`;
        const userId = await insertUser(trx, {
          username: name,
          phone: null,
          email: null,
          passwordHash: '!',
          inviteCode: `CB${i.toString(36).toUpperCase().padStart(6, '0')}`,
          referrerId: null,
          regIp: '127.0.0.1',
          now,
        });
        (i < positions ? longIds : shortIds).push(userId);
        const amount = toAtoms(i < positions ? '1000' : '150000');
        await ledger.post(trx, {
          type: 'demo.credit',
          ref: `bench:cascade:${userId}`,
          memo: 'Benchmark credit',
          by: 'system',
          postings: [
            { owner: { system: 'demo' }, asset: 'USDT', kind: 'available', amount: -amount },
            { owner: { userId }, asset: 'USDT', kind: 'available', amount },
          ],
        });
      }
    });

    // The market's pricing loop is taken when the node takes the market (not awaited by start).
    const sequencer = async () => {
      for (let i = 0; i < 100; i++) {
        const local = perp.local(SYMBOL);
        if (local) return local;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`${SYMBOL} was not taken`);
    };
    const seq = await sequencer();
    for (let i = 0; i < 100 && seq.clearing.figures.mark === 0n; i++) {
      await indexAt(options.from);
      await perp.pricing.tick(SYMBOL);
      if (seq.clearing.figures.mark === 0n) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (seq.clearing.figures.mark === 0n) throw new Error('no mark');

    let key = 0;
    const place = (userId: bigint, request: Partial<PerpPlaceRequest>) =>
      perp.place({ userId, sessionId: 0n } as AuthContext, {
        symbol: SYMBOL,
        side: 'buy',
        type: 'limit',
        triggerRef: 'last',
        priceProtect: false,
        reduceOnly: false,
        closePosition: false,
        postOnly: false,
        idempotencyKey: `bench-cascade-${key++}`,
        ...request,
      });

    // Each long 0.001–0.01 BTC (1 to 10 lots, in turn); the shorts rest the total at the index.
    const longQty = longIds.map((_, i) => LOT * BigInt(1 + (i % 10)));
    const total = longQty.reduce((a, b) => a + b, 0n);
    const fromAtoms = toAtoms(options.from);
    const perShort = (total / BigInt(shorts) / LOT + 1n) * LOT;
    await Promise.all(
      shortIds.map((userId) => place(userId, { side: 'sell', price: fromAtoms, qty: perShort })),
    );
    await Promise.all(
      longIds.map((userId, i) => place(userId, { side: 'buy', type: 'market', qty: longQty[i] })),
    );
    // What the shorts did not sell leaves the book (no ask: no basis in the mark).
    for (const order of seq.clearing.openOrders())
      await perp.cancel(order.userId, await orderIdOf(db, order.id));
    // The shorts bid at the band's floor for a share of the longs' quantity: buys that reduce
    // their shorts, and the only liquidity the fund's unwind will find.
    const bandFloor = (fromAtoms * 95n) / 100n;
    const bidPerShort =
      ((total * BigInt(Math.round(options.bidShare * 1000))) / 1000n / BigInt(shorts) / LOT) * LOT;
    if (bidPerShort > 0n) {
      const tick = seq.market.tick_size;
      const price = ((bandFloor + tick - 1n) / tick) * tick;
      await Promise.all(shortIds.map((userId) => place(userId, { side: 'buy', price, qty: bidPerShort })));
    }
    const openSeconds = Number(process.hrtime.bigint() - openStart) / 1e9;
    const longSet = new Set(longIds);
    const openBefore = seq.clearing.positions().filter((p) => longSet.has(p.userId) && p.qty !== 0n).length;
    log(
      `  set up: ${positions} longs of 0.001–0.01 BTC at 5x (${atomsText(total, 3)} BTC in all) against ${shorts} shorts, ` +
        `${atomsText(bidPerShort * BigInt(shorts), 3)} BTC of the shorts' bids at the band's floor; ` +
        `${openBefore} longs open, in ${openSeconds.toFixed(1)} s (users inserted and funded in one transaction, ` +
        `orders placed through the service, no HTTP)`,
    );

    // why: the last trade weighs in the mark for a minute; after it the mark is the index alone.
    await clock.advance(61_000);
    const markBefore = seq.clearing.figures.mark * seq.market.tick_size;
    const insuranceBefore = seq.clearing.figures.insurance;
    const trades = async () =>
      db
        .selectFrom('perp_trades')
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<bigint>('qty').as('qty')])
        .where('symbol', '=', SYMBOL)
        .where('kind', '=', 'unwind')
        .executeTakeFirstOrThrow();
    const unwindBefore = await trades();

    // The clearing alone: the same mark on a copy of it (the mark the tick will compute).
    await indexAt(options.to);
    const copy = new PerpClearing(specOf(seq.market), seq.clearing.snapshot());
    const toTicks = toAtoms(options.to) / seq.market.tick_size;
    const clearingStart = process.hrtime.bigint();
    copy.mark(toTicks);
    const clearingMs = Number(process.hrtime.bigint() - clearingStart) / 1e6;

    // why: BENCH_CASCADE_PROF=<file> writes the CPU profile of the move alone (open it in DevTools).
    const profiler = process.env.BENCH_CASCADE_PROF ? new inspector.Session() : undefined;
    if (profiler) {
      profiler.connect();
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.setSamplingInterval', { interval: 100 });
      await profiler.post('Profiler.start');
    }
    // THE mark move: one second of the pricing loop, from the index just recorded.
    const start = process.hrtime.bigint();
    await perp.pricing.tick(SYMBOL);
    const closedMs = Number(process.hrtime.bigint() - start) / 1e6;
    if (profiler) {
      const { profile } = await profiler.post('Profiler.stop');
      fs.writeFileSync(process.env.BENCH_CASCADE_PROF as string, JSON.stringify(profile));
      profiler.disconnect();
    }

    const open = await db
      .selectFrom('perp_positions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('symbol', '=', SYMBOL)
      .where('user_id', 'in', longIds)
      .where('qty', '!=', 0n)
      .executeTakeFirstOrThrow();
    const kinds = await db
      .selectFrom('perp_liquidations')
      .select(['kind', (eb) => eb.fn.countAll<number>().as('n')])
      .where('symbol', '=', SYMBOL)
      .groupBy('kind')
      .execute();
    const unwindAfter = await trades();
    const lots = seq.clearing.lots();
    return {
      positions,
      openBefore,
      openAfter: Number(open.n),
      closedMs,
      clearingMs,
      liquidations: Number(kinds.find((k) => k.kind === 'liquidation')?.n ?? 0),
      adl: Number(kinds.find((k) => k.kind === 'adl')?.n ?? 0),
      unwindFills: Number(unwindAfter.n) - Number(unwindBefore.n),
      unwindQty: BigInt(unwindAfter.qty ?? 0) - BigInt(unwindBefore.qty ?? 0),
      lotsKept: lots.length,
      lotsQty: lots.reduce((sum, lot) => sum + (lot.qty < 0n ? -lot.qty : lot.qty), 0n),
      insuranceBefore,
      insuranceAfter: seq.clearing.figures.insurance,
      markBefore,
      markAfter: seq.clearing.figures.mark * seq.market.tick_size,
      openSeconds,
    };
  } finally {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The store's id of an order, by its number in the market. */
async function orderIdOf(db: Db, orderNo: bigint): Promise<bigint> {
  const row = await db
    .selectFrom('perp_orders')
    .select('id')
    .where('symbol', '=', SYMBOL)
    .where('order_no', '=', orderNo)
    .executeTakeFirstOrThrow();
  return row.id;
}
