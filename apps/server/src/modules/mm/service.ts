import { randomUUID } from 'node:crypto';
import { AppError, ATOMS_PER_UNIT, toAtoms } from '@bourse/shared';
import type { SpotMarket, SpotOrder } from '@bourse/shared/api';
import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db.ts';
import { DEFAULT_SLICE_ROWS, type PruneResult } from '../../platform/prune.ts';
import { toMillis } from '../../platform/time.ts';
import type { LedgerService } from '../ledger/service.ts';
import type { SettingsService } from '../settings/service.ts';
import type { SpotService } from '../spot/service.ts';
import type { UsersService } from '../users/service.ts';
import type { BotsIdle } from './idle.ts';
import { planQuotes, type Quote } from './quotes.ts';
import * as repo from './repository.ts';

/** The platform-owned customer account the maker trades from. */
export const MAKER_USERNAME = 'market-maker';
/** The platform-owned accounts of the demo traders (demo mode only). */
export const DEMO_TRADER_USERNAMES = ['demo-trader-1', 'demo-trader-2'] as const;
/** How long the bots' revoked, unfilled orders are kept by default (the back office shows them meanwhile). */
export const BOT_ORDER_RETENTION_MS = 6 * 60 * 60_000;
/** The setting that switches the demo traders (`on` / `off`). */
export const DEMO_TRADERS_KEY = 'demo_traders';
// why: not an argon2 hash, so no password ever verifies against it: nobody can log in as a bot.
const NO_LOGIN_HASH = '!';
const MAX_LEVELS = 50;

/** How the maker quotes one market (atoms and basis points), as the back office edits it. */
export interface MakerSettings {
  symbol: string;
  enabled: boolean;
  levels: number;
  spreadBps: bigint;
  stepBps: bigint;
  levelQty: bigint;
  inventoryTarget: bigint;
  maxInventoryDeviation: bigint;
}

/** Demo mode's bots: the maker's settings per market and what each bot account is funded with. */
export interface DemoBotSetup {
  markets: MakerSettings[];
  makerFunds: readonly { asset: string; amount: bigint }[];
  traderFunds: readonly { asset: string; amount: bigint }[];
}

export interface MarketMakerDeps {
  db: Db;
  clock: Clock;
  spot: Pick<SpotService, 'place' | 'cancelAll' | 'openOrders' | 'markets' | 'pruneRevokedUnfilled'>;
  /** The index this node last saw and whether it is stale (the markets module). */
  index: {
    latestIndex(symbol: string): { price: bigint } | undefined;
    isIndexStale(symbol: string, now: number): boolean;
  };
  ledger: Pick<LedgerService, 'post' | 'userBalances'>;
  users: Pick<UsersService, 'createUser' | 'findLoginCandidate'>;
  settings: Pick<SettingsService, 'get' | 'set'>;
  onError?: (error: unknown, what: string) => void;
  /** Demo mode with `DEMO_IDLE_MINUTES`: while idle, the maker keeps no quotes and the demo traders skip. */
  idle?: BotsIdle;
  /**
   * How long the bots' revoked, unfilled orders are kept (default {@link BOT_ORDER_RETENTION_MS}),
   * and the most rows one prune statement deletes.
   */
  retention?: { botOrderMs: number; sliceRows: number };
}

/**
 * The market maker (owner of `market_maker_settings`): quotes a ladder of real limit orders around
 * the index on each enabled spot market, from the `market-maker` account, through the spot
 * service like any customer (same sequencer, holds and fees). Its settings are read and saved
 * here; the caller audits a change.
 */
export class MarketMakerService {
  readonly #deps: MarketMakerDeps;
  readonly #accounts = new Map<string, bigint>();
  /**
   * The ladder last placed per market: it stands while the index moves less than a quarter of the
   * spread, so the book is not rewritten on every tick, and levels the market refused do not
   * force a re-quote.
   */
  readonly #standing = new Map<string, StandingLadder>();
  /** Every quote was cancelled since the bots went idle. */
  #withdrawn = false;

  constructor(deps: MarketMakerDeps) {
    this.#deps = deps;
  }

  // --- settings ---------------------------------------------------------------------------------

