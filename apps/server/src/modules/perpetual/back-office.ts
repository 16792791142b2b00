import { maxMarkClamp } from '@bourse/perp';
import { AppError, fromAtoms, trimDecimal } from '@bourse/shared';
import type {
  AdminAdlPage,
  AdminFundingPage,
  AdminInsurancePage,
  AdminLiquidationPage,
  AdminPerpHealth,
  AdminPerpMarket,
  PerpMarket,
  PerpTicker,
} from '@bourse/shared/api';
import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db.ts';
import type { StaffActor } from '../../platform/staff-actor.ts';
import { fromMillis } from '../../platform/time.ts';
import type { LedgerService } from '../ledger/service.ts';
import type { PerpCommand, PerpOutcome } from './commands.ts';
import { leaseName } from './owned-markets.ts';
import { tiersFromJson } from './records.ts';
import * as repo from './repository.ts';

/** What the back office asks the perpetual service (its market views and its way to the owners). */
export interface PerpServiceView {
  markets(): Promise<PerpMarket[]>;
  ticker(symbol: string): Promise<PerpTicker>;
  owners(): Promise<{ symbol: string; holder: string; live: boolean }[]>;
  send(symbol: string, command: PerpCommand): Promise<PerpOutcome>;
}

const PAGE = 20;
/** The rows read for page `page` (1-based): one more than a page, to tell whether more follow. */
const pageOf = (page: number) => ({ limit: PAGE + 1, offset: (page - 1) * PAGE });
type Invariant = AdminPerpHealth['markets'][number]['invariants'][number];

/**
 * The back office of perpetual contracts: markets with their live figures, fee, band, mark clamp
 * and status changes and insurance top-ups (each audited in the owner's batch that applies it),
 * the fund's history, liquidations, ADL and funding events, and the five invariants of
 * perpetual.md §5 checked against the ledger. Nothing here sets a mark, a rate or a liquidation.
 */
export class PerpBackOffice {
  readonly #deps: { db: Db; clock: Clock; ledger: LedgerService; perp: PerpServiceView };

  constructor(deps: { db: Db; clock: Clock; ledger: LedgerService; perp: PerpServiceView }) {
    this.#deps = deps;
  }

  async listMarkets(): Promise<AdminPerpMarket[]> {
    const { db, perp } = this.#deps;
    const [rows, owners, views] = await Promise.all([repo.listMarkets(db), perp.owners(), perp.markets()]);
    const result: AdminPerpMarket[] = [];
    for (const m of rows) {
      const view = views.find((v) => v.symbol === m.symbol)!;
      const ticker = await perp.ticker(m.symbol);
      const positions = await repo.listPositions(db, m.symbol);
      const lots = await repo.listLots(db, m.symbol);
      let openInterest = 0n;
      let longs = 0;
      let shorts = 0;
      for (const p of positions) {
        if (p.qty > 0n) [openInterest, longs] = [openInterest + p.qty, longs + 1];
        if (p.qty < 0n) shorts += 1;
      }
      const owner = owners.find((o) => o.symbol === leaseName(m.symbol) && o.live);
      result.push({
        symbol: m.symbol,
        base: m.base,
        quote: m.quote,
        tickSize: fromAtoms(m.tick_size),
        lotSize: fromAtoms(m.lot_size),
        makerFee: fromAtoms(m.maker_rate),
        takerFee: fromAtoms(m.taker_rate),
        band: fromAtoms(m.band_rate),
        maxLeverage: Number(m.max_leverage),
        tiers: tiersFromJson(m.tiers).map((t) => ({
          maxNotional: t.maxNotional === null ? null : fromAtoms(t.maxNotional),
          maxLeverage: t.maxLeverage,
          mmr: fromAtoms(t.mmr),
          cum: fromAtoms(t.cum),
        })),
        fundingIntervalHours: Number(m.funding_interval_ms / 3_600_000n),
        fundingCap: fromAtoms(m.funding_cap),
        markClamp: fromAtoms(m.mark_clamp),
        status: m.status,
        simulated: view.simulated,
        mark: ticker.mark,
        index: ticker.index,
        frozen: m.frozen === 1n,
        insurance: fromAtoms(m.insurance),
        openInterest: fromAtoms(openInterest),
        longs,
        shorts,
        fundLots: fromAtoms(lots.reduce((sum, l) => sum + (l.qty < 0n ? -l.qty : l.qty), 0n)),
        fundingRate: ticker.funding_rate,
        nextFundingAt: ticker.next_funding_at,
        owner: owner?.holder ?? null,
      });
    }
    return result;
  }

