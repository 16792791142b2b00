import { AppError, fromAtoms, type ResultKey } from '@bourse/shared';
import type { AdminSpotMarket, AdminSpotOrderList, DepthSnapshot, PublicTrade } from '@bourse/shared/api';
import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db.ts';
import type { SpotOrderStatusValue } from '../../platform/schema.ts';
import type { StaffActor } from '../../platform/staff-actor.ts';
import { fromMillis, toMillis } from '../../platform/time.ts';
import type { AuditService } from '../audit/service.ts';
import { hasExactUnits, ratioOfBps, stepOf } from './market.ts';
import * as repo from './repository.ts';
import type { SpotService } from './service.ts';

const PAGE_SIZE = 20;
/** Atoms in one basis point (0.0001). */
const ATOMS_PER_BPS = 10_000n;

/** A market's settings as staff set them (atoms; ratios as atoms of 1, e.g. 0.001 = 100,000). */
export interface SpotMarketInput {
  tickSize: bigint;
  lotSize: bigint;
  minNotional: bigint;
  makerFee: bigint;
  takerFee: bigint;
  band: bigint;
}

export interface SpotBackOfficeDeps {
  db: Db;
  clock: Clock;
  audit: AuditService;
  /** The markets configuration: a spot market trades a listed market's base and quote. */
  markets: {
    listMarkets(options: Record<string, never>): Promise<{ symbol: string; base: string; quote: string }[]>;
  };
}

/** What a market's terms can be refused for, on creation as on an edit. */
const marketErrors = ['MARKET_NOT_OPEN', 'CONFIG_AMOUNT_INVALID'] as const satisfies readonly ResultKey[];

/** What `createMarket` can answer besides the codes every route can. */
export const CREATE_MARKET_ERRORS = [
  ...marketErrors,
  'MARKET_EXISTS',
] as const satisfies readonly ResultKey[];

/** What `editMarket` can answer besides the codes every route can. */
export const EDIT_MARKET_ERRORS = [
  ...marketErrors,
  'MARKET_HAS_OPEN_ORDERS',
  'ILLEGAL_OPERATION',
  'BALANCE_INSUFFICIENT',
  'MARKET_UNAVAILABLE',
] as const satisfies readonly ResultKey[];

/** What `halt` can answer besides the codes every route can. */
export const HALT_ERRORS = [
  'MARKET_NOT_OPEN',
  'ILLEGAL_OPERATION',
  'BALANCE_INSUFFICIENT',
  'MARKET_UNAVAILABLE',
] as const satisfies readonly ResultKey[];

/** What `resume` can answer besides the codes every route can. */
export const RESUME_ERRORS = [
  'MARKET_NOT_OPEN',
  'ILLEGAL_OPERATION',
  'BALANCE_INSUFFICIENT',
  'MARKET_UNAVAILABLE',
] as const satisfies readonly ResultKey[];

/** What `book` can answer besides the codes every route can. */
export const BOOK_ERRORS = ['MARKET_NOT_OPEN', 'MARKET_UNAVAILABLE'] as const satisfies readonly ResultKey[];

/** What `trades` can answer besides the codes every route can. */
export const TRADES_ERRORS = ['MARKET_NOT_OPEN'] as const satisfies readonly ResultKey[];

/**
 * The back office's side of spot trading: markets (create, edit, halt, resume; each change one
 * transaction with its audit record, before and after in decimals), a market's book and trades,
 * and a user's orders. Changes to a market that has a book go through its sequencer, so they
 * land between two batches.
 */
/** A market's new settings, as the owner's configuration receives them. */
interface EditArgs {
  staff: StaffActor;
  values: ReturnType<typeof valuesOf> & { updated_at: bigint };
}

interface StatusArgs {
  staff: StaffActor;
  status: 'open' | 'halted';
  reason: string;
}

export class SpotBackOffice {
  readonly #deps: SpotBackOfficeDeps;
  readonly #spot: SpotService;

  constructor(deps: SpotBackOfficeDeps, spot: SpotService) {
    this.#deps = deps;
    this.#spot = spot;
    this.#defineConfigurations();
  }

