import { randomUUID } from 'node:crypto';
import { AppError, ATOMS_PER_UNIT, toAtoms } from '@bourse/shared';
import type { SpotMarket } from '@bourse/shared/api';
import * as repo from './repository.ts';
import { DEMO_TRADER_USERNAMES, type MarketMakerDeps, type MarketMakerService } from './service.ts';

/** A demo order is worth between 2 and 20 times the market's minimum notional. */
const MIN_MULTIPLE = 2n;
const MAX_MULTIPLE = 20n;

/**
 * The demo traders (demo mode only): on each round, one market order on every market the maker
 * quotes, from one of the demo trader accounts, of a random side and size, so trades print and the
 * market's candles form. A side its account cannot pay for turns to the other side.
 */
export class DemoTraders {
  readonly #deps: MarketMakerDeps;
  readonly #maker: MarketMakerService;
  readonly #random: () => number;

  constructor(deps: MarketMakerDeps, maker: MarketMakerService, random: () => number = Math.random) {
    this.#deps = deps;
    this.#maker = maker;
    this.#random = random;
  }

  /** One round of the demo traders' job; does nothing while they are switched off or the bots are idle. */
  async runOnce(): Promise<void> {
    const { db, spot, index, clock, idle } = this.#deps;
    if (await idle?.isIdle()) return;
    if (!(await this.#maker.demoTradersOn())) return;
    const traders: bigint[] = [];
    for (const username of DEMO_TRADER_USERNAMES) {
      const id = await this.#maker.accountId(username);
      if (id !== undefined) traders.push(id);
    }
    if (traders.length === 0) return;
    const markets = new Map((await spot.markets()).map((m) => [m.symbol, m]));
    for (const row of await repo.listSettings(db)) {
      const market = markets.get(row.symbol);
      const latest = index.latestIndex(row.symbol);
      if (row.enabled !== 1n || !market || market.status !== 'open' || !latest) continue;
      if (index.isIndexStale(row.symbol, clock.now())) continue;
      const trader = traders[Math.floor(this.#random() * traders.length)] ?? traders[0]!;
      try {
        await this.#trade(trader, market, latest.price);
      } catch (error) {
        this.#deps.onError?.(error, `demo trader ${row.symbol}`);
      }
    }
  }

  async #trade(userId: bigint, market: SpotMarket, price: bigint): Promise<void> {
    const { spot, ledger, db } = this.#deps;
    const multiple =
      MIN_MULTIPLE + BigInt(Math.floor(this.#random() * Number(MAX_MULTIPLE - MIN_MULTIPLE + 1n)));
    const amount = toAtoms(market.min_notional) * multiple;
    const lot = toAtoms(market.lot_size);
    const qty = ((amount * ATOMS_PER_UNIT) / price / lot) * lot;
    const balances = await ledger.userBalances(db, userId);
    const available = (asset: string) =>
      balances.find((b) => b.asset === asset && b.kind === 'available')?.balance ?? 0n;
    const canBuy = available(market.quote) >= amount;
    const canSell = qty > 0n && available(market.base) >= qty;
    if (!canBuy && !canSell) return;
    const buy = canBuy && (!canSell || this.#random() < 0.5);
    const auth = { userId, sessionId: 0n };
    const idempotencyKey = `demo:${randomUUID()}`;
    try {
      await spot.place(
        auth,
        buy
          ? {
              symbol: market.symbol,
              side: 'buy',
              type: 'market',
              tif: 'ioc',
              quoteAmount: amount,
              idempotencyKey,
            }
          : { symbol: market.symbol, side: 'sell', type: 'market', tif: 'ioc', qty, idempotencyKey },
      );
    } catch (error) {
      // why: a refused demo order (an empty book side, funds just used) is simply not traded.
      if (!(error instanceof AppError)) throw error;
    }
  }
}
