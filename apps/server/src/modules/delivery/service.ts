import { AppError, fromAtoms, MAX_AMOUNT_ATOMS } from '@bourse/shared';
import type {
  ContractList,
  ContractRecord,
  DeliveryMarket,
  DeliveryPage,
  TrialGrant,
} from '@bourse/shared/api';
import { LIVE_CONTRACT_STATUSES } from '@bourse/shared/api';
import type { AuthContext } from '../../platform/auth-hook.ts';
import type { Bus } from '../../platform/bus.ts';
import type { Clock } from '../../platform/clock.ts';
import { type Db, isUniqueViolation } from '../../platform/db.ts';
import type { ContractResultValue } from '../../platform/schema.ts';
import { fromMillis, toMillis } from '../../platform/time.ts';
import type { AuditService } from '../audit/service.ts';
import type { LedgerService } from '../ledger/service.ts';
import { constituentsToJson, readWireConstituents } from '../markets/constituents.ts';
import type { Constituent } from '../markets/index-price.ts';
import type { Market } from '../markets/service.ts';
import type { UserAccount } from '../users/service.ts';
import * as repo from './repository.ts';
import { formatRatio, outcomeOf, RATIO_SCALE, settle } from './settlement.ts';

/** Bus subject published after a contract is settled or closed (`SettledEvent`). */
export const SETTLED_SUBJECT = 'delivery.settled';
/** Names of the module's sources of open reservations in the ledger's invariant check. */
export const RESERVATIONS = {
  real: 'delivery.contracts',
  trialContracts: 'delivery.trial_contracts',
  trialGrants: 'delivery.trial_grants',
  trialProfit: 'delivery.trial_profit',
} as const;
/** The settings key of the back office's trial turnover multiple (hundredths: `1000` is 10×). */
export const TURNOVER_MULTIPLE_SETTING = 'delivery.trial_turnover_multiple';
/** Accounts registered from one address within this time of each other are linked (the hedge rule). */
export const SAME_ADDRESS_WINDOW_MS = 24 * 60 * 60_000;

const USDT = 'USDT';
const PAGE_SIZE = 20;
const DAY_MS = 24 * 60 * 60_000;
/** Most contracts (and grants) one run of the settlement job handles; the next run goes on. */
const BATCH = 500;

/** One index tick as the delivery module needs it. */
export interface IndexTickValue {
  price: bigint;
  at: number;
  source: string;
  /** The sources' prices that made it; absent on ticks recorded before they were kept. */
  constituents?: readonly Constituent[];
}

/**
 * What delivery needs of the index (the markets module answers it): the latest tick this node
 * has seen, whether it is stale, and the recorded ticks a contract settles on.
 */
export interface IndexSource {
  latestIndex(symbol: string): (IndexTickValue & { symbol: string }) | undefined;
  isIndexStale(symbol: string, now: number): boolean;
  firstTickAtOrAfter(db: Db, symbol: string, at: number): Promise<IndexTickValue | undefined>;
  readonly indexStaleMs: number;
}

export interface DeliveryDeps {
  /** Refuses trading to unverified users when the operator's policy asks for it. */
  identityGate: { requireForTrading(userId: bigint): Promise<void> };
  /** Refuses customers who have not accepted the terms of service in force (the content module). Required. */
  termsGate: { requireAccepted(userId: bigint): Promise<void> };
  db: Db;
  clock: Clock;
  ledger: LedgerService;
  audit: AuditService;
  index: IndexSource;
  markets: { listMarkets(options: { activeOnly?: boolean }): Promise<Market[]> };
  users: { getAccount(userId: bigint): Promise<UserAccount | undefined> };
  bus?: Bus;
  /**
   * Accounts linked to a user for the hedge rule (referral edge, same identity, same registration
   * address within {@link SAME_ADDRESS_WINDOW_MS}), read in the caller's transaction.
   */
  accountLinks: { linkedAccounts(db: Db, userId: bigint): Promise<bigint[]> };
  /** The keyed hash of a user's approved identity document, undefined when not verified. */
  identities: { verifiedIdentityHash(db: Db, userId: bigint): Promise<string | undefined> };
  /** Where the back office's trial turnover multiple is kept. */
  settings: {
    get(key: string, db?: Db): Promise<string | undefined>;
    set(trx: Db, key: string, value: string): Promise<void>;
  };
  /** The trial turnover multiple until the back office sets one (config `TRIAL_TURNOVER_MULTIPLE`). */
  trialTurnoverMultiple: number;
  /** A contract whose expiry finds no index tick for this long is closed and refunded. */
  graceSeconds: number;
  onError?: (error: unknown, what: string) => void;
}

/** What the `delivery.settled` event carries (ids as strings). */
export interface SettledEvent {
  id: string;
  userId: string;
  symbol: string;
  status: 'settled' | 'closed';
  result: ContractResultValue;
}

