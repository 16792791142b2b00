import { AppError, fromAtoms, type ResultKey } from '@bourse/shared';
import type {
  AdminContractList,
  AdminContractRecord,
  AdminDeliveryProduct,
  AdminTrialGrant,
  DeliveryExposure,
  HousePnl,
  TrialPlan,
  TrialSettings,
} from '@bourse/shared/api';
import { isUniqueViolation } from '../../platform/db.ts';
import type { ContractStatusValue } from '../../platform/schema.ts';
import type { StaffActor } from '../../platform/staff-actor.ts';
import { fromMillis, toMillis } from '../../platform/time.ts';
import * as repo from './repository.ts';
import {
  type DeliveryDeps,
  type DeliveryService,
  formatMultiple,
  grantStatus,
  minTurnoverMultiple,
  type PlanSettings,
  type ProductSettings,
  TURNOVER_MULTIPLE_SETTING,
  toContractRecord,
  toPeriodValues,
  toPlanValues,
} from './service.ts';
import { formatRatio, RATIO_SCALE } from './settlement.ts';

const PAGE_SIZE = 20;
const ms = (value: bigint | null) => (value === null ? null : fromMillis(value));

/** What `saveProduct` can answer besides the codes every route can. */
export const SAVE_PRODUCT_ERRORS = [
  'MARKET_NOT_OPEN',
  'CONTRACT_PERIOD_INVALID',
  'CONFIG_LIMITS_INVALID',
  'CONFIG_AMOUNT_INVALID',
] as const satisfies readonly ResultKey[];

/** What `savePlan` can answer besides the codes every route can. */
export const SAVE_PLAN_ERRORS = [
  'RECORD_NOT_FOUND',
  'CONFIG_AMOUNT_INVALID',
] as const satisfies readonly ResultKey[];

/** What `grantTrial` can answer besides the codes every route can. */
export const GRANT_TRIAL_ERRORS = [
  'USER_NOT_FOUND',
  'RECORD_NOT_FOUND',
  'IDEMPOTENCY_KEY_REUSED',
  'REALNAME_REQUIRED',
  'TRIAL_ALREADY_CLAIMED',
  'ILLEGAL_OPERATION',
  'BALANCE_INSUFFICIENT',
] as const satisfies readonly ResultKey[];

/** What `setTrialSettings` can answer besides the codes every route can. */
export const SET_TRIAL_SETTINGS_ERRORS = [
  'TRIAL_TURNOVER_MULTIPLE_TOO_LOW',
  'PARAM_ERROR',
] as const satisfies readonly ResultKey[];

/** What `getContract` can answer besides the codes every route can. */
export const GET_CONTRACT_ERRORS = ['RECORD_NOT_FOUND'] as const satisfies readonly ResultKey[];

/**
 * The back office's side of delivery contracts: products, periods and ratios, trial plans and
 * grants (each change one transaction with its audit record), open exposure, the house's profit
 * and loss, and every contract read only. Nothing here writes a contract.
 */
export class DeliveryBackOffice {
  readonly #deps: Pick<
    DeliveryDeps,
    'db' | 'clock' | 'audit' | 'markets' | 'users' | 'identities' | 'settings' | 'trialTurnoverMultiple'
  >;
  readonly #delivery: DeliveryService;

  constructor(
    deps: Pick<
      DeliveryDeps,
      'db' | 'clock' | 'audit' | 'markets' | 'users' | 'identities' | 'settings' | 'trialTurnoverMultiple'
    >,
    delivery: DeliveryService,
  ) {
    this.#deps = deps;
    this.#delivery = delivery;
  }

  /** Every listed market with its product (or an empty, closed one when none is configured). */
  async listProducts(): Promise<AdminDeliveryProduct[]> {
    const { db } = this.#deps;
    const [markets, products, periods] = await Promise.all([
      this.#deps.markets.listMarkets({}),
      repo.listProducts(db),
      repo.listPeriods(db),
    ]);
    return markets.map((market) => {
      const product = products.find((p) => p.symbol === market.symbol);
      return {
        symbol: market.symbol,
        configured: product !== undefined,
        status: product?.status ?? 'closed',
        maxExposure: fromAtoms(product?.max_exposure ?? 0n),
        periods: periods
          .filter((p) => p.symbol === market.symbol)
          .map((p) => ({
            seconds: Number(p.seconds),
            ratio: formatRatio(p.ratio_bps),
            min: fromAtoms(p.min_amount),
            max: fromAtoms(p.max_amount),
          })),
        updatedAt: product ? fromMillis(product.updated_at) : null,
      };
    });
  }

