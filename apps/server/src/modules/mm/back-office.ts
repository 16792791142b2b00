import { fromAtoms, type ResultKey } from '@bourse/shared';
import type { AdminMakerOverview, AdminMakerSettings } from '@bourse/shared/api';
import type { Db } from '../../platform/db.ts';
import type { StaffActor } from '../../platform/staff-actor.ts';
import type { AuditService } from '../audit/service.ts';
import type { MakerSettings, MarketMakerService } from './service.ts';

/** Atoms in one basis point (0.0001). */
const ATOMS_PER_BPS = 10_000n;

/** A maker setting as staff type it: atoms, ratios as atoms of 1 (0.002 = 200,000). */
export interface MakerSettingsInput {
  symbol: string;
  enabled: boolean;
  levels: number;
  spread: bigint;
  step: bigint;
  levelQty: bigint;
  inventoryTarget: bigint;
  maxInventoryDeviation: bigint;
}

/** What `saveMarket` can answer besides the codes every route can. */
export const SAVE_MARKET_ERRORS = [
  'CONFIG_AMOUNT_INVALID',
  'MARKET_NOT_OPEN',
] as const satisfies readonly ResultKey[];

/**
 * The back office's side of the market maker and the demo traders: reads their settings and saves
 * a change with its audit record in one transaction (the maker's service leaves auditing to its
 * caller).
 */
export class MakerBackOffice {
  readonly #db: Db;
  readonly #audit: AuditService;
  readonly #maker: MarketMakerService;

  constructor(deps: { db: Db; audit: AuditService; maker: MarketMakerService }) {
    this.#db = deps.db;
    this.#audit = deps.audit;
    this.#maker = deps.maker;
  }

  async overview(): Promise<AdminMakerOverview> {
    const { markets, demoTraders } = await this.#maker.getSettings();
    return { markets: markets.map(toAdmin), demoTraders };
  }

  async saveMarket(staff: StaffActor, input: MakerSettingsInput): Promise<AdminMakerOverview> {
    const maker = this.#maker;
    await this.#db.transaction().execute(async (trx) => {
      const { before, after } = await maker.saveMarket(trx, {
        symbol: input.symbol,
        enabled: input.enabled,
        levels: input.levels,
        spreadBps: input.spread / ATOMS_PER_BPS,
        stepBps: input.step / ATOMS_PER_BPS,
        levelQty: input.levelQty,
        inventoryTarget: input.inventoryTarget,
        maxInventoryDeviation: input.maxInventoryDeviation,
      });
      await this.#audit.record(trx, {
        actor: staff.actor,
        action: 'spot.maker.save',
        target: `spot:${input.symbol}`,
        before: before ? toAdmin(before) : null,
        after: toAdmin(after),
        ip: staff.ip,
      });
    });
    return this.overview();
  }

  async setDemoTraders(staff: StaffActor, on: boolean): Promise<AdminMakerOverview> {
    const maker = this.#maker;
    await this.#db.transaction().execute(async (trx) => {
      const { before, after } = await maker.setDemoTraders(trx, on);
      await this.#audit.record(trx, {
        actor: staff.actor,
        action: 'spot.demo_traders.set',
        target: 'spot:demo-traders',
        before,
        after,
        ip: staff.ip,
      });
    });
    return this.overview();
  }
}

/** Settings in decimals, as the back office shows them and the audit log keeps them. */
function toAdmin(s: MakerSettings): AdminMakerSettings {
  return {
    symbol: s.symbol,
    enabled: s.enabled,
    levels: s.levels,
    spread: ratioOf(s.spreadBps),
    step: ratioOf(s.stepBps),
    levelQty: fromAtoms(s.levelQty),
    inventoryTarget: fromAtoms(s.inventoryTarget),
    maxInventoryDeviation: fromAtoms(s.maxInventoryDeviation),
  };
}

/** Basis points as a short decimal ratio: 20 → `"0.002"`. */
function ratioOf(bps: bigint): string {
  const text = fromAtoms(bps * ATOMS_PER_BPS);
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}
