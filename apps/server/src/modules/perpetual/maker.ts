import { abs } from '@bourse/perp';
import type { AuthContext } from '../../platform/auth-hook.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db.ts';
import type { ScheduledJob, Scheduler } from '../../platform/scheduler.ts';
import type { LedgerService } from '../ledger/service.ts';
import type { UsersService } from '../users/service.ts';
import type { PerpPlaceRequest } from './commands.ts';
import * as repo from './repository.ts';

/** What the maker trades through: the service's customer calls. */
export interface PerpTrading {
  place(auth: AuthContext, request: PerpPlaceRequest): Promise<unknown>;
  cancel(userId: bigint, id: bigint): Promise<unknown>;
  setLeverage(auth: AuthContext, symbol: string, leverage: number): Promise<unknown>;
}

export const PERP_MAKER_USERNAME = 'perp-maker';
const PERP_MAKER_JOB = 'perp-maker';
// why: not an argon2 hash: nobody can log in as the bot.
const NO_LOGIN_HASH = '!';
/** Levels per side, their spacing (basis points of the index) and size (in lots). */
const LEVELS = 5;
const STEP_BPS = 5n;
const LEVEL_LOTS: Record<string, bigint> = { BTC: 200n, ETH: 200n };
/** The inventory cap (in lots): past it, the side that would add to the position is widened. */
const MAX_INVENTORY_LOTS: Record<string, bigint> = { BTC: 5_000n, ETH: 5_000n };
/**
 * Past the cap, the adding side moves away from the index by this many basis points per cap's
 * worth of inventory over it, rounded up (one fifth of the cap over: 1 %, twice the default mark
 * clamp), up to `MAX_WIDEN_BPS` (half the index), so no quote comes near a price of 0.
 */
const WIDEN_BPS_PER_CAP = 500n;
const MAX_WIDEN_BPS = 5_000n;
/** A ladder stands until the index moves this far from where it was quoted (basis points). */
const REQUOTE_BPS = 5n;
const BPS = 10_000n;

export interface PerpMakerDeps {
  db: Db;
  ledger: Pick<LedgerService, 'post'>;
  users: Pick<UsersService, 'createUser' | 'findLoginCandidate'>;
  perp: PerpTrading;
  /** The index the ladder is centred on (the markets module's, as the pricing loop reads it). */
  index: {
    latestIndex(symbol: string): { price: bigint } | undefined;
    isIndexStale(symbol: string, now: number): boolean;
  };
  clock: Clock;
  scheduler: Scheduler;
  onError: (error: unknown, what: string) => void;
}

/** Where a market's ladder was last quoted: the index, and how far each side was widened (bps). */
interface Quoted {
  index: bigint;
  widenBuy: bigint;
  widenSell: bigint;
}

/**
 * How far past the cap each side is moved from the index (basis points): only the side that
 * would add to the position (buys when long, sells when short), growing with the inventory over
 * the cap, so each lot a customer pushes onto the maker past it costs more than the one before.
 */
function makerWidening(position: bigint, cap: bigint): { buy: bigint; sell: bigint } {
  const over = abs(position) - cap;
  if (over <= 0n || cap <= 0n) return { buy: 0n, sell: 0n };
  const raw = (WIDEN_BPS_PER_CAP * over + cap - 1n) / cap;
  const widen = raw < MAX_WIDEN_BPS ? raw : MAX_WIDEN_BPS;
  return position > 0n ? { buy: widen, sell: 0n } : { buy: 0n, sell: widen };
}

/**
 * The demo's perpetual market maker: from a platform-owned account, at 1x, a ladder of real limit
 * orders around the **index** on each perpetual market (never the mark or the last trade, which
 * customers' orders move: perpetual.md §4b.1), through the same API as any customer (same
 * clearing, holds and fees), so the demo's order books have depth. Past its inventory cap it keeps
 * both sides but widens the one that would add, instead of following the price; with no fresh
 * index it withdraws its quotes.
 */
export class PerpMaker {
  readonly #deps: PerpMakerDeps;
  readonly #quoted = new Map<string, Quoted>();
  #userId: bigint | undefined;
  #job: ScheduledJob | undefined;
  #idle: { isIdle(): Promise<boolean> } | undefined;
  #withdrawn = false;

  constructor(deps: PerpMakerDeps) {
    this.#deps = deps;
  }