  async getSettings(): Promise<{ markets: MakerSettings[]; demoTraders: boolean }> {
    const rows = await repo.listSettings(this.#deps.db);
    return { markets: rows.map(toSettings), demoTraders: await this.demoTradersOn() };
  }

  /** Saves one market's settings in the caller's transaction; bad values answer PARAM_ERROR. */
  async saveMarket(
    trx: Db,
    settings: MakerSettings,
  ): Promise<{ before: MakerSettings | null; after: MakerSettings }> {
    const market = (await this.#deps.spot.markets(trx)).find((m) => m.symbol === settings.symbol);
    if (!market || !isValid(settings, market)) throw new AppError('PARAM_ERROR');
    const before = await repo.findSettings(trx, settings.symbol);
    await repo.upsertSettings(trx, this.#toRow(settings));
    return { before: before ? toSettings(before) : null, after: settings };
  }

  async demoTradersOn(db: Db = this.#deps.db): Promise<boolean> {
    return (await this.#deps.settings.get(DEMO_TRADERS_KEY, db)) === 'on';
  }

  /** Switches the demo traders in the caller's transaction. */
  async setDemoTraders(
    trx: Db,
    on: boolean,
  ): Promise<{ before: { demoTraders: boolean }; after: { demoTraders: boolean } }> {
    const before = await this.demoTradersOn(trx);
    await this.#deps.settings.set(trx, DEMO_TRADERS_KEY, on ? 'on' : 'off');
    return { before: { demoTraders: before }, after: { demoTraders: on } };
  }

  /**
   * The demo's bots (demo seed): creates the maker's and the demo traders' accounts where missing,
   * funding each new one with a visible `mm.fund` entry from the `demo` system account in the
   * transaction that creates it; adds the missing markets' settings and turns the demo traders on
   * unless staff switched them.
   */
  async addDemoSetup(setup: DemoBotSetup): Promise<void> {
    const { db, ledger, users, settings } = this.#deps;
    const accounts = [
      { username: MAKER_USERNAME, funds: setup.makerFunds },
      ...DEMO_TRADER_USERNAMES.map((username) => ({ username, funds: setup.traderFunds })),
    ];
    // why: looked up before the transaction: on SQLite a read outside it would wait for its lock.
    const existing = await Promise.all(accounts.map((a) => users.findLoginCandidate(a.username)));
    await db.transaction().execute(async (trx) => {
      for (const [i, account] of accounts.entries()) {
        if (existing[i]) continue;
        const userId = await users.createUser(trx, {
          account: account.username,
          isPhone: false,
          passwordHash: NO_LOGIN_HASH,
          ip: '127.0.0.1',
          platformOwned: true,
        });
        await ledger.post(trx, {
          type: 'mm.fund',
          ref: `mm:user:${userId}`,
          memo: 'Demo bot funding',
          by: 'system',
          postings: account.funds.flatMap(({ asset, amount }) => [
            { owner: { system: 'demo' as const }, asset, kind: 'available' as const, amount: -amount },
            { owner: { userId }, asset, kind: 'available' as const, amount },
          ]),
        });
      }
      for (const market of setup.markets) await repo.insertMissingSettings(trx, this.#toRow(market));
      if ((await settings.get(DEMO_TRADERS_KEY, trx)) === undefined) {
        await settings.set(trx, DEMO_TRADERS_KEY, 'on');
      }
    });
  }

  /**
   * Deletes the bots' orders revoked without a fill more than the retention ago (default
   * {@link BOT_ORDER_RETENTION_MS}), in bounded slices: the maker replaces its ladder many times a
   * minute, which would otherwise grow the orders table by millions of rows a day. Filled orders
   * and every customer order are kept.
   */
  async pruneBotOrders(onSlice?: (deleted: number) => void): Promise<PruneResult> {
    const ids: bigint[] = [];
    for (const username of [MAKER_USERNAME, ...DEMO_TRADER_USERNAMES]) {
      const id = await this.accountId(username);
      if (id !== undefined) ids.push(id);
    }
    const { botOrderMs, sliceRows } = this.#deps.retention ?? {
      botOrderMs: BOT_ORDER_RETENTION_MS,
      sliceRows: DEFAULT_SLICE_ROWS,
    };
    return this.#deps.spot.pruneRevokedUnfilled(ids, this.#deps.clock.now() - botOrderMs, {
      sliceSize: sliceRows,
      onSlice,
    });
  }

  /** The id of a bot account, or undefined while it does not exist. */
  async accountId(username: string): Promise<bigint | undefined> {
    let id = this.#accounts.get(username);
    if (id === undefined) {
      id = (await this.#deps.users.findLoginCandidate(username))?.id;
      if (id !== undefined) this.#accounts.set(username, id);
    }
    return id;
  }

  // --- quoting ----------------------------------------------------------------------------------

  /**
   * One round of the maker's job: on each market with settings, the ladder it wants (from the
   * index, its settings and its balances) replaces its open orders unless they already are that
   * ladder. A disabled market, or one whose index is stale, gets its quotes cancelled. While the
   * bots are idle (`deps.idle`) the first round cancels every quote and the next ones do nothing.
   */
  async runOnce(): Promise<void> {
    const userId = await this.accountId(MAKER_USERNAME);
    if (userId === undefined) return;
    // why: a quote left standing while nobody watches would be picked off once the index moved.
    if (await this.#deps.idle?.isIdle()) return this.#withdraw(userId);
    this.#withdrawn = false;
    const markets = new Map((await this.#deps.spot.markets()).map((m) => [m.symbol, m]));
    for (const row of await repo.listSettings(this.#deps.db)) {
      const market = markets.get(row.symbol);
      if (!market) continue;
      try {
        await this.#quote(userId, toSettings(row), market);
      } catch (error) {
        this.#deps.onError?.(error, `market maker ${row.symbol}`);
      }
    }
  }

  /** Cancels the maker's quotes on every market, once per idle spell (again after a failure). */
  async #withdraw(userId: bigint): Promise<void> {
    if (this.#withdrawn) return;
    const { spot, db } = this.#deps;
    let withdrawn = true;
    for (const row of await repo.listSettings(db)) {
      try {
        if ((await spot.openOrders(userId, row.symbol)).length > 0) await spot.cancelAll(userId, row.symbol);
      } catch (error) {
        withdrawn = false;
        this.#deps.onError?.(error, `market maker ${row.symbol}`);
      }
    }
    this.#standing.clear();
    this.#withdrawn = withdrawn;
  }

  async #quote(userId: bigint, settings: MakerSettings, market: SpotMarket): Promise<void> {
    const { spot, index, clock } = this.#deps;
    const { symbol } = market;
    const open = await spot.openOrders(userId, symbol);
    const latest = index.latestIndex(symbol);
    // why: quotes on a stale price are free money for whoever sees the real one; pull them.
    if (!settings.enabled || market.status !== 'open' || !latest || index.isIndexStale(symbol, clock.now())) {
      if (open.length > 0) await spot.cancelAll(userId, symbol);
      return;
    }
    const balances = await this.#deps.ledger.userBalances(this.#deps.db, userId);
    const balance = (asset: string, kind: string) =>
      balances.find((b) => b.asset === asset && b.kind === kind)?.balance ?? 0n;
    let heldQuote = 0n;
    let heldBase = 0n;
    for (const order of open) {
      const remaining = toAtoms(order.qty ?? '0') - toAtoms(order.filled_qty);
      if (order.side === 'sell') heldBase += remaining;
      else heldQuote += (toAtoms(order.price ?? '0') * remaining) / ATOMS_PER_UNIT;
    }
    const wanted = planQuotes({
      index: latest.price,
      tickSize: toAtoms(market.tick_size),
      lotSize: toAtoms(market.lot_size),
      minNotional: toAtoms(market.min_notional),
      levels: settings.levels,
      spreadBps: settings.spreadBps,
      stepBps: settings.stepBps,
      levelQty: settings.levelQty,
      inventoryTarget: settings.inventoryTarget,
      maxInventoryDeviation: settings.maxInventoryDeviation,
      inventory: balance(market.base, 'available') + balance(market.base, 'frozen'),
      quoteBudget: balance(market.quote, 'available') + heldQuote,
      baseBudget: balance(market.base, 'available') + heldBase,
    });
    const shape = ladderShape(settings, wanted);
    if (isSameLadder(open, wanted) || this.#standing.get(symbol)?.holds(shape, latest.price, open)) return;
    if (open.length > 0) await spot.cancelAll(userId, symbol);
    const auth = { userId, sessionId: 0n };
    // why: placed together, so the sequencer takes the whole ladder in one batch.
    const placed = await Promise.all(
      wanted.map((quote) =>
        spot
          .place(auth, {
            symbol,
            side: quote.side,
            type: 'limit',
            tif: 'post_only',
            price: quote.price,
            qty: quote.qty,
            idempotencyKey: `mm:${randomUUID()}`,
          })
          .catch((error: unknown) => {
            // why: a refused level (funds just taken, outside the band) leaves the rest standing.
            if (error instanceof AppError) return undefined;
            throw error;
          }),
      ),
    );
    const ids = placed.flatMap((order) => (order?.status === 'entrusted' ? [order.id] : []));
    this.#standing.set(symbol, new StandingLadder(shape, latest.price, settings.spreadBps, ids));
  }

  #toRow(settings: MakerSettings): repo.SettingsRow {
    return {
      symbol: settings.symbol,
      enabled: settings.enabled ? 1n : 0n,
      levels: BigInt(settings.levels),
      spread_bps: settings.spreadBps,
      step_bps: settings.stepBps,
      level_qty: settings.levelQty,
      inventory_target: settings.inventoryTarget,
      max_inventory_deviation: settings.maxInventoryDeviation,
      updated_at: toMillis(this.#deps.clock.now()),
    };
  }
}

function toSettings(row: repo.SettingsRow): MakerSettings {
  return {
    symbol: row.symbol,
    enabled: row.enabled === 1n,
    levels: Number(row.levels),
    spreadBps: row.spread_bps,
    stepBps: row.step_bps,
    levelQty: row.level_qty,
    inventoryTarget: row.inventory_target,
    maxInventoryDeviation: row.max_inventory_deviation,
  };
}

function isValid(s: MakerSettings, market: SpotMarket): boolean {
  return (
    Number.isInteger(s.levels) &&
    s.levels >= 1 &&
    s.levels <= MAX_LEVELS &&
    s.spreadBps >= 1n &&
    s.spreadBps <= 2000n &&
    s.stepBps >= 0n &&
    s.stepBps <= 1000n &&
    s.levelQty > 0n &&
    s.levelQty % toAtoms(market.lot_size) === 0n &&
    s.inventoryTarget >= 0n &&
    s.maxInventoryDeviation >= 0n
  );
}

/** The settings and the levels per side a ladder was placed for. */
function ladderShape(settings: MakerSettings, wanted: Quote[]): string {
  const bids = wanted.filter((q) => q.side === 'buy').length;
  return [
    settings.levels,
    settings.spreadBps,
    settings.stepBps,
    settings.levelQty,
    settings.inventoryTarget,
    settings.maxInventoryDeviation,
    bids,
    wanted.length - bids,
  ].join('|');
}

/** The ladder placed last: its shape, the index it was placed at, and the orders it rests as. */
class StandingLadder {
  readonly shape: string;
  readonly index: bigint;
  readonly spreadBps: bigint;
  readonly orderIds: ReadonlySet<string>;

  constructor(shape: string, index: bigint, spreadBps: bigint, orderIds: readonly string[]) {
    this.shape = shape;
    this.index = index;
    this.spreadBps = spreadBps;
    this.orderIds = new Set(orderIds);
  }

  /** The same shape is wanted, the index moved less than a quarter of the spread, no order was touched. */
  holds(shape: string, index: bigint, open: SpotOrder[]): boolean {
    const drift = index > this.index ? index - this.index : this.index - index;
    return (
      shape === this.shape &&
      drift * 40_000n < this.index * this.spreadBps &&
      open.length === this.orderIds.size &&
      open.every((o) => this.orderIds.has(o.id) && toAtoms(o.filled_qty) === 0n)
    );
  }
}

/** Whether the open orders are exactly the wanted ladder, none of them touched. */
function isSameLadder(open: SpotOrder[], wanted: Quote[]): boolean {
  if (open.length !== wanted.length) return false;
  const key = (side: string, price: bigint, qty: bigint) => `${side}|${price}|${qty}`;
  const have = new Set(
    open
      .filter((o) => toAtoms(o.filled_qty) === 0n && o.price !== null && o.qty !== null)
      .map((o) => key(o.side, toAtoms(o.price ?? '0'), toAtoms(o.qty ?? '0'))),
  );
  return wanted.every((q) => have.has(key(q.side, q.price, q.qty)));
}