  async market(symbol: string): Promise<AdminPerpMarket> {
    const market = (await this.listMarkets()).find((m) => m.symbol === symbol);
    if (!market) throw new AppError('MARKET_NOT_OPEN');
    return market;
  }

  /**
   * Fees, band, mark clamp or status; audited by the owner in the batch that applies it. Refuses a
   * clamp outside (0, MMR₁/4] of the market's tiers with `MARK_CLAMP_INVALID`, changing nothing.
   */
  async editMarket(
    staff: StaffActor,
    symbol: string,
    values: {
      makerRate?: bigint;
      takerRate?: bigint;
      bandRate?: bigint;
      markClamp?: bigint;
      status?: 'open' | 'halted';
    },
    reason: string,
  ): Promise<AdminPerpMarket> {
    await this.market(symbol);
    if (values.markClamp !== undefined) {
      const row = await repo.findMarket(this.#deps.db, symbol);
      if (!row) throw new AppError('MARKET_NOT_OPEN');
      // why: staff cannot change a market's tiers, so the bound read here is the one the owner applies.
      const max = maxMarkClamp(tiersFromJson(row.tiers));
      if (values.markClamp <= 0n || values.markClamp > max)
        throw new AppError('MARK_CLAMP_INVALID', { max: `${trimDecimal(fromAtoms(max * 100n))}%` });
    }
    await this.#deps.perp.send(symbol, {
      kind: 'configure',
      values: {
        ...(values.makerRate !== undefined ? { maker_rate: values.makerRate } : {}),
        ...(values.takerRate !== undefined ? { taker_rate: values.takerRate } : {}),
        ...(values.bandRate !== undefined ? { band_rate: values.bandRate } : {}),
        ...(values.markClamp !== undefined ? { mark_clamp: values.markClamp } : {}),
        ...(values.status !== undefined ? { status: values.status } : {}),
      },
      staff: { actor: staff.actor, ip: staff.ip },
      reason,
    });
    return this.market(symbol);
  }

  /** Moves treasury USDT into the market's insurance fund (audited with the move). */
  async fundInsurance(
    staff: StaffActor,
    symbol: string,
    amount: bigint,
    reason: string,
  ): Promise<AdminPerpMarket> {
    await this.market(symbol);
    await this.#deps.perp.send(symbol, {
      kind: 'insurance',
      amount,
      staff: { actor: staff.actor, ip: staff.ip },
      reason,
    });
    return this.market(symbol);
  }

  async insurance(symbol: string | undefined, page: number): Promise<AdminInsurancePage> {
    const { db } = this.#deps;
    const rows = await repo.pageInsuranceMoves(db, symbol, page, PAGE);
    return {
      items: rows.slice(0, PAGE).map((r) => ({
        id: String(r.id),
        symbol: r.symbol,
        kind: r.kind,
        amount: fromAtoms(r.amount),
        balanceAfter: fromAtoms(r.balance_after),
        ref: r.ref,
        at: fromMillis(r.created_at),
      })),
      total: await repo.countRows(db, 'perp_insurance_moves', { symbol }),
      page,
      pageSize: PAGE,
    };
  }

  async liquidations(symbol: string | undefined, page: number): Promise<AdminLiquidationPage> {
    const { db } = this.#deps;
    const rows = await repo.pageLiquidations(db, { symbol, kind: 'liquidation' }, pageOf(page));
    return {
      items: rows.slice(0, PAGE).map((r) => {
        const size = r.qty < 0n ? -r.qty : r.qty;
        return {
          id: String(r.id),
          symbol: r.symbol,
          userId: String(r.user_id),
          username: r.username ?? '',
          side: r.qty > 0n ? ('long' as const) : ('short' as const),
          qty: fromAtoms(size),
          entryPrice: size > 0n ? fromAtoms((r.entry * 100_000_000n) / size) : '0.00000000',
          margin: fromAtoms(r.margin),
          mark: fromAtoms(r.mark),
          bankruptcyPrice: fromAtoms(r.price),
          remainder: fromAtoms(r.remainder),
          at: fromMillis(r.created_at),
        };
      }),
      total: await repo.countRows(db, 'perp_liquidations', { symbol, kind: 'liquidation' }),
      page,
      pageSize: PAGE,
    };
  }

  async adl(symbol: string | undefined, page: number): Promise<AdminAdlPage> {
    const { db } = this.#deps;
    const rows = await repo.pageLiquidations(db, { symbol, kind: 'adl' }, pageOf(page));
    return {
      items: rows.slice(0, PAGE).map((r) => ({
        id: String(r.id),
        symbol: r.symbol,
        userId: String(r.user_id),
        username: r.username ?? '',
        qty: fromAtoms(r.qty < 0n ? -r.qty : r.qty),
        price: fromAtoms(r.price),
        pnl: fromAtoms(r.pnl),
        at: fromMillis(r.created_at),
      })),
      total: await repo.countRows(db, 'perp_liquidations', { symbol, kind: 'adl' }),
      page,
      pageSize: PAGE,
    };
  }

  async funding(symbol: string | undefined, page: number): Promise<AdminFundingPage> {
    const { db } = this.#deps;
    const rows = await repo.pageFundings(db, symbol, { limit: PAGE + 1, offset: (page - 1) * PAGE });
    return {
      items: rows.slice(0, PAGE).map((r) => ({
        id: String(r.id),
        symbol: r.symbol,
        rate: fromAtoms(r.rate),
        mark: fromAtoms(r.mark),
        paid: fromAtoms(r.paid),
        received: fromAtoms(r.received),
        residual: fromAtoms(r.residual),
        positions: Number(r.positions),
        at: fromMillis(r.funding_at),
      })),
      total: await repo.countRows(db, 'perp_fundings', { symbol }),
      page,
      pageSize: PAGE,
    };
  }

  /**
   * The five invariants of perpetual.md §5 per market, read from the store and the ledger now:
   * the funding account at 0; SET = Σ short E − Σ long E (the fund's lots included); Σ long Q =
   * Σ short Q; the users' margin balances equal their positions' margins (all markets: the margin
   * balance is one per user); no user balance below 0.
   */
  async health(): Promise<AdminPerpHealth> {
    const { db, ledger, clock } = this.#deps;
    const markets = await repo.listMarkets(db);
    const balances = await ledger.userBalancesAt(db);
    let marginBalances = 0n;
    let negative = 0n;
    for (const b of balances.rows) {
      if (b.kind === 'margin' && b.asset === 'USDT') marginBalances += b.balance;
      if (b.balance < 0n) negative += 1n;
    }
    let positionMargins = 0n;
    const result: AdminPerpHealth['markets'] = [];
    const perMarket: { symbol: string; invariants: Invariant[] }[] = [];
    for (const m of markets) {
      const positions = await repo.listPositions(db, m.symbol);
      const lots = await repo.listLots(db, m.symbol);
      let longQ = 0n;
      let shortQ = 0n;
      let longE = 0n;
      let shortE = 0n;
      for (const p of [...positions, ...lots]) {
        if (p.qty > 0n) [longQ, longE] = [longQ + p.qty, longE + p.entry];
        if (p.qty < 0n) [shortQ, shortE] = [shortQ - p.qty, shortE + p.entry];
      }
      for (const p of positions) positionMargins += p.margin;
      const fund = await ledger.balance(db, { system: `perp_funding:${m.symbol}` }, m.quote, 'available');
      const settlement = await ledger.balance(
        db,
        { system: `perp_settlement:${m.symbol}` },
        m.quote,
        'available',
      );
      perMarket.push({
        symbol: m.symbol,
        invariants: [
          check('fund_zero', fund, 0n),
          check('settlement', settlement, shortE - longE),
          check('open_interest', longQ, shortQ),
        ],
      });
    }
    for (const m of perMarket) {
      result.push({
        symbol: m.symbol,
        invariants: [
          ...m.invariants,
          check('margins', marginBalances, positionMargins),
          check('no_negative', negative, 0n),
        ],
      });
    }
    return { checkedAt: clock.now(), markets: result };
  }
}

function check(name: Invariant['name'], value: bigint, expected: bigint): Invariant {
  return { name, value: fromAtoms(value), expected: fromAtoms(expected), ok: value === expected };
}