  /** Creates the bot's account where missing, funded from the `demo` account (a visible entry). */
  async addDemoAccount(funds: bigint): Promise<void> {
    const { db, users, ledger } = this.#deps;
    if (await users.findLoginCandidate(PERP_MAKER_USERNAME)) return;
    await db.transaction().execute(async (trx) => {
      const userId = await users.createUser(trx, {
        account: PERP_MAKER_USERNAME,
        isPhone: false,
        passwordHash: NO_LOGIN_HASH,
        ip: '127.0.0.1',
        platformOwned: true,
      });
      await ledger.post(trx, {
        type: 'perp.maker.fund',
        ref: `perp-maker:user:${userId}`,
        memo: 'Demo perpetual maker funding',
        by: 'system',
        postings: [
          { owner: { system: 'demo' }, asset: 'USDT', kind: 'available', amount: -funds },
          { owner: { userId }, asset: 'USDT', kind: 'available', amount: funds },
        ],
      });
    });
  }

  /**
   * Quotes every `intervalMs` (a scheduled job with a lease); while `idle` says so (the demo's
   * pause without customers, mm/idle.ts), withdraws its quotes once and waits.
   */
  start(intervalMs: number, idle?: { isIdle(): Promise<boolean> }): void {
    this.#idle = idle;
    this.#job ??= this.#deps.scheduler.runEvery(PERP_MAKER_JOB, intervalMs, () => this.runOnce(), {
      lease: true,
    });
  }

  async runOnce(): Promise<void> {
    this.#userId ??= (await this.#deps.users.findLoginCandidate(PERP_MAKER_USERNAME))?.id;
    const userId = this.#userId;
    if (userId === undefined) return;
    const idle = (await this.#idle?.isIdle()) ?? false;
    if (idle && this.#withdrawn) return;
    for (const market of await repo.listMarkets(this.#deps.db)) {
      try {
        if (idle) await this.#withdraw(userId, market.symbol);
        else await this.#quote(userId, market);
      } catch (error) {
        this.#deps.onError(error, `perpetual maker on ${market.symbol}`);
      }
    }
    this.#withdrawn = idle;
  }

  /** Cancels the maker's orders on `symbol`; the next quote places a new ladder. */
  async #withdraw(userId: bigint, symbol: string): Promise<void> {
    for (const o of await repo.listUserOpenOrders(this.#deps.db, userId, symbol)) {
      await this.#deps.perp.cancel(userId, o.id).catch(() => {});
    }
    this.#quoted.delete(symbol);
  }

  async #quote(userId: bigint, market: repo.PerpMarketRow): Promise<void> {
    const { perp, db, index, clock } = this.#deps;
    if (market.status !== 'open') return;
    const auth = { userId, sessionId: 0n } as AuthContext;
    const open = await repo.listUserOpenOrders(db, userId, market.symbol);
    const latest = index.latestIndex(market.index_symbol);
    // why: the index is all a ladder stands on; quotes left around an index nobody refreshes
    // would be picked off at a price the market has left.
    if (!latest || index.isIndexStale(market.index_symbol, clock.now())) {
      await this.#withdraw(userId, market.symbol);
      return;
    }
    // why: the band needs a mark to accept a limit order, and a frozen market takes only reduce-only ones.
    if (market.mark === 0n || market.frozen === 1n) return;
    const centre = latest.price;
    const position = (await repo.findPosition(db, market.symbol, userId))?.qty ?? 0n;
    const cap = (MAX_INVENTORY_LOTS[market.base] ?? 1000n) * market.lot_size;
    const widen = makerWidening(position, cap);
    const quoted = this.#quoted.get(market.symbol);
    const stands =
      quoted !== undefined &&
      abs(centre - quoted.index) * BPS <= quoted.index * REQUOTE_BPS &&
      quoted.widenBuy === widen.buy &&
      quoted.widenSell === widen.sell;
    if (stands && open.length === 2 * LEVELS) return;
    for (const o of open) await perp.cancel(userId, o.id).catch(() => {});
    if (position === 0n && open.length === 0) await perp.setLeverage(auth, market.symbol, 1).catch(() => {});
    const lots = LEVEL_LOTS[market.base] ?? 100n;
    const tick = market.tick_size;
    for (let i = 1n; i <= BigInt(LEVELS); i += 1n) {
      for (const side of ['buy', 'sell'] as const) {
        const offset = (centre * (STEP_BPS * i + (side === 'buy' ? widen.buy : widen.sell))) / BPS;
        const raw = side === 'buy' ? centre - offset : centre + offset;
        const price = side === 'buy' ? (raw / tick) * tick : ((raw + tick - 1n) / tick) * tick;
        if (price <= 0n) continue;
        await perp
          .place(auth, {
            symbol: market.symbol,
            side,
            type: 'limit',
            price,
            qty: lots * market.lot_size,
            triggerRef: 'last',
            priceProtect: false,
            reduceOnly: false,
            closePosition: false,
            postOnly: false,
            idempotencyKey: `perp-maker-${market.symbol}-${market.seq}-${side}-${i}`,
          })
          .catch(() => {});
      }
    }
    this.#quoted.set(market.symbol, { index: centre, widenBuy: widen.buy, widenSell: widen.sell });
  }
}