/** A staff member acting through the back office. */
export interface StaffActor {
  staffId: bigint;
  username: string;
  /** `staff:<id>`. */
  actor: string;
  ip: string;
}

export interface PeriodSettings {
  seconds: number;
  ratioBps: bigint;
  min: bigint;
  max: bigint;
}

export interface ProductSettings {
  symbol: string;
  status: 'open' | 'closed';
  maxExposure: bigint;
  periods: PeriodSettings[];
}

export interface PlanSettings {
  name: string;
  amount: bigint;
  validityDays: number;
  profitCapPercent: number;
  trigger: 'signup' | 'campaign';
  active: boolean;
}

/** Products and trial plans to add where missing (the demo seed). */
export interface DeliveryConfig {
  products: ProductSettings[];
  plans: PlanSettings[];
}

type ContractRow = repo.ContractRow;
type GrantRow = NonNullable<Awaited<ReturnType<typeof repo.findGrant>>>;

const ms = (value: bigint | null) => (value === null ? null : fromMillis(value));

const DONE_STATUSES = ['settled', 'closed'] as const;

export function toContractRecord(row: ContractRow): ContractRecord {
  return {
    id: String(row.id),
    symbol: row.symbol,
    direction: row.direction,
    period: Number(row.period),
    amount: fromAtoms(row.amount),
    funding: row.funding,
    ratio: formatRatio(row.ratio_bps),
    status: row.status,
    result: row.result,
    open_price: row.open_price === null ? null : fromAtoms(row.open_price),
    open_at: ms(row.open_price_at),
    open_source: row.open_source,
    open_constituents: row.open_constituents === null ? null : readWireConstituents(row.open_constituents),
    expires_at: fromMillis(row.expires_at),
    close_price: row.close_price === null ? null : fromAtoms(row.close_price),
    close_at: ms(row.close_at),
    close_source: row.close_source,
    close_constituents: row.close_constituents === null ? null : readWireConstituents(row.close_constituents),
    profit: row.profit === null ? null : fromAtoms(row.profit),
    settled_at: ms(row.settled_at),
    created_at: fromMillis(row.opened_at),
  };
}

export function grantStatus(row: GrantRow, now: number): TrialGrant['status'] {
  if (row.status === 'expired' || fromMillis(row.expires_at) <= now) return 'expired';
  return row.remaining === 0n ? 'used' : 'active';
}

function toTrialGrant(row: GrantRow, now: number): TrialGrant {
  return {
    id: String(row.id),
    name: row.name,
    // why: only the welcome grant is made by the platform itself (`grantVerifiedTrials`).
    signup: row.granted_by === 'system',
    amount: fromAtoms(row.amount),
    remaining: fromAtoms(row.remaining),
    profit_cap: fromAtoms(row.profit_cap),
    profit_paid: fromAtoms(row.profit_paid),
    profit_locked: fromAtoms(row.profit_locked),
    turnover_left: fromAtoms(turnoverLeft(row)),
    expires_at: fromMillis(row.expires_at),
    status: grantStatus(row, now),
  };
}

/** Real turnover the grant still needs to release its locked profit; 0 when none is locked. */
function turnoverLeft(row: GrantRow): bigint {
  const left = row.turnover_required - row.turnover_done;
  return row.profit_locked > 0n && left > 0n ? left : 0n;
}

/**
 * Delivery (timed up/down) contracts against the house, and trial money: products and periods,
 * placement (the amount frozen, the opening index recorded), settlement by a scheduled job on the
 * first recorded index tick at or after expiry, trial grants and their expiry. Owner of
 * `delivery_products`, `delivery_periods`, `delivery_contracts`, `trial_grant_plans` and
 * `trial_grants`. Balances move only through the ledger, in the transaction of the row that
 * explains them.
 */
export class DeliveryService {
  readonly #deps: DeliveryDeps;

  constructor(deps: DeliveryDeps) {
    this.#deps = deps;
    const { ledger } = deps;
    const byUser = (rows: { user_id: bigint; total: bigint }[]) =>
      rows.map((row) => ({ userId: row.user_id, asset: USDT, amount: BigInt(row.total) }));
    ledger.addReservationSource(RESERVATIONS.real, async (db) =>
      byUser(await repo.sumOpenByUser(db, 'real')),
    );
    ledger.addReservationSource(
      RESERVATIONS.trialContracts,
      async (db) => byUser(await repo.sumOpenByUser(db, 'trial')),
      'trial_frozen',
    );
    ledger.addReservationSource(
      RESERVATIONS.trialGrants,
      async (db) => byUser(await repo.sumActiveRemainingByUser(db)),
      'trial',
    );
    ledger.addReservationSource(
      RESERVATIONS.trialProfit,
      async (db) => byUser(await repo.sumLockedProfitByUser(db)),
      'trial_profit',
    );
  }

  get graceSeconds(): number {
    return this.#deps.graceSeconds;
  }

  // --- customer ---------------------------------------------------------------------------------