  async listMarkets(): Promise<AdminSpotMarket[]> {
    const { db } = this.#deps;
    const [rows, open, leases] = await Promise.all([
      repo.listMarkets(db),
      repo.countOpenOrders(db),
      this.#spot.owners(),
    ]);
    const owners = new Map(leases.map((lease) => [lease.symbol, lease]));
    return rows.map((row) => {
      const lease = owners.get(row.symbol);
      return {
        ...settingsOf(row),
        openOrders: open.get(row.symbol) ?? 0,
        updatedAt: fromMillis(row.updated_at),
        owner: lease?.live ? lease.holder : null,
        epoch: String(row.epoch),
      };
    });
  }

  /** Adds a spot market for a listed market; refused when it exists or its steps are not exact. */
  async createMarket(
    staff: StaffActor,
    input: SpotMarketInput & { symbol: string; status: 'open' | 'halted' },
  ): Promise<AdminSpotMarket> {
    const { db, clock, audit, markets } = this.#deps;
    const values = valuesOf(input);
    if (!hasExactUnits(values)) throw new AppError('PARAM_ERROR');
    const listed = (await markets.listMarkets({})).find((m) => m.symbol === input.symbol);
    if (!listed) throw new AppError('MARKET_NOT_OPEN');
    const row = {
      symbol: input.symbol,
      base: listed.base,
      quote: listed.quote,
      ...values,
      status: input.status,
      updated_at: toMillis(clock.now()),
    };
    await db.transaction().execute(async (trx) => {
      if (!(await repo.insertMissingMarket(trx, row))) throw new AppError('MARKET_EXISTS');
      await audit.record(trx, {
        actor: staff.actor,
        action: 'spot.market.create',
        target: `spot:${input.symbol}`,
        before: null,
        after: settingsOf({ ...row, seq: 0n, epoch: 0n }),
        ip: staff.ip,
      });
    });
    return this.#market(input.symbol);
  }

  /**
   * Replaces a market's settings. Fees, band and minimum notional apply to the orders placed
   * after it; tick and lot size are refused while orders are open, because those orders rest on
   * the current steps (halting revokes them).
   */
  async editMarket(staff: StaffActor, symbol: string, input: SpotMarketInput): Promise<AdminSpotMarket> {
    const { clock } = this.#deps;
    const values = { ...valuesOf(input), updated_at: toMillis(clock.now()) };
    if (!hasExactUnits(values)) throw new AppError('PARAM_ERROR');
    await this.#spot.configure(symbol, 'staff.edit', { staff, values });
    return this.#market(symbol);
  }

