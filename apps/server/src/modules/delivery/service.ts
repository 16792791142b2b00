import { AppError, fromAtoms, type ResultKey } from '@bourse/shared';
import type { ContractList, ContractRecord, DeliveryMarket, DeliveryPage } from '@bourse/shared/api';
import { LIVE_CONTRACT_STATUSES } from '@bourse/shared/api';
import type { AuthContext } from '../../platform/auth-hook.ts';
import { type Db, isUniqueViolation } from '../../platform/db.ts';
import { type HistoryPage, historyAnswer, historyWindow } from '../../platform/history-page.ts';
import type { ContractResultValue } from '../../platform/schema.ts';
import { fromMillis, toMillis } from '../../platform/time.ts';
import { constituentsToJson } from '../markets/constituents.ts';
import {
  BATCH,
  type DeliveryConfig,
  type DeliveryDeps,
  type IndexTickValue,
  RESERVATIONS,
  SETTLED_SUBJECT,
  type SettledEvent,
  USDT,
} from './deps.ts';
import {
  type ContractRow,
  DONE_STATUSES,
  formatMultiple,
  type GrantRow,
  requiredTurnover,
  sameContract,
  toContractRecord,
  toPeriodValues,
  toPlanValues,
  toTrialGrant,
  turnoverLeft,
} from './records.ts';
import * as repo from './repository.ts';
import { formatRatio, outcomeOf, settle } from './settlement.ts';
import * as trials from './trials.ts';

export {
  type DeliveryConfig,
  type DeliveryDeps,
  type IndexTickValue,
  type PlanSettings,
  type ProductSettings,
  SAME_ADDRESS_WINDOW_MS,
  TURNOVER_MULTIPLE_SETTING,
} from './deps.ts';
export {
  formatMultiple,
  grantStatus,
  minTurnoverMultiple,
  requiredTurnover,
  toContractRecord,
  toPeriodValues,
  toPlanValues,
} from './records.ts';

/** What `place` can answer besides the codes every route can. */
export const PLACE_ERRORS = [
  'PLEASE_LOGIN',
  'TRADING_BANNED',
  'REALNAME_REQUIRED',
  'TERMS_NOT_ACCEPTED',
  'MARKET_NOT_OPEN',
  'CONTRACT_PERIOD_INVALID',
  'AMOUNT_INVALID',
  'AMOUNT_BELOW_MIN',
  'AMOUNT_ABOVE_MAX',
  'INDEX_STALE',
  'CONTRACT_EXPOSURE_LIMIT',
  'TRIAL_OPPOSITE_OPEN',
  'TRIAL_OPPOSITE_REAL_OPEN',
  'TRIAL_OPPOSITE_LINKED',
  'USDT_INSUFFICIENT',
  'TRIAL_BALANCE_INSUFFICIENT',
  'TRIAL_EXPIRED',
  'TRIAL_PROFIT_CAP_REACHED',
  'IDEMPOTENCY_KEY_REUSED',
  'ILLEGAL_OPERATION',
  'BALANCE_INSUFFICIENT',
  'RECORD_NOT_FOUND',
] as const satisfies readonly ResultKey[];

/** What `getContract` can answer besides the codes every route can. */
export const GET_CONTRACT_ERRORS = ['RECORD_NOT_FOUND'] as const satisfies readonly ResultKey[];

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
    ledger.addReservationSource(RESERVATIONS.real, async (db, users) =>
      byUser(await repo.sumOpenByUser(db, 'real', users)),
    );
    ledger.addReservationSource(
      RESERVATIONS.trialContracts,
      async (db, users) => byUser(await repo.sumOpenByUser(db, 'trial', users)),
      'trial_frozen',
    );
    ledger.addReservationSource(
      RESERVATIONS.trialGrants,
      async (db, users) => byUser(await repo.sumActiveRemainingByUser(db, users)),
      'trial',
    );
    ledger.addReservationSource(
      RESERVATIONS.trialProfit,
      async (db, users) => byUser(await repo.sumLockedProfitByUser(db, users)),
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
        const grant = input.trial ? await trials.takeFromGrant(trx, userId, input.amount, now) : undefined;
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
    query: { status: 'open' | 'settled' } & HistoryPage,
  ): Promise<ContractList> {
    const rows = await repo.listContracts(this.#deps.db, {
      userId,
      statuses: query.status === 'open' ? LIVE_CONTRACT_STATUSES : DONE_STATUSES,
      ...historyWindow(query),
    });
    return historyAnswer(rows, query, toContractRecord);
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
        if (await trials.expireGrant(this.#deps, grant.id, now)) expired++;
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
      await repo.addToPnlDay(trx, {
        settledAt: toMillis(now),
        symbol: row.symbol,
        funding: row.funding,
        result,
        amount: row.amount,
        profit: outcome.profit,
      });
      // why: grants are locked before any balance, as on every path (placement, expiry), so
      // concurrent settlements of one user queue on the grants instead of deadlocking.
      const turnoverGrants = isTurnover ? await trials.lockGrantsNeedingTurnover(trx, row.user_id, now) : [];
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
      if (turnoverGrants.length > 0) await trials.countTurnover(this.#deps, trx, turnoverGrants, row.amount);
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
   * The turnover multiple in force, in hundredths (`1000` is 10×): the back office's setting (or
   * the configured default), raised to the least that keeps trial money's expected value at or
   * below zero for the payout ratios configured now (see {@link minTurnoverMultiple}).
   */
  turnoverMultiple(db: Db = this.#deps.db): Promise<bigint> {
    return trials.turnoverMultiple(this.#deps, db);
  }

  // --- trial money ------------------------------------------------------------------------------

  /** The welcome trial money of a just-verified identity, in the approval's transaction (see trials.ts). */
  grantVerifiedTrials(trx: Db, userId: bigint, identityHash: string): Promise<void> {
    return trials.grantVerifiedTrials(this.#deps, trx, userId, identityHash);
  }

  /** Grants a plan's trial money to a user inside `trx` (see trials.ts); undefined when the identity has it. */
  grantPlan(trx: Db, input: Parameters<typeof trials.grantPlan>[2]): Promise<bigint | undefined> {
    return trials.grantPlan(this.#deps, trx, input);
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