  /**
   * Creates or replaces a market's product and periods, audited. Open contracts keep the ratio
   * they were placed with; only later placements see the new one.
   */
  async saveProduct(staff: StaffActor, product: ProductSettings): Promise<void> {
    const { db, clock, audit } = this.#deps;
    if (!(await this.#deps.markets.listMarkets({})).some((m) => m.symbol === product.symbol))
      throw new AppError('MARKET_NOT_OPEN');
    if (product.periods.length === 0) throw new AppError('PARAM_MISSING');
    for (const p of product.periods) {
      if (p.min <= 0n || p.min > p.max) throw new AppError('CONFIG_LIMITS_INVALID');
      if (p.ratioBps <= 0n) throw new AppError('PARAM_ERROR');
    }
    if (new Set(product.periods.map((p) => p.seconds)).size !== product.periods.length)
      throw new AppError('CONTRACT_PERIOD_INVALID');
    await db.transaction().execute(async (trx) => {
      const before = await repo.findProduct(trx, product.symbol);
      const beforePeriods = await repo.listPeriods(trx, product.symbol);
      const values = {
        symbol: product.symbol,
        status: product.status,
        max_exposure: product.maxExposure,
        updated_at: toMillis(clock.now()),
      };
      await repo.upsertProduct(trx, values);
      await repo.replacePeriods(trx, product.symbol, product.periods.map(toPeriodValues));
      await audit.record(trx, {
        actor: staff.actor,
        action: 'delivery.product.save',
        target: `delivery:${product.symbol}`,
        before: before ? { ...before, periods: beforePeriods } : null,
        after: { ...values, periods: product.periods.map(toPeriodValues) },
        ip: staff.ip,
      });
    });
  }

  /**
   * The trial rules' turnover multiple: the one set (or configured), the least the payout ratios
   * configured now allow, and the one in force (the greater).
   */
  async trialSettings(): Promise<TrialSettings> {
    const { db, settings } = this.#deps;
    const set = await settings.get(TURNOVER_MULTIPLE_SETTING);
    const maxRatio = await repo.maxRatioBps(db);
    const least = minTurnoverMultiple(maxRatio);
    return {
      turnoverMultiple: formatMultiple(set ? BigInt(set) : this.#configuredMultiple()),
      minTurnoverMultiple: least === undefined ? null : formatMultiple(least),
      maxRatio: formatRatio(maxRatio),
      effectiveTurnoverMultiple: formatMultiple(await this.#delivery.turnoverMultiple()),
    };
  }

  /**
   * Sets the turnover multiple, audited. Refused (TRIAL_TURNOVER_MULTIPLE_TOO_LOW, with the
   * arithmetic) below 2 / (1 − r) for the highest payout ratio r configured, where a contract's
   * house edge per unit is (1 − r) / 2: below it, trial profit could be released at a positive
   * expected value.
   */
  async setTrialSettings(staff: StaffActor, input: { turnoverMultiple: string }): Promise<TrialSettings> {
    const { db, audit, settings } = this.#deps;
    const multiple = parseMultiple(input.turnoverMultiple);
    if (multiple === undefined) throw new AppError('PARAM_ERROR');
    const maxRatio = await repo.maxRatioBps(db);
    const least = minTurnoverMultiple(maxRatio);
    if (least === undefined || multiple < least) {
      throw new AppError('TRIAL_TURNOVER_MULTIPLE_TOO_LOW', {
        multiple: formatMultiple(multiple),
        ratio: formatRatio(maxRatio),
        edge: formatEdge(maxRatio),
        min: least === undefined ? '∞' : formatMultiple(least),
      });
    }
    const before = await this.trialSettings();
    await db.transaction().execute(async (trx) => {
      await settings.set(trx, TURNOVER_MULTIPLE_SETTING, String(multiple));
      await audit.record(trx, {
        actor: staff.actor,
        action: 'delivery.trial.settings',
        target: 'settings:delivery.trial',
        before: { turnoverMultiple: before.turnoverMultiple },
        after: { turnoverMultiple: formatMultiple(multiple) },
        ip: staff.ip,
      });
    });
    return this.trialSettings();
  }

  #configuredMultiple(): bigint {
    return BigInt(Math.round(this.#deps.trialTurnoverMultiple * 100));
  }

  async listPlans(): Promise<TrialPlan[]> {
    return (await repo.listPlans(this.#deps.db)).map(toTrialPlan);
  }

  /** Creates a plan (no id) or updates one, audited; grants already made keep their figures. */
  async savePlan(staff: StaffActor, input: { id?: bigint; plan: PlanSettings }): Promise<bigint> {
    const { db, clock, audit } = this.#deps;
    return db.transaction().execute(async (trx) => {
      const now = toMillis(clock.now());
      const values = toPlanValues(input.plan);
      let id = input.id;
      let before = null;
      if (id === undefined) {
        id = await repo.insertPlan(trx, { ...values, now });
      } else {
        before = (await repo.findPlan(trx, id)) ?? null;
        if (!before || !(await repo.updatePlan(trx, id, { ...values, now })))
          throw new AppError('RECORD_NOT_FOUND');
      }
      await audit.record(trx, {
        actor: staff.actor,
        action: 'delivery.plan.save',
        target: `trial_plan:${id}`,
        before,
        after: values,
        ip: staff.ip,
      });
      return id;
    });
  }

  /**
   * Grants a plan's trial money to a user (a campaign), audited. The same `key` again answers
   * the first grant and grants nothing more. Only to a verified identity (REALNAME_REQUIRED), once
   * per identity and plan across accounts (TRIAL_ALREADY_CLAIMED).
   */
  async grantTrial(
    staff: StaffActor,
    input: { userId: bigint; planId: bigint; key?: string },
  ): Promise<AdminTrialGrant> {
    const { db, audit, users } = this.#deps;
    const account = await users.getAccount(input.userId);
    if (!account) throw new AppError('USER_NOT_FOUND');
    const key = input.key ? `staff:${input.key}` : `staff:${staff.staffId}:${crypto.randomUUID()}`;
    const previous = await repo.findGrantByKey(db, key);
    if (previous) return this.#sameGrant(previous, input);
    try {
      const id = await db.transaction().execute(async (trx) => {
        const plan = await repo.findPlan(trx, input.planId);
        if (plan?.active !== 1n) throw new AppError('RECORD_NOT_FOUND');
        const identityHash = await this.#deps.identities.verifiedIdentityHash(trx, input.userId);
        if (!identityHash) throw new AppError('REALNAME_REQUIRED');
        const grantId = await this.#delivery.grantPlan(trx, {
          userId: input.userId,
          plan,
          key,
          by: staff.actor,
          identityHash,
        });
        if (grantId === undefined) throw new AppError('TRIAL_ALREADY_CLAIMED');
        await audit.record(trx, {
          actor: staff.actor,
          action: 'delivery.trial.grant',
          target: `user:${input.userId}`,
          after: { grantId, planId: plan.id, amount: plan.amount, validityDays: plan.validity_days },
          ip: staff.ip,
        });
        return grantId;
      });
      return this.#grantRecord(id);
    } catch (error) {
      // why: the same submission twice at once: the first grant's key or identity lets it in, and
      // the second (whichever index refused it) answers that grant, as a later repeat does.
      const isRepeat =
        isUniqueViolation(error) || (error instanceof AppError && error.key === 'TRIAL_ALREADY_CLAIMED');
      if (!isRepeat) throw error;
      const first = await repo.findGrantByKey(db, key);
      if (!first) throw error;
      return this.#sameGrant(first, input);
    }
  }

  async listGrants(query: { userId?: bigint; page: number }): Promise<{
    list: AdminTrialGrant[];
    page: number;
    hasMore: boolean;
  }> {
    const rows = await repo.listGrants(this.#deps.db, {
      userId: query.userId,
      limit: PAGE_SIZE + 1,
      offset: (query.page - 1) * PAGE_SIZE,
    });
    const names = await this.#usernames(rows.map((r) => r.user_id));
    const now = this.#deps.clock.now();
    return {
      list: rows.slice(0, PAGE_SIZE).map((row) => toAdminGrant(row, names, now)),
      page: query.page,
      hasMore: rows.length > PAGE_SIZE,
    };
  }

  /** Open exposure of every market and direction with open contracts or a product. */
  async exposure(): Promise<DeliveryExposure[]> {
    const { db } = this.#deps;
    const [rows, products] = await Promise.all([repo.listExposure(db), repo.listProducts(db)]);
    const lines: DeliveryExposure[] = [];
    const symbols = [...new Set([...products.map((p) => p.symbol), ...rows.map((r) => r.symbol)])].sort();
    for (const symbol of symbols) {
      for (const direction of ['up', 'down'] as const) {
        const row = rows.find((r) => r.symbol === symbol && r.direction === direction);
        const product = products.find((p) => p.symbol === symbol);
        lines.push({
          symbol,
          direction,
          openCount: Number(row?.count ?? 0n),
          open: fromAtoms(BigInt(row?.open ?? 0n)),
          potentialPayout: fromAtoms(BigInt(row?.payout ?? 0n)),
          maxExposure: fromAtoms(product?.max_exposure ?? 0n),
        });
      }
    }
    return lines;
  }

  /**
   * The house's result over contracts settled in [from, to]: the negated profit of real-money
   * contracts, and the real profit paid on trial wins (a trial loss earns the house nothing).
   */
  async pnl(range: { from?: number; to?: number }): Promise<HousePnl> {
    const rows = await repo.summarizeSettled(this.#deps.db, {
      from: range.from === undefined ? undefined : toMillis(range.from),
      to: range.to === undefined ? undefined : toMillis(range.to),
    });
    const empty = () => ({ contracts: 0, wins: 0, losses: 0, draws: 0, refunds: 0, staked: 0n, pnl: 0n });
    const total = empty();
    const bySymbol = new Map<string, ReturnType<typeof empty>>();
    for (const row of rows) {
      const line = bySymbol.get(row.symbol) ?? empty();
      bySymbol.set(row.symbol, line);
      const count = Number(row.count);
      const profit = BigInt(row.profit ?? 0n);
      const pnl = row.funding === 'real' || row.result === 'win' ? -profit : 0n;
      const staked = row.funding === 'real' ? BigInt(row.amount ?? 0n) : 0n;
      for (const target of [line, total]) {
        target.contracts += count;
        if (row.result === 'win') target.wins += count;
        if (row.result === 'loss') target.losses += count;
        if (row.result === 'draw') target.draws += count;
        if (row.result === 'refund') target.refunds += count;
        target.staked += staked;
        target.pnl += pnl;
      }
    }
    const wire = (line: ReturnType<typeof empty>) => ({
      ...line,
      staked: fromAtoms(line.staked),
      pnl: fromAtoms(line.pnl),
    });
    return {
      from: range.from ?? null,
      to: range.to ?? null,
      total: wire(total),
      bySymbol: [...bySymbol].map(([symbol, line]) => ({ symbol, ...wire(line) })),
    };
  }

  async listContracts(query: {
    status?: ContractStatusValue;
    symbol?: string;
    userId?: bigint;
    funding?: 'real' | 'trial';
    page: number;
  }): Promise<AdminContractList> {
    const rows = await repo.listContracts(this.#deps.db, {
      userId: query.userId,
      statuses: query.status ? [query.status] : undefined,
      symbol: query.symbol,
      funding: query.funding,
      limit: PAGE_SIZE + 1,
      offset: (query.page - 1) * PAGE_SIZE,
    });
    const page = rows.slice(0, PAGE_SIZE);
    const names = await this.#usernames(page.map((r) => r.user_id));
    return {
      list: page.map((row) => toAdminContract(row, names)),
      page: query.page,
      hasMore: rows.length > PAGE_SIZE,
    };
  }

  async getContract(id: bigint): Promise<AdminContractRecord> {
    const row = await repo.findContract(this.#deps.db, id);
    if (!row) throw new AppError('RECORD_NOT_FOUND');
    return toAdminContract(row, await this.#usernames([row.user_id]));
  }

  async #grantRecord(id: bigint): Promise<AdminTrialGrant> {
    const row = await repo.findGrant(this.#deps.db, id);
    if (!row) throw new AppError('RECORD_NOT_FOUND');
    return toAdminGrant(row, await this.#usernames([row.user_id]), this.#deps.clock.now());
  }

  async #sameGrant(
    row: NonNullable<Awaited<ReturnType<typeof repo.findGrant>>>,
    input: { userId: bigint; planId: bigint },
  ): Promise<AdminTrialGrant> {
    if (row.user_id !== input.userId || row.plan_id !== input.planId)
      throw new AppError('IDEMPOTENCY_KEY_REUSED');
    return this.#grantRecord(row.id);
  }

  async #usernames(userIds: bigint[]): Promise<Map<bigint, string>> {
    const names = new Map<bigint, string>();
    for (const id of new Set(userIds)) names.set(id, (await this.#deps.users.getAccount(id))?.username ?? '');
    return names;
  }
}

function toTrialPlan(row: Awaited<ReturnType<typeof repo.listPlans>>[number]): TrialPlan {
  return {
    id: String(row.id),
    name: row.name,
    amount: fromAtoms(row.amount),
    validityDays: Number(row.validity_days),
    profitCapPercent: Number(row.profit_cap_percent),
    trigger: row.trigger,
    active: row.active === 1n,
    createdAt: fromMillis(row.created_at),
    updatedAt: fromMillis(row.updated_at),
  };
}

function toAdminGrant(
  row: NonNullable<Awaited<ReturnType<typeof repo.findGrant>>>,
  names: Map<bigint, string>,
  now: number,
): AdminTrialGrant {
  return {
    id: String(row.id),
    userId: String(row.user_id),
    username: names.get(row.user_id) ?? '',
    planId: String(row.plan_id),
    name: row.name,
    amount: fromAtoms(row.amount),
    remaining: fromAtoms(row.remaining),
    profitCap: fromAtoms(row.profit_cap),
    profitPaid: fromAtoms(row.profit_paid),
    profitLocked: fromAtoms(row.profit_locked),
    profitReleased: fromAtoms(row.profit_released),
    profitExpired: fromAtoms(row.profit_expired),
    turnoverRequired: fromAtoms(row.turnover_required),
    turnoverDone: fromAtoms(row.turnover_done),
    expiresAt: fromMillis(row.expires_at),
    status: grantStatus(row, now),
    grantedBy: row.granted_by,
    createdAt: fromMillis(row.created_at),
  };
}

function toAdminContract(row: repo.ContractRow, names: Map<bigint, string>): AdminContractRecord {
  const record = toContractRecord(row);
  return {
    id: record.id,
    userId: String(row.user_id),
    username: names.get(row.user_id) ?? '',
    symbol: record.symbol,
    direction: record.direction,
    period: record.period,
    amount: record.amount,
    funding: record.funding,
    grantId: row.grant_id === null ? null : String(row.grant_id),
    ratio: record.ratio,
    status: record.status,
    result: record.result,
    openPrice: record.open_price,
    openPriceAt: record.open_at,
    openSource: record.open_source,
    openConstituents: record.open_constituents,
    openAt: record.created_at,
    expiresAt: record.expires_at,
    closePrice: record.close_price,
    closeAt: record.close_at,
    closeSource: record.close_source,
    closeConstituents: record.close_constituents,
    payout: row.payout === null ? null : fromAtoms(row.payout),
    profit: record.profit,
    settledAt: ms(row.settled_at),
    createdAt: record.created_at,
  };
}

/** A multiple in hundredths from `"10"` or `"12.5"` (at most two decimals); undefined otherwise. */
function parseMultiple(text: string): bigint | undefined {
  const match = /^(\d{1,4})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return undefined;
  return BigInt(match[1] ?? '0') * 100n + BigInt((match[2] ?? '').padEnd(2, '0'));
}

/** A contract's house edge per unit at ratio `bps`, (1 − r) / 2, as a decimal: `"0.1"`, `"0.025"`. */
function formatEdge(bps: bigint): string {
  const hundredThousandths = ((RATIO_SCALE - bps) * 100_000n) / (2n * RATIO_SCALE);
  const fraction = String(hundredThousandths % 100_000n)
    .padStart(5, '0')
    .replace(/0+$/, '');
  return `${hundredThousandths / 100_000n}${fraction ? `.${fraction}` : ''}`;
}