  /** The trade page: open markets with their periods and latest index, balances, trial grants. */
  async getPage(userId: bigint): Promise<DeliveryPage> {
    const { db, clock, ledger, index } = this.#deps;
    const now = clock.now();
    const [markets, products, periods, usdt, trial, trialProfit, grants, multiple] = await Promise.all([
      this.#deps.markets.listMarkets({ activeOnly: true }),
      repo.listProducts(db),
      repo.listPeriods(db),
      ledger.balance(db, { userId }, USDT, 'available'),
      ledger.balance(db, { userId }, USDT, 'trial'),
      ledger.balance(db, { userId }, USDT, 'trial_profit'),
      repo.listUserGrants(db, userId),
      this.turnoverMultiple(),
    ]);
    const list: DeliveryMarket[] = [];
    for (const market of markets) {
      const product = products.find((p) => p.symbol === market.symbol);
      if (!product) continue;
      const tick = index.latestIndex(market.symbol);
      list.push({
        symbol: market.symbol,
        base: market.base,
        quote: market.quote,
        price_decimals: market.priceDecimals,
        status: product.status,
        periods: periods
          .filter((p) => p.symbol === market.symbol)
          .map((p) => ({
            seconds: Number(p.seconds),
            ratio: formatRatio(p.ratio_bps),
            min: fromAtoms(p.min_amount),
            max: fromAtoms(p.max_amount),
          })),
        index: tick
          ? { symbol: market.symbol, price: fromAtoms(tick.price), at: tick.at, source: tick.source }
          : null,
        stale: index.isIndexStale(market.symbol, now),
      });
    }
    return {
      markets: list,
      balance: { usdt: fromAtoms(usdt), trial: fromAtoms(trial), trial_profit: fromAtoms(trialProfit) },
      trial_turnover_left: fromAtoms(grants.reduce((sum, g) => sum + turnoverLeft(g), 0n)),
      trial_turnover_multiple: formatMultiple(multiple),
      trial_grants: grants.map((g) => toTrialGrant(g, now)),
      grace_seconds: this.#deps.graceSeconds,
      stale_after_ms: index.indexStaleMs,
      server_time: now,
    };
  }

  /**
   * Places a contract. Refused (changing nothing) when trading is banned, the market or product
   * is not open, the period is not offered, the amount is out of its bounds, the index is stale,
   * the market's exposure in that direction would pass its cap, or the money is not there. Real
   * money moves from available to frozen; trial money from trial to trial_frozen, from the grant
   * that expires first among those with room. The same idempotency key answers the first
   * contract again.
   */
  async place(
    auth: AuthContext,
    input: {
      symbol: string;
      direction: 'up' | 'down';
      period: number;
      amount: bigint;
      trial: boolean;
      idempotencyKey: string;
    },
  ): Promise<ContractRecord> {
    const { db, clock, index, ledger, users } = this.#deps;
    const userId = auth.userId;
    const previous = await repo.findContractByKey(db, userId, input.idempotencyKey);
    if (previous) return sameContract(previous, input);

    const account = await users.getAccount(userId);
    if (!account) throw new AppError('PLEASE_LOGIN');
    if (account.tradeBanned) throw new AppError('TRADING_BANNED');
    await this.#deps.identityGate.requireForTrading(userId);
    await this.#deps.termsGate.requireAccepted(userId);
    const markets = await this.#deps.markets.listMarkets({ activeOnly: true });
    if (!markets.some((m) => m.symbol === input.symbol)) throw new AppError('MARKET_NOT_OPEN');
    const product = await repo.findProduct(db, input.symbol);
    if (product?.status !== 'open') throw new AppError('MARKET_NOT_OPEN');
    const period = (await repo.listPeriods(db, input.symbol)).find((p) => Number(p.seconds) === input.period);
    if (!period) throw new AppError('CONTRACT_PERIOD_INVALID');
    if (input.amount <= 0n) throw new AppError('AMOUNT_INVALID');
    if (input.amount < period.min_amount) throw new AppError('AMOUNT_BELOW_MIN');
    if (input.amount > period.max_amount) throw new AppError('AMOUNT_ABOVE_MAX');
    const now = clock.now();
    const tick = index.latestIndex(input.symbol);
    if (!tick || index.isIndexStale(input.symbol, now)) throw new AppError('INDEX_STALE');

    try {
      const id = await db.transaction().execute(async (trx) => {
        const locked = await repo.lockProduct(trx, input.symbol);
        if (locked?.status !== 'open') throw new AppError('MARKET_NOT_OPEN');
        const open = await repo.sumOpenAmount(trx, input.symbol, input.direction);
        if (open + input.amount > locked.max_exposure) throw new AppError('CONTRACT_EXPOSURE_LIMIT');
        // why: a trial contract hedged by an opposite one on the same market would turn trial
        // money into a sure profit, also when the other side is held by a cooperating account:
        // either order is refused across the user's linked accounts. Checked under the product's
        // row lock, so two linked accounts placing at once are seen one after the other.
        const hedge = await this.#hedgeOf(trx, userId, input, now);
        if (hedge) throw new AppError(hedge);
        const grant = input.trial ? await this.#takeFromGrant(trx, userId, input.amount, now) : undefined;
        const contractId = await repo.insertContract(trx, {
          user_id: userId,
          symbol: input.symbol,
          direction: input.direction,
          period: BigInt(input.period),
          amount: input.amount,
          funding: input.trial ? 'trial' : 'real',
          grant_id: grant?.id ?? null,
          ratio_bps: period.ratio_bps,
          // why: a customer who sees a venue move before our index does must not open at the old
          // price: the opening price is the first tick recorded after acceptance (`#openContracts`).
          open_price: null,
          open_price_at: null,
          open_source: null,
          open_constituents: null,
          opened_at: toMillis(now),
          expires_at: toMillis(now + input.period * 1000),
          status: 'opening',
          result: null,
          close_price: null,
          close_at: null,
          close_source: null,
          close_constituents: null,
          payout: null,
          profit: null,
          settled_at: null,
          idempotency_key: input.idempotencyKey,
        });
        const user = { userId };
        const [from, to] = input.trial
          ? (['trial', 'trial_frozen'] as const)
          : (['available', 'frozen'] as const);
        try {
          await ledger.post(trx, {
            type: 'delivery.place',
            ref: `contract:${contractId}`,
            memo: `${input.symbol} ${input.direction} ${input.period}s`,
            by: `user:${userId}`,
            postings: [
              { owner: user, asset: USDT, kind: from, amount: -input.amount },
              { owner: user, asset: USDT, kind: to, amount: input.amount },
            ],
          });
        } catch (error) {
          if (error instanceof AppError && error.key === 'BALANCE_INSUFFICIENT')
            throw new AppError(input.trial ? 'TRIAL_BALANCE_INSUFFICIENT' : 'USDT_INSUFFICIENT');
          throw error;
        }
        return contractId;
      });
      return this.getContract(userId, id);
    } catch (error) {
      // why: the same key sent twice at once: the unique index lets one in; the other answers it.
      if (!isUniqueViolation(error)) throw error;
      const first = await repo.findContractByKey(db, userId, input.idempotencyKey);
      if (!first) throw error;
      return sameContract(first, input);
    }
  }

