import { abs } from '@bourse/perp';
import type { AuthContext } from '../../platform/auth-hook.ts';
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
/** Levels per side, their spacing and size (in lots), and the inventory past which only the reducing side is quoted. */
const LEVELS = 5;
const STEP_BPS = 5n;
const LEVEL_LOTS: Record<string, bigint> = { BTC: 200n, ETH: 200n };
const MAX_INVENTORY_LOTS: Record<string, bigint> = { BTC: 5_000n, ETH: 5_000n };
/** A ladder stands until the mark moves this far from where it was quoted (basis points). */
const REQUOTE_BPS = 5n;

export interface PerpMakerDeps {
  db: Db;
  ledger: Pick<LedgerService, 'post'>;
  users: Pick<UsersService, 'createUser' | 'findLoginCandidate'>;
  perp: PerpTrading;
  scheduler: Scheduler;
  onError: (error: unknown, what: string) => void;
}

/**
 * The demo's perpetual market maker: from a platform-owned account, at 1x, a ladder of real limit
 * orders around the mark on each perpetual market, through the same API as any customer (same
 * clearing, holds and fees), so the demo's order books have depth. Quotes only the side that
 * reduces its position once that grows past a bound.
 */
export class PerpMaker {
  readonly #deps: PerpMakerDeps;
  readonly #quotedAt = new Map<string, bigint>();
  #userId: bigint | undefined;
  #job: ScheduledJob | undefined;

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

  start(intervalMs: number): void {
    this.#job ??= this.#deps.scheduler.runEvery(PERP_MAKER_JOB, intervalMs, () => this.runOnce(), {
      lease: true,
    });
  }

  async runOnce(): Promise<void> {
    this.#userId ??= (await this.#deps.users.findLoginCandidate(PERP_MAKER_USERNAME))?.id;
    const userId = this.#userId;
    if (userId === undefined) return;
    for (const market of await repo.listMarkets(this.#deps.db)) {
      try {
        await this.#quote(userId, market);
      } catch (error) {
        this.#deps.onError(error, `perpetual maker on ${market.symbol}`);
      }
    }
  }

  async #quote(userId: bigint, market: repo.PerpMarketRow): Promise<void> {
    const { perp, db } = this.#deps;
    if (market.status !== 'open' || market.mark === 0n || market.frozen === 1n) return;
    const auth = { userId, sessionId: 0n } as AuthContext;
    const quoted = this.#quotedAt.get(market.symbol);
    const open = await repo.listUserOpenOrders(db, userId, market.symbol);
    const moved = quoted === undefined || abs(market.mark - quoted) * 10_000n > quoted * REQUOTE_BPS;
    if (!moved && open.length === 2 * LEVELS) return;
    for (const o of open) await perp.cancel(userId, o.id).catch(() => {});
    const position = (await repo.findPosition(db, market.symbol, userId))?.qty ?? 0n;
    if (position === 0n && open.length === 0) await perp.setLeverage(auth, market.symbol, 1).catch(() => {});
    const lots = LEVEL_LOTS[market.base] ?? 100n;
    const bound = (MAX_INVENTORY_LOTS[market.base] ?? 1000n) * market.lot_size;
    const tick = market.tick_size;
    for (let i = 1n; i <= BigInt(LEVELS); i += 1n) {
      const offset = (market.mark * STEP_BPS * i) / 10_000n;
      for (const side of ['buy', 'sell'] as const) {
        // why: past the bound only the side that brings the position back is quoted.
        if (side === 'buy' && position > bound) continue;
        if (side === 'sell' && position < -bound) continue;
        const raw = side === 'buy' ? market.mark - offset : market.mark + offset;
        const price = side === 'buy' ? (raw / tick) * tick : ((raw + tick - 1n) / tick) * tick;
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
    this.#quotedAt.set(market.symbol, market.mark);
  }
}