  /** The back office's changes of a market, defined on every node: its owner runs them. */
  #defineConfigurations(): void {
    const { audit } = this.#deps;
    this.#spot.defineConfiguration('staff.edit', (symbol, { staff, values }: EditArgs) => ({
      revokeAll: false,
      write: async (trx, openOrders) => {
        const before = await repo.findMarket(trx, symbol);
        if (!before) throw new AppError('MARKET_NOT_OPEN');
        const newSteps = before.tick_size !== values.tick_size || before.lot_size !== values.lot_size;
        if (newSteps && openOrders > 0) throw new AppError('MARKET_HAS_OPEN_ORDERS');
        await repo.updateMarketSettings(trx, symbol, values);
        const after = { ...before, ...values };
        await audit.record(trx, {
          actor: staff.actor,
          action: 'spot.market.edit',
          target: `spot:${symbol}`,
          before: settingsOf(before),
          after: settingsOf(after),
          ip: staff.ip,
        });
        return after;
      },
    }));
    this.#spot.defineConfiguration('staff.status', (symbol, { staff, status, reason }: StatusArgs) => ({
      revokeAll: status === 'halted',
      write: async (trx) => {
        const before = await repo.findMarket(trx, symbol);
        if (!before) throw new AppError('MARKET_NOT_OPEN');
        await repo.setMarketStatus(trx, symbol, status, toMillis(this.#deps.clock.now()));
        const after = await repo.findMarket(trx, symbol);
        if (!after) throw new Error(`spot market ${symbol} vanished`);
        await audit.record(trx, {
          actor: staff.actor,
          action: status === 'halted' ? 'spot.market.halt' : 'spot.market.resume',
          target: `spot:${symbol}`,
          reason,
          before: settingsOf(before),
          after: settingsOf(after),
          ip: staff.ip,
        });
        return after;
      },
    }));
  }

  /** Halts a market: it refuses new orders and every open order is revoked (reason `halt`). */
  async halt(staff: StaffActor, symbol: string, reason: string): Promise<{ revoked: number }> {
    const { revoked } = await this.#setStatus(staff, symbol, 'halted', reason);
    return { revoked };
  }

  async resume(staff: StaffActor, symbol: string, reason: string): Promise<AdminSpotMarket> {
    await this.#setStatus(staff, symbol, 'open', reason);
    return this.#market(symbol);
  }

  book(symbol: string, levels: number): Promise<DepthSnapshot> {
    return this.#spot.depth(symbol, levels);
  }

  trades(symbol: string, limit: number): Promise<PublicTrade[]> {
    return this.#spot.recentTrades(symbol, limit);
  }

  /** One user's orders, newest first, with what each still holds. */
  async userOrders(query: {
    userId: bigint;
    symbol?: string;
    status?: SpotOrderStatusValue;
    page: number;
  }): Promise<AdminSpotOrderList> {
    const { db } = this.#deps;
    const [rows, markets] = await Promise.all([
      repo.listUserOrders(db, {
        userId: query.userId,
        symbol: query.symbol,
        statuses: query.status ? [query.status] : undefined,
        limit: PAGE_SIZE + 1,
        offset: (query.page - 1) * PAGE_SIZE,
      }),
      repo.listMarkets(db),
    ]);
    const bySymbol = new Map(markets.map((m) => [m.symbol, m]));
    return {
      list: rows.slice(0, PAGE_SIZE).map((row) => {
        const market = bySymbol.get(row.symbol);
        return {
          id: String(row.id),
          userId: String(row.user_id),
          symbol: row.symbol,
          side: row.side,
          type: row.type,
          tif: row.tif,
          price: row.price === null ? null : fromAtoms(row.price),
          qty: row.qty === null ? null : fromAtoms(row.qty),
          quoteAmount: row.quote_amount === null ? null : fromAtoms(row.quote_amount),
          triggerPrice: row.trigger_price === null ? null : fromAtoms(row.trigger_price),
          triggerCondition: row.trigger_condition,
          triggeredAt: row.triggered_at === null ? null : fromMillis(row.triggered_at),
          filledQty: fromAtoms(row.filled_qty),
          turnover: fromAtoms(row.filled_quote),
          fee: fromAtoms(row.fee),
          feeCoin: (row.side === 'buy' ? market?.base : market?.quote) ?? '',
          held: fromAtoms(row.held),
          holdCoin: row.hold_asset,
          status: row.status,
          revokeReason: row.revoke_reason,
          createdAt: fromMillis(row.created_at),
          updatedAt: fromMillis(row.updated_at),
        };
      }),
      page: query.page,
      hasMore: rows.length > PAGE_SIZE,
    };
  }

  #setStatus(staff: StaffActor, symbol: string, status: 'open' | 'halted', reason: string) {
    const args: StatusArgs = { staff, status, reason };
    return this.#spot.configure(symbol, 'staff.status', args);
  }

  async #market(symbol: string): Promise<AdminSpotMarket> {
    const found = (await this.listMarkets()).find((m) => m.symbol === symbol);
    if (!found) throw new AppError('MARKET_NOT_OPEN');
    return found;
  }
}

function valuesOf(input: SpotMarketInput) {
  return {
    tick_size: input.tickSize,
    lot_size: input.lotSize,
    min_notional: input.minNotional,
    maker_fee_bps: input.makerFee / ATOMS_PER_BPS,
    taker_fee_bps: input.takerFee / ATOMS_PER_BPS,
    band_bps: input.band / ATOMS_PER_BPS,
    // why: a market shows as many decimals as its steps have.
    price_decimals: BigInt(decimalsOf(input.tickSize)),
    qty_decimals: BigInt(decimalsOf(input.lotSize)),
  };
}

function decimalsOf(atoms: bigint): number {
  return stepOf(atoms).split('.')[1]?.length ?? 0;
}

/** A market's settings in decimals, as the back office shows them and the audit log keeps them. */
function settingsOf(row: repo.SpotMarketRow) {
  return {
    symbol: row.symbol,
    base: row.base,
    quote: row.quote,
    tickSize: stepOf(row.tick_size),
    lotSize: stepOf(row.lot_size),
    minNotional: fromAtoms(row.min_notional),
    makerFee: ratioOfBps(row.maker_fee_bps),
    takerFee: ratioOfBps(row.taker_fee_bps),
    band: ratioOfBps(row.band_bps),
    priceDecimals: Number(row.price_decimals),
    qtyDecimals: Number(row.qty_decimals),
    status: row.status,
  };
}