  /**
   * The hedge rule (docs/trial-money.md): the refusal for a live contract on the market in the
   * opposite direction, with its period still running, held by the user or an account linked to
   * it, when either that contract or the new one uses trial money; undefined when there is none.
   * Each case has its own message: the user's own trial contract, the user's own real contract
   * (against which trial money is placed), or a linked account's contract.
   */
  async #hedgeOf(
    trx: Db,
    userId: bigint,
    input: { symbol: string; direction: 'up' | 'down'; trial: boolean },
    now: number,
  ): Promise<'TRIAL_OPPOSITE_OPEN' | 'TRIAL_OPPOSITE_REAL_OPEN' | 'TRIAL_OPPOSITE_LINKED' | undefined> {
    const linked = await this.#deps.accountLinks.linkedAccounts(trx, userId);
    const opposing = await repo.listOpposingContracts(trx, {
      userIds: [userId, ...linked.filter((id) => id !== userId)],
      symbol: input.symbol,
      direction: input.direction === 'up' ? 'down' : 'up',
      trialOnly: !input.trial,
      now: toMillis(now),
    });
    const own = opposing.filter((c) => c.user_id === userId);
    if (own.some((c) => c.funding === 'trial')) return 'TRIAL_OPPOSITE_OPEN';
    if (own.length > 0) return 'TRIAL_OPPOSITE_REAL_OPEN';
    return opposing.length > 0 ? 'TRIAL_OPPOSITE_LINKED' : undefined;
  }

  /** `open` lists open and settling contracts, `settled` settled and closed ones; newest first. */
  async listContracts(
    userId: bigint,
    query: { status: 'open' | 'settled'; page: number },
  ): Promise<ContractList> {
    const rows = await repo.listContracts(this.#deps.db, {
      userId,
      statuses: query.status === 'open' ? LIVE_CONTRACT_STATUSES : DONE_STATUSES,
      limit: PAGE_SIZE + 1,
      offset: (query.page - 1) * PAGE_SIZE,
    });
    return {
      list: rows.slice(0, PAGE_SIZE).map(toContractRecord),
      page: query.page,
      has_more: rows.length > PAGE_SIZE,
    };
  }

  /** One of the user's contracts; someone else's answers RECORD_NOT_FOUND like a missing one. */
  async getContract(userId: bigint, id: bigint): Promise<ContractRecord> {
    const row = await repo.findContract(this.#deps.db, id);
    if (!row || row.user_id !== userId) throw new AppError('RECORD_NOT_FOUND');
    return toContractRecord(row);
  }

  // --- settlement -------------------------------------------------------------------------------

  /**
   * One run of the settlement job: settles every due contract on the first recorded index tick
   * at or after its expiry, each in its own transaction; marks `settling` those still waiting
   * for one, and closes with a refund those that waited past the grace period. Then expires the
   * trial grants whose time has come. Safe to run again at any time (a contract is settled once).
   */
  async runSettlement(): Promise<{ opened: number; settled: number; closed: number; expired: number }> {
    const { db, clock } = this.#deps;
    const now = clock.now();
    let opened = 0;
    let settled = 0;
    let closed = 0;
    for (const row of await repo.listOpeningContracts(db, BATCH)) {
      try {
        const outcome = await this.openContract(row.id, now);
        if (outcome === 'opened') opened++;
        if (outcome === 'closed') closed++;
      } catch (error) {
        this.#report(error, `open contract ${row.id}`);
      }
    }
    for (const row of await repo.listDueContracts(db, toMillis(now), BATCH)) {
      try {
        const outcome = await this.settleContract(row.id, now);
        if (outcome === 'settled') settled++;
        if (outcome === 'closed') closed++;
      } catch (error) {
        this.#report(error, `settle contract ${row.id}`);
      }
    }
    let expired = 0;
    for (const grant of await repo.listExpiredActiveGrants(db, toMillis(now), BATCH)) {
      try {
        if (await this.#expireGrant(grant.id, now)) expired++;
      } catch (error) {
        this.#report(error, `expire grant ${grant.id}`);
      }
    }
    return { opened, settled, closed, expired };
  }

  /**
   * Opens one `opening` contract on the first index tick recorded after its acceptance: its
   * price, time, source and constituents become the contract's opening, and it expires one period
   * after that tick. Without such a tick past the grace period it is closed with a refund.
   * Answers what it did; `none` when there is no tick yet or someone opened it first.
   */
  async openContract(id: bigint, now: number): Promise<'opened' | 'closed' | 'none'> {
    const { db, index } = this.#deps;
    const row = await repo.findContract(db, id);
    if (row?.status !== 'opening') return 'none';
    const acceptedAt = fromMillis(row.opened_at);
    // why: strictly after acceptance; a tick of the same millisecond may have been taken before it.
    const tick = await index.firstTickAtOrAfter(db, row.symbol, acceptedAt + 1);
    if (!tick) {
      if (now < acceptedAt + this.#deps.graceSeconds * 1000) return 'none';
      return (await this.#finish(row, 'refund', undefined, now)) ? 'closed' : 'none';
    }
    const written = await repo.openContract(db, id, {
      open_price: tick.price,
      open_price_at: toMillis(tick.at),
      open_source: tick.source,
      open_constituents: constituentsToJson(tick.constituents ?? []),
      expires_at: toMillis(tick.at + Number(row.period) * 1000),
    });
    return written ? 'opened' : 'none';
  }

  /**
   * Settles one due contract at `now`: on its closing tick (settled), or, without one, marks it
   * settling, or past the grace period closes it with a refund. Answers what it did; `none` when
   * it was not due or someone settled it first.
   */
  async settleContract(id: bigint, now: number): Promise<'settled' | 'closed' | 'settling' | 'none'> {
    const { db, index } = this.#deps;
    const row = await repo.findContract(db, id);
    if (!row || (row.status !== 'open' && row.status !== 'settling')) return 'none';
    const expiresAt = fromMillis(row.expires_at);
    if (expiresAt > now) return 'none';
    const tick = await index.firstTickAtOrAfter(db, row.symbol, expiresAt);
    if (!tick) {
      if (now < expiresAt + this.#deps.graceSeconds * 1000) {
        await repo.markSettling(db, id);
        return 'settling';
      }
      return (await this.#finish(row, 'refund', undefined, now)) ? 'closed' : 'none';
    }
    if (row.open_price === null)
      throw new Error(`contract ${row.id} is ${row.status} without an opening price`);
    const result = outcomeOf(row.direction, row.open_price, tick.price);
    return (await this.#finish(row, result, tick, now)) ? 'settled' : 'none';
  }

  async #finish(
    row: ContractRow,
    result: ContractResultValue,
    tick: IndexTickValue | undefined,
    now: number,
  ): Promise<boolean> {
    const { db, ledger, bus } = this.#deps;
    const status = result === 'refund' ? 'closed' : 'settled';
    const multiple = row.funding === 'trial' && result === 'win' ? await this.turnoverMultiple() : 0n;
    // why: only a real contract that was won or lost carried risk; a draw or a refund counts nothing.
    const isTurnover = row.funding === 'real' && (result === 'win' || result === 'loss');
    const done = await db.transaction().execute(async (trx) => {
      let grant: GrantRow | undefined;
      if (row.funding === 'trial' && row.grant_id !== null) grant = await repo.lockGrant(trx, row.grant_id);
      const principalToUser =
        grant !== undefined && grant.status === 'active' && fromMillis(grant.expires_at) > now;
      // why: profit won on a grant that has ended could never be released, so none is credited.
      const capLeft = grant && principalToUser ? grant.profit_cap - grant.profit_paid : 0n;
      const outcome = settle(
        { userId: row.user_id, amount: row.amount, ratioBps: row.ratio_bps, funding: row.funding },
        result,
        { trialPrincipalToUser: principalToUser, trialCapLeft: capLeft },
      );
      const written = await repo.settleContract(trx, row.id, {
        status,
        result,
        close_price: tick?.price ?? null,
        close_at: tick ? toMillis(tick.at) : null,
        close_source: tick?.source ?? null,
        close_constituents: tick ? constituentsToJson(tick.constituents ?? []) : null,
        payout: outcome.payout,
        profit: outcome.profit,
        settled_at: toMillis(now),
      });
      if (!written) return false;
      // why: grants are locked before any balance, as on every path (placement, expiry), so
      // concurrent settlements of one user queue on the grants instead of deadlocking.
      const turnoverGrants = isTurnover ? await this.#lockGrantsNeedingTurnover(trx, row.user_id, now) : [];
      await ledger.post(trx, {
        type: 'delivery.settle',
        ref: `contract:${row.id}`,
        memo: `${row.symbol} ${row.direction} ${result}`,
        by: 'system',
        postings: outcome.postings,
      });
      if (grant) {
        const back = principalToUser && result !== 'loss' ? row.amount : 0n;
        if (back !== 0n) await repo.changeGrant(trx, grant.id, { remainingDelta: back });
        if (outcome.trialProfitPaid > 0n)
          await repo.lockTrialProfit(
            trx,
            grant.id,
            outcome.trialProfitPaid,
            requiredTurnover(outcome.trialProfitPaid, multiple),
          );
      }
      if (turnoverGrants.length > 0) await this.#countTurnover(trx, turnoverGrants, row.amount);
      return true;
    });
    if (done && bus) {
      const event: SettledEvent = {
        id: String(row.id),
        userId: String(row.user_id),
        symbol: row.symbol,
        status,
        result,
      };
      await bus.publish(SETTLED_SUBJECT, event).catch((error) => this.#report(error, SETTLED_SUBJECT));
    }
    return done;
  }

  /**
   * Locks (in id order) the user's live grants still short of their turnover, and answers them the
   * soonest to expire first: the order turnover is counted in.
   */
  async #lockGrantsNeedingTurnover(trx: Db, userId: bigint, now: number): Promise<GrantRow[]> {
    const ids = (await repo.listGrantsNeedingTurnover(trx, userId, toMillis(now))).sort((a, b) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    const locked: GrantRow[] = [];
    for (const id of ids) {
      const grant = await repo.lockGrant(trx, id);
      if (grant?.status === 'active' && fromMillis(grant.expires_at) > now) locked.push(grant);
    }
    return locked.sort((a, b) =>
      a.expires_at !== b.expires_at ? (a.expires_at < b.expires_at ? -1 : 1) : a.id < b.id ? -1 : 1,
    );
  }

  /**
   * Counts one real contract's amount as turnover: toward each locked grant in turn, up to what it
   * still needs (turnover beyond every grant's need is not kept for later profit). A grant whose
   * turnover is complete has its locked profit released to the user's available USDT, once.
   */
  async #countTurnover(trx: Db, grants: GrantRow[], amount: bigint): Promise<void> {
    let left = amount;
    for (const grant of grants) {
      if (left === 0n) return;
      const need = grant.turnover_required - grant.turnover_done;
      if (need <= 0n) continue;
      const counted = left < need ? left : need;
      await repo.addTurnover(trx, grant.id, counted);
      left -= counted;
      if (counted === need && grant.profit_locked > 0n) await this.#releaseProfit(trx, grant);
    }
  }

  /** Releases a grant's locked trial profit to the user's available USDT (a `trial.release` entry). */
  async #releaseProfit(trx: Db, grant: GrantRow): Promise<void> {
    const amount = grant.profit_locked;
    if (!(await repo.releaseTrialProfit(trx, grant.id, amount))) return;
    const user = { userId: grant.user_id };
    await this.#deps.ledger.post(trx, {
      type: 'trial.release',
      // why: the cumulative amount released names each release of a grant apart.
      ref: `grant:${grant.id}:${grant.profit_released + amount}`,
      memo: grant.name,
      by: 'system',
      postings: [
        { owner: user, asset: USDT, kind: 'trial_profit', amount: -amount },
        { owner: user, asset: USDT, kind: 'available', amount },
      ],
    });
  }

  /**
   * The turnover multiple in force, in hundredths (`1000` is 10×): the back office's setting (or
   * the configured default), raised to the least that keeps trial money's expected value at or
   * below zero for the payout ratios configured now (see {@link minTurnoverMultiple}).
   */
  async turnoverMultiple(db: Db = this.#deps.db): Promise<bigint> {
    const set = await this.#deps.settings.get(TURNOVER_MULTIPLE_SETTING, db);
    const chosen = set ? BigInt(set) : BigInt(Math.round(this.#deps.trialTurnoverMultiple * 100));
    const least = minTurnoverMultiple(await repo.maxRatioBps(db));
    return least === undefined || chosen >= least ? chosen : least;
  }

  // --- trial money ------------------------------------------------------------------------------

  /**
   * Gives an account whose identity was just approved the grants of every active sign-up plan
   * (the "welcome" trial money), inside the caller's transaction (the approval's). A plan is
   * granted once per identity: skipped when this account or another with the same identity
   * (`identityHash`, the document's keyed hash) has it, also when both are approved at once.
   */
  async grantVerifiedTrials(trx: Db, userId: bigint, identityHash: string): Promise<void> {
    for (const plan of await repo.listActiveSignupPlans(trx)) {
      if (await repo.hasGrantOfPlan(trx, userId, plan.id)) continue;
      await this.grantPlan(trx, {
        userId,
        plan,
        key: `signup:${plan.id}:${userId}`,
        by: 'system',
        identityHash,
      });
    }
  }

  /**
   * Grants a plan's trial money to a user inside `trx`: the grant row and its `trial.grant` entry
   * from the `trial` account. `key` is unique: the same key twice is a unique violation. Answers
   * undefined, granting nothing, when the identity already has a grant of the plan.
   */
  async grantPlan(
    trx: Db,
    input: {
      userId: bigint;
      plan: NonNullable<Awaited<ReturnType<typeof repo.findPlan>>>;
      key: string;
      by: string;
      /** The keyed hash of the user's verified identity document: one grant of a plan per identity. */
      identityHash: string;
    },
  ): Promise<bigint | undefined> {
    const { clock, ledger } = this.#deps;
    const { plan, userId } = input;
    const now = clock.now();
    const id = await repo.insertGrant(trx, {
      user_id: userId,
      plan_id: plan.id,
      name: plan.name,
      amount: plan.amount,
      remaining: plan.amount,
      profit_cap: (plan.amount * plan.profit_cap_percent) / 100n,
      expires_at: toMillis(now + Number(plan.validity_days) * DAY_MS),
      status: 'active',
      grant_key: input.key,
      granted_by: input.by,
      created_at: toMillis(now),
      identity_hash: input.identityHash,
    });
    if (id === undefined) return undefined;
    await ledger.post(trx, {
      type: 'trial.grant',
      ref: `grant:${id}`,
      memo: plan.name,
      by: input.by,
      postings: [
        { owner: { system: 'trial' }, asset: USDT, kind: 'available', amount: -plan.amount },
        { owner: { userId }, asset: USDT, kind: 'trial', amount: plan.amount },
      ],
    });
    return id;
  }

  /**
   * Takes `amount` from the grant that expires first among the user's usable ones (alive, with
   * enough left, below its profit cap), under the grant's row lock.
   */
  async #takeFromGrant(trx: Db, userId: bigint, amount: bigint, now: number): Promise<GrantRow> {
    const grants = await repo.listUserGrants(trx, userId);
    const alive = grants.filter((g) => g.status === 'active' && fromMillis(g.expires_at) > now);
    if (alive.length === 0) {
      throw new AppError(grants.length > 0 ? 'TRIAL_EXPIRED' : 'TRIAL_BALANCE_INSUFFICIENT');
    }
    const enough = alive.filter((g) => g.remaining >= amount);
    if (enough.length === 0) throw new AppError('TRIAL_BALANCE_INSUFFICIENT');
    const candidates = enough
      .filter((g) => g.profit_paid < g.profit_cap)
      .sort((a, b) => (a.expires_at < b.expires_at ? -1 : a.expires_at > b.expires_at ? 1 : 0));
    const chosen = candidates[0];
    if (!chosen) throw new AppError('TRIAL_PROFIT_CAP_REACHED');
    const locked = await repo.lockGrant(trx, chosen.id);
    if (locked?.status !== 'active' || fromMillis(locked.expires_at) <= now)
      throw new AppError('TRIAL_EXPIRED');
    if (locked.remaining < amount) throw new AppError('TRIAL_BALANCE_INSUFFICIENT');
    if (locked.profit_paid >= locked.profit_cap) throw new AppError('TRIAL_PROFIT_CAP_REACHED');
    await repo.changeGrant(trx, locked.id, { remainingDelta: -amount });
    return locked;
  }

  /** Ends a grant whose time has come: what is left of it returns to the `trial` account. */
  async #expireGrant(id: bigint, now: number): Promise<boolean> {
    const { db, ledger } = this.#deps;
    return db.transaction().execute(async (trx) => {
      const grant = await repo.lockGrant(trx, id);
      if (grant?.status !== 'active' || fromMillis(grant.expires_at) > now) return false;
      // why: both platform accounts before the user's (the ledger's lock order), for two entries.
      await ledger.balancesForUpdate(trx, [
        { owner: { system: 'house' }, asset: USDT, kind: 'available' },
        { owner: { system: 'trial' }, asset: USDT, kind: 'available' },
      ]);
      await repo.changeGrant(trx, id, { expire: true });
      // why: trial profit the turnover has not released ends with its grant, back to the house.
      if (grant.profit_locked > 0n && (await repo.expireTrialProfit(trx, id, grant.profit_locked))) {
        await ledger.post(trx, {
          type: 'trial.profit_expire',
          ref: `grant:${id}`,
          memo: grant.name,
          by: 'system',
          postings: [
            {
              owner: { userId: grant.user_id },
              asset: USDT,
              kind: 'trial_profit',
              amount: -grant.profit_locked,
            },
            { owner: { system: 'house' }, asset: USDT, kind: 'available', amount: grant.profit_locked },
          ],
        });
      }
      if (grant.remaining > 0n) {
        await ledger.post(trx, {
          type: 'trial.expire',
          ref: `grant:${id}`,
          memo: grant.name,
          by: 'system',
          postings: [
            { owner: { userId: grant.user_id }, asset: USDT, kind: 'trial', amount: -grant.remaining },
            { owner: { system: 'trial' }, asset: USDT, kind: 'available', amount: grant.remaining },
          ],
        });
      }
      return true;
    });
  }

  // --- configuration ----------------------------------------------------------------------------

  /** Adds the products and plans that are missing (the demo seed); existing ones stay as they are. */
  async addMissingConfig(trx: Db, config: DeliveryConfig): Promise<void> {
    const now = toMillis(this.#deps.clock.now());
    for (const product of config.products) {
      const added = await repo.insertMissingProduct(trx, {
        symbol: product.symbol,
        status: product.status,
        max_exposure: product.maxExposure,
        updated_at: now,
      });
      if (added) await repo.replacePeriods(trx, product.symbol, product.periods.map(toPeriodValues));
    }
    const plans = await repo.listPlans(trx);
    for (const plan of config.plans) {
      if (plans.some((p) => p.name === plan.name)) continue;
      await repo.insertPlan(trx, { ...toPlanValues(plan), now });
    }
  }

  #report(error: unknown, what: string): void {
    if (this.#deps.onError) this.#deps.onError(error, what);
    else throw error;
  }
}

/** `"10"`, `"12.5"`, `"13.34"` from a multiple in hundredths. */
export function formatMultiple(hundredths: bigint): string {
  const fraction = String(hundredths % 100n)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return fraction ? `${hundredths / 100n}.${fraction}` : String(hundredths / 100n);
}

/**
 * Real turnover that releases `profit` at `multiple` (hundredths), rounded up to the atom: never
 * in the user's favour.
 */
export function requiredTurnover(profit: bigint, multiple: bigint): bigint {
  const required = (profit * multiple + 99n) / 100n;
  // why: the 64-bit column holds it; no account places more than any amount may be, so a
  // requirement above that is as good as never met, and the settlement that records it must not fail.
  return required < MAX_AMOUNT_ATOMS ? required : MAX_AMOUNT_ATOMS;
}

/**
 * The least turnover multiple (hundredths, rounded up) at which releasing trial profit has an
 * expected value of at most zero, for a highest payout ratio of `maxRatioBps`: a real contract
 * loses (1 − r) / 2 per unit on average, so the multiple m must have m × (1 − r) / 2 ≥ 1, i.e.
 * m ≥ 2 / (1 − r). Undefined when r ≥ 1 (no multiple is enough); 1× when no period is offered.
 */
export function minTurnoverMultiple(maxRatioBps: bigint): bigint | undefined {
  if (maxRatioBps <= 0n) return 100n;
  if (maxRatioBps >= RATIO_SCALE) return undefined;
  const least = (2n * RATIO_SCALE * 100n + (RATIO_SCALE - maxRatioBps) - 1n) / (RATIO_SCALE - maxRatioBps);
  return least < 100n ? 100n : least;
}

export function toPeriodValues(p: PeriodSettings) {
  return {
    seconds: BigInt(p.seconds),
    ratio_bps: p.ratioBps,
    min_amount: p.min,
    max_amount: p.max,
  };
}

export function toPlanValues(plan: PlanSettings): repo.PlanValues {
  return {
    name: plan.name,
    amount: plan.amount,
    validity_days: BigInt(plan.validityDays),
    profit_cap_percent: BigInt(plan.profitCapPercent),
    trigger: plan.trigger,
    active: plan.active ? 1n : 0n,
  };
}

function sameContract(
  row: ContractRow,
  input: { symbol: string; direction: string; period: number; amount: bigint; trial: boolean },
): ContractRecord {
  if (
    row.symbol !== input.symbol ||
    row.direction !== input.direction ||
    Number(row.period) !== input.period ||
    row.amount !== input.amount ||
    (row.funding === 'trial') !== input.trial
  )
    throw new AppError('IDEMPOTENCY_KEY_REUSED');
  return toContractRecord(row);
}
