import {
  accruedRate,
  averagePremium,
  fundingRate,
  impactBasis,
  impactPrices,
  markPrice,
  type PerpSpec,
  premiumIndex,
} from '@bourse/perp';
import { fromAtoms } from '@bourse/shared';
import type { PerpTicker } from '@bourse/shared/api';
import type { Bus } from '../../platform/bus.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db.ts';
import { toMillis } from '../../platform/time.ts';
import { specOf } from './records.ts';
import * as repo from './repository.ts';
import type { PerpSequencer } from './sequencer.ts';

export const PERP_TICKER_SUBJECT = 'perp.ticker';
/** The window of impact-basis samples averaged for P2 (perpetual.md §1: five minutes). */
const BASIS_WINDOW_MS = 5 * 60_000;
/** Fewer samples than this in the window (a minute of one a second) give no P2. */
const BASIS_MIN_SAMPLES = 60;
/** A last price older than this is dropped from the mark (perpetual.md §1). */
const LAST_MAX_AGE_MS = 60_000;
const MINUTE = 60_000;

export interface PricingDeps {
  db: Db;
  clock: Clock;
  bus?: Bus;
  index: {
    latestIndex(symbol: string): { price: bigint; at: number; source: string } | undefined;
    isIndexStale(symbol: string, now: number): boolean;
  };
  onError: (error: unknown, what: string) => void;
  /** Every ticker this node computes (the owner's): the service caches and pushes it. */
  onTicker: (ticker: PerpTicker) => void;
}

interface MarketLoop {
  sequencer: PerpSequencer;
  /** Impact-basis samples in the window, oldest first: one per second at most, with its second. */
  basis: { second: number; basis: bigint }[];
  lastMinute: bigint;
  /** The last funding time this market paid (or the boundary before it started). */
  fundedAt: number;
  busy: boolean;
  stats: { volume: bigint; first: bigint | null; last: bigint | null };
  statsAt: number;
}

/** The 24-hour figures are read from the store at most this often. */
const STATS_EVERY_MS = 10_000;

/** `part / whole` as a percentage with two decimals, truncated (`"-1.25"`). */
function percent(part: bigint, whole: bigint): string {
  const bps = (part * 10_000n) / whole;
  const abs = bps < 0n ? -bps : bps;
  return `${bps < 0n ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

/**
 * The owner's clock of each perpetual market (perpetual.md §1): once a second the mark, built
 * from the index, the book's basis and the last trade, goes through the sequencer (mark triggers,
 * liquidations and the fund's lots follow there), with the ticker; each minute a premium sample;
 * at each funding time (00:00, 08:00, 16:00 UTC) the funding event with the time-weighted rate.
 * An index that is stale or missing freezes the market instead (no mark, no liquidation).
 */
export class PerpPricing {
  readonly #deps: PricingDeps;
  readonly #loops = new Map<string, MarketLoop>();
  #timer: NodeJS.Timeout | undefined;

  constructor(deps: PricingDeps) {
    this.#deps = deps;
  }

  /**
   * Starts (or stops, with undefined) pricing a market this node now owns. The loop is registered
   * (busy, so no tick runs it) before anything is awaited: a hand-back that arrives while the
   * funding time is read removes it, and the read then finds it gone and leaves nothing running.
   */
  async own(symbol: string, sequencer: PerpSequencer | undefined): Promise<void> {
    if (!sequencer) {
      this.#loops.delete(symbol);
      return;
    }
    const interval = Number(sequencer.market.funding_interval_ms);
    const now = this.#deps.clock.now();
    const boundary = Math.floor(now / interval) * interval;
    const loop: MarketLoop = {
      sequencer,
      basis: [],
      // why: the first tick samples its own minute's premium: a minute a loop starts in is a live one.
      lastMinute: -1n,
      fundedAt: boundary,
      busy: true,
      stats: { volume: 0n, first: null, last: null },
      statsAt: 0,
    };
    this.#loops.set(symbol, loop);
    try {
      const last = await this.#deps.db
        .selectFrom('perp_fundings')
        .select((eb) => eb.fn.max('funding_at').as('at'))
        .where('symbol', '=', symbol)
        .executeTakeFirst();
      // why: a market that never paid starts counting from the boundary it started after.
      if (last?.at !== null && last?.at !== undefined) loop.fundedAt = Number(last.at);
    } catch (error) {
      if (this.#loops.get(symbol) === loop) this.#loops.delete(symbol);
      throw error;
    } finally {
      loop.busy = false;
    }
  }

  /** The markets this node prices now (tests). */
  pricedMarkets(): string[] {
    return [...this.#loops.keys()];
  }

  start(intervalMs = 1000): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => {
      for (const symbol of this.#loops.keys()) void this.tick(symbol);
    }, intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** One second of a market (tests call it directly). */
  async tick(symbol: string): Promise<void> {
    const loop = this.#loops.get(symbol);
    if (!loop || loop.busy) return;
    loop.busy = true;
    try {
      await this.#tick(symbol, loop);
    } catch (error) {
      this.#deps.onError(error, `perpetual pricing ${symbol}`);
    } finally {
      loop.busy = false;
    }
  }

  async #tick(symbol: string, loop: MarketLoop): Promise<void> {
    const { clock, index } = this.#deps;
    const { sequencer } = loop;
    const market = sequencer.market;
    const spec = specOf(market);
    const now = clock.now();
    const interval = Number(market.funding_interval_ms);
    const value = index.latestIndex(market.index_symbol);
    const stale = !value || index.isIndexStale(market.index_symbol, now);
    const clearing = sequencer.clearing;
    const boundary = Math.floor(now / interval) * interval;
    if (stale || !value) {
      if (!clearing.figures.frozen) await sequencer.submit({ kind: 'freeze' });
    } else {
      const depth = clearing.depth(200);
      const impact = impactPrices(spec, depth.bids, depth.asks);
      const basisAverage = this.#basisAverage(loop, now, impactBasis(value.price, impact));
      const mark = markPrice(spec, {
        index: value.price,
        lastRate: market.last_rate,
        msToFunding: boundary + interval - now,
        basisAverage,
        last:
          clearing.figures.last > 0n && now - sequencer.lastTradeAt <= LAST_MAX_AGE_MS
            ? clearing.figures.last
            : null,
      });
      // why: a refused mark is logged and the second goes on: the minute's premium and the funding
      // event must not wait on it (the next second brings a new mark).
      if (mark > 0n)
        await sequencer
          .submit({ kind: 'mark', mark, index: value.price })
          .catch((error) => this.#deps.onError(error, `perpetual mark ${symbol}`));
      const minute = BigInt(Math.floor(now / MINUTE));
      if (minute !== loop.lastMinute) {
        loop.lastMinute = minute;
        await repo.savePremium(
          this.#deps.db,
          symbol,
          minute,
          premiumIndex(value.price, impact.bid, impact.ask),
        );
      }
    }
    if (boundary > loop.fundedAt && sequencer.clearing.figures.mark > 0n) {
      const rate = await this.rateFor(symbol, loop.fundedAt, boundary, spec, true);
      await sequencer.submit({
        kind: 'fund',
        rate,
        mark: sequencer.clearing.figures.mark,
        at: toMillis(boundary),
      });
      loop.fundedAt = boundary;
    }
    await this.#publish(symbol, loop, value?.price ?? null, boundary + interval, now);
  }

  /**
   * The funding rate of the interval [from, to): the average of its minute premiums, each weighted
   * by its minute's place in the interval, clamped and capped. `accrued`: scaled by the share of the
   * interval's minutes that had a premium, i.e. a live index, for the payment itself (§4b.6: while
   * the index is out, funding does not accrue); without it, the estimate shown before T.
   */
  async rateFor(
    symbol: string,
    from: number,
    to: number,
    spec: PerpSpec = specOf(this.#loops.get(symbol)!.sequencer.market),
    accrued = false,
  ): Promise<bigint> {
    const first = BigInt(Math.floor(from / MINUTE));
    const end = BigInt(Math.floor(to / MINUTE));
    const premiums = await repo.listPremiums(this.#deps.db, symbol, first, end);
    const rate = fundingRate(
      spec,
      averagePremium(premiums.map(([minute, pi]) => [minute - first + 1n, pi] as const)),
    );
    if (!accrued) return rate;
    // why: a minute counts as live when its premium was sampled; the interval is whole minutes.
    const minutes = BigInt(Math.floor(spec.fundingIntervalMs / MINUTE));
    return accruedRate(rate, BigInt(premiums.length), end - first < minutes ? end - first : minutes);
  }

  /**
   * Adds this second's impact-basis sample (none for a thin or one-sided book), drops what left the
   * five-minute window, and answers the window's average, or null with fewer than a minute of samples.
   */
  #basisAverage(loop: MarketLoop, now: number, sample: bigint | null): bigint | null {
    const second = Math.floor(now / 1000);
    if (sample !== null) {
      const lastSample = loop.basis.at(-1);
      // why: one sample a second, however often the loop is run within it.
      if (lastSample?.second === second) lastSample.basis = sample;
      else loop.basis.push({ second, basis: sample });
    }
    const oldest = second - BASIS_WINDOW_MS / 1000;
    while (loop.basis.length > 0 && loop.basis[0]!.second <= oldest) loop.basis.shift();
    if (loop.basis.length < BASIS_MIN_SAMPLES) return null;
    let sum = 0n;
    for (const b of loop.basis) sum += b.basis;
    return sum / BigInt(loop.basis.length);
  }

  async #publish(
    symbol: string,
    loop: MarketLoop,
    index: bigint | null,
    nextFundingAt: number,
    now: number,
  ): Promise<void> {
    const market = loop.sequencer.market;
    const figures = loop.sequencer.clearing.figures;
    const tick = market.tick_size;
    const estimate = await this.rateFor(symbol, loop.fundedAt, now + MINUTE);
    if (now - loop.statsAt >= STATS_EVERY_MS) {
      loop.stats = await repo.tradeStats(this.#deps.db, symbol, toMillis(now - 86_400_000));
      loop.statsAt = now;
    }
    const stats = loop.stats;
    const change = stats.first && stats.last ? percent(stats.last - stats.first, stats.first) : '0.00';
    const ticker: PerpTicker = {
      symbol,
      mark: figures.mark > 0n ? fromAtoms(figures.mark * tick) : null,
      index: index === null ? null : fromAtoms(index),
      last: figures.last > 0n ? fromAtoms(figures.last * tick) : null,
      frozen: figures.frozen,
      funding_rate: fromAtoms(estimate),
      next_funding_at: nextFundingAt,
      change_24h: change,
      volume_24h: fromAtoms(stats.volume),
      ts: now,
    };
    this.#deps.onTicker(ticker);
    await this.#deps.bus
      ?.publish(`${PERP_TICKER_SUBJECT}.${symbol}`, ticker)
      .catch((error) => this.#deps.onError(error, 'perpetual ticker'));
  }
}
