import { AppError, fromAtoms } from '@bourse/shared';
import type { AuthContext } from '../../platform/auth-hook.ts';
import type { Clock } from '../../platform/clock.ts';
import { type Db, isUniqueViolation } from '../../platform/db.ts';
import type { LpMode, LpRecordStatus, LpRewardStatus } from '../../platform/schema.ts';
import { fromMillis, toMillis } from '../../platform/time.ts';
import type { AuditService } from '../audit/service.ts';
import type { LedgerService, Owner, Posting } from '../ledger/service.ts';
import type { SettingsService } from '../settings/service.ts';
import type { UserAccount } from '../users/service.ts';
import { AgentService } from './agents.ts';
import { allocateProRata, costOf, demandOf } from './allocation.ts';
import { DEMO_PROJECTS } from './demo.ts';
import * as repo from './repository.ts';
import { applyCaps, budgetOf, DEFAULT_REFERRAL, monthOf, type ReferralConfig, rewardOf } from './rewards.ts';
import { toRewardView } from './views.ts';

const DAY_MS = 86_400_000;
/** A pending reward not claimed by verification within this many days is void (products §2 rule 6). */
export const PENDING_DAYS = 30;
const REFERRAL_SETTING = 'launchpad.referral';
const DEMO_SEEDED = 'launchpad.demo_seeded';
const REALNAME_VERIFIED = 2n;
/** Most records (or rewards) one run of the job handles per step; the next run goes on. */
const BATCH = 500;
const PAGE = 20;

/** Names of the module's sources of open reservations in the ledger's invariant check. */
export const RESERVATIONS = { commitments: 'launchpad.commitments', locked: 'launchpad.locked' } as const;

export interface LaunchpadDeps {
  db: Db;
  clock: Clock;
  ledger: LedgerService;
  audit: AuditService;
  settings: SettingsService;
  users: {
    getAccount(userId: bigint, db?: Db): Promise<UserAccount | undefined>;
    listAncestors(db: Db, userId: bigint): Promise<{ userId: bigint; generation: number }[]>;
  };
  /** Refuses unverified users when the operator's policy asks for it (as for trading). */
  identityGate: { requireForTrading(userId: bigint): Promise<void> };
  /** Refuses customers who have not accepted the terms of service in force (the content module). Required. */
  termsGate: { requireAccepted(userId: bigint): Promise<void> };
  /** Adds the project's coin to the platform's coins (the markets module). */
  coins: { addCoin(trx: Db, coin: { symbol: string; name: string; displayDecimals: number }): Promise<void> };
}

/** A staff member acting through the back office. */
export interface StaffRef {
  staffId: bigint;
  actor: string;
  ip: string;
}

/** The state a customer sees: from the stored status, the switch and the clock. */
export type ProjectState = 'not_started' | 'open' | 'allocating' | 'closed' | 'cancelled' | 'forbidden';

export interface ProjectTerms {
  name: string;
  coin: string;
  coinName: string;
  coinDecimals: number;
  quote: string;
  startAt: number;
  endAt: number;
  totalIssue: bigint;
  price: bigint;
  lockDays: number;
  perMin: bigint;
  perMax: bigint;
  individualLimit: bigint;
  maxPurchases: number;
  softCap: bigint;
  mode: LpMode;
  referralBudgetBp: bigint;
  descriptions: Record<string, string>;
}

export interface ProjectView {
  id: string;
  name: string;
  coin: string;
  quote: string;
  mode: LpMode;
  state: ProjectState;
  status: string;
  start_at: number;
  end_at: number;
  release_at: number;
  lock_days: number;
  total_issue: string;
  price: string;
  per_min: string;
  per_max: string;
  individual_limit: string;
  max_purchases: number;
  soft_cap: string;
  /** Token atoms subscribed (pro-rata while open: demand, may pass the supply) or allocated. */
  subscribed: string;
  /** subscribed ÷ total issue, in percent with two decimals (Σ records ÷ supply; nothing else sets it). */
  progress: string;
  raised: string;
  participants: number;
  description: string;
  server_time: number;
}

export interface RecordView {
  id: string;
  project_id: string;
  name: string;
  coin: string;
  quote: string;
  price: string;
  requested: string;
  committed: string;
  quantity: string;
  paid: string;
  refunded: string;
  lock_days: number;
  created_at: number;
  release_at: number;
  released_at: number | null;
  /** frozen (committed, or locked until release), thawed (released), refunded. */
  status: 'frozen' | 'thawed' | 'refunded';
  stage: LpRecordStatus;
}

type ProjectRow = NonNullable<Awaited<ReturnType<typeof repo.findProject>>>;

const system = (name: `${'lp_issuer' | 'lp_inventory' | 'lp_escrow'}`, id: bigint): Owner => ({
  system: `${name}:${id}`,
});
const REWARDS: Owner = { system: 'rewards' };

/** Leaves out zero postings; an entry of fewer than two lines is not posted. */
function lines(...postings: (Posting | false)[]): Posting[] {
  return postings.filter((p): p is Posting => p !== false && p.amount !== 0n);
}

function percent(part: bigint, whole: bigint): string {
  if (whole === 0n) return '0.00';
  const hundredths = (part * 10_000n) / whole;
  return `${hundredths / 100n}.${String(hundredths % 100n).padStart(2, '0')}`;
}

export function projectState(row: ProjectRow, now: number): ProjectState {
  if (row.status === 'cancelled') return 'cancelled';
  if (row.status === 'distributed') return 'closed';
  if (row.status === 'draft') return 'not_started';
  if (row.disabled === 1n) return 'forbidden';
  if (now < fromMillis(row.start_at)) return 'not_started';
  if (now < fromMillis(row.end_at)) return 'open';
  return 'allocating';
}

function recordStatus(status: LpRecordStatus): RecordView['status'] {
  if (status === 'released') return 'thawed';
  if (status === 'refunded') return 'refunded';
  return 'frozen';
}

function parseDescriptions(text: string): Record<string, string> {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' ? (value as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/**
 * The launchpad (products §1) and its referral rewards (§2): projects, subscriptions (first come
 * first served, or pro-rata commitments frozen until the end), distribution with refunds, the lock
 * and its release, rewards over three generations from the project's disclosed budget, and agents.
 * Owner of `lp_projects`, `lp_records`, `lp_rewards` and `agents`. Balances move only through the
 * ledger, in the transaction of the row that explains them. A project's progress and sold amount
 * are sums of its records: nothing stores or sets them.
 */
export class LaunchpadService {
  readonly #deps: LaunchpadDeps;

  /** Agents: applications, staff decisions and the agent centre. */
  readonly agents: AgentService;

  constructor(deps: LaunchpadDeps) {
    this.#deps = deps;
    this.agents = new AgentService({ ...deps, rewards: this });
    deps.ledger.addReservationSource(RESERVATIONS.commitments, (db) => repo.sumByUser(db, 'committed'));
    deps.ledger.addReservationSource(RESERVATIONS.locked, (db) => repo.sumByUser(db, 'locked'), 'locked');
  }

  // --- customer -------------------------------------------------------------------------------------

  /** Projects customers can see (not drafts), newest first, with their state and progress. */
  async listProjects(locale: string): Promise<ProjectView[]> {
    const { db } = this.#deps;
    const rows = await repo.listProjects(db, ['scheduled', 'distributed', 'cancelled']);
    const totals = await repo.projectTotals(
      db,
      rows.map((r) => r.id),
    );
    return rows.map((row) => this.#view(row, totals.get(row.id), locale));
  }

  /**
   * One project with the user's own subscriptions and, for `quantity`, the cost and the expected
   * allocation at today's demand (the worked example the detail page explains).
   */
  async getProject(id: bigint, userId: bigint | undefined, locale: string, quantity?: bigint) {
    const { db, clock } = this.#deps;
    const row = await repo.findProject(db, id);
    if (!row || row.status === 'draft') throw new AppError('LP_CLOSED');
    const totals = (await repo.projectTotals(db, [id])).get(id);
    const mine = userId === undefined ? undefined : await repo.userTotals(db, id, userId);
    const q = quantity ?? row.per_min;
    const cost = costOf(q, row.price);
    const demand = totals?.requested ?? 0n;
    let expected = q;
    if (row.mode === 'pro_rata') {
      // why: the same water-filling the distribution runs, with this purchase added to today's demand.
      const all = demand + q;
      if (all > row.total_issue) expected = (q * row.total_issue) / all;
      if (expected > row.individual_limit) expected = row.individual_limit;
    }
    const expectedPaid = costOf(expected, row.price);
    return {
      project: this.#view(row, totals, locale),
      mine: {
        records: Number(mine?.records ?? 0n),
        requested: fromAtoms(mine?.requested ?? 0n),
        quantity: fromAtoms(mine?.quantity ?? 0n),
      },
      quote: {
        quantity: fromAtoms(q),
        cost: fromAtoms(cost),
        expected_quantity: fromAtoms(expected),
        expected_paid: fromAtoms(expectedPaid),
        expected_refund: fromAtoms(cost - expectedPaid),
        release_at: fromMillis(row.release_at),
        oversubscribed: row.mode === 'pro_rata' && demand + q > row.total_issue,
      },
      server_time: clock.now(),
    };
  }

  /**
   * Subscribes `quantity` token atoms. First come, first served: paid now, tokens locked until
   * release. Pro-rata: the cost is frozen until the end of the window. Refused, changing nothing,
   * with the spec's messages; the same idempotency key answers the first record again.
   */
  async subscribe(
    auth: AuthContext,
    input: { projectId: bigint; quantity: bigint; idempotencyKey: string },
  ): Promise<RecordView> {
    const { db, clock } = this.#deps;
    const userId = auth.userId;
    const previous = await repo.findRecordByKey(db, userId, input.idempotencyKey);
    if (previous) return this.#recordById(previous.id);
    const account = await this.#deps.users.getAccount(userId);
    if (!account) throw new AppError('PLEASE_LOGIN');
    if (account.tradeBanned || account.status === 'frozen') throw new AppError('LP_FORBIDDEN');
    await this.#deps.identityGate.requireForTrading(userId);
    await this.#deps.termsGate.requireAccepted(userId);
    if (input.quantity <= 0n) throw new AppError('QTY_INVALID');
    const now = clock.now();
    let recordId: bigint;
    try {
      recordId = await db.transaction().execute(async (trx) => {
        const project = await repo.lockProject(trx, input.projectId);
        if (!project || project.status === 'draft') throw new AppError('LP_CLOSED');
        const state = projectState(project, now);
        if (state === 'forbidden') throw new AppError('LP_FORBIDDEN');
        if (state === 'not_started') throw new AppError('LP_NOT_STARTED');
        if (state !== 'open') throw new AppError('LP_CLOSED');
        if (input.quantity < project.per_min) throw new AppError('LP_BELOW_MIN');
        if (input.quantity > project.per_max) throw new AppError('LP_ABOVE_MAX');
        const mine = await repo.userTotals(trx, project.id, userId);
        if (mine.records >= project.max_purchases) throw new AppError('LP_REPEAT');
        if (project.mode === 'fcfs') {
          if (mine.quantity + input.quantity > project.individual_limit)
            throw new AppError('LP_INDIVIDUAL_LIMIT');
          const sold = (await repo.projectTotals(trx, [project.id])).get(project.id)?.quantity ?? 0n;
          const remaining = project.total_issue - sold;
          if (input.quantity > remaining)
            throw new AppError('LP_TOTAL_ISSUE', { remaining: fromAtoms(remaining > 0n ? remaining : 0n) });
        } else if (input.quantity > project.total_issue) {
          throw new AppError('LP_TOTAL_ISSUE', { remaining: fromAtoms(project.total_issue) });
        }
        return this.#place(trx, project, userId, input.quantity, input.idempotencyKey, now);
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        const again = await repo.findRecordByKey(db, userId, input.idempotencyKey);
        if (again) return this.#recordById(again.id);
      }
      throw error;
    }
    return this.#recordById(recordId);
  }

  /** Writes a subscription the checks allowed: the record and its entry (paid and locked, or frozen). */
  async #place(
    trx: Db,
    project: ProjectRow,
    userId: bigint,
    quantity: bigint,
    idempotencyKey: string,
    now: number,
  ): Promise<bigint> {
    const cost = costOf(quantity, project.price);
    const fcfs = project.mode === 'fcfs';
    const id = await repo.insertRecord(trx, {
      project_id: project.id,
      user_id: userId,
      requested: quantity,
      committed: cost,
      quantity: fcfs ? quantity : 0n,
      paid: fcfs ? cost : 0n,
      refunded: 0n,
      status: fcfs ? 'locked' : 'committed',
      idempotency_key: idempotencyKey,
      created_at: toMillis(now),
      release_at: project.release_at,
    });
    const user: Owner = { userId };
    await this.#deps.ledger.post(trx, {
      type: 'lp.subscribe',
      ref: `lp-record:${id}`,
      memo: project.name,
      by: `user:${userId}`,
      postings: fcfs
        ? [
            { owner: user, asset: project.quote, kind: 'available', amount: -cost },
            { owner: system('lp_escrow', project.id), asset: project.quote, kind: 'available', amount: cost },
            {
              owner: system('lp_inventory', project.id),
              asset: project.coin,
              kind: 'available',
              amount: -quantity,
            },
            { owner: user, asset: project.coin, kind: 'locked', amount: quantity },
          ]
        : [
            { owner: user, asset: project.quote, kind: 'available', amount: -cost },
            { owner: user, asset: project.quote, kind: 'frozen', amount: cost },
          ],
    });
    return id;
  }

  /** The user's subscription records, newest first (the spec's record fields). */
  async listRecords(userId: bigint, page: number): Promise<{ list: RecordView[]; has_more: boolean }> {
    const rows = await repo.listUserRecords(this.#deps.db, userId, PAGE + 1, (page - 1) * PAGE);
    return { list: rows.slice(0, PAGE).map(toRecordView), has_more: rows.length > PAGE };
  }

  async #recordById(id: bigint): Promise<RecordView> {
    const { db } = this.#deps;
    const record = await repo.findRecord(db, id);
    if (!record) throw new AppError('RECORD_NOT_FOUND');
    const project = await repo.findProject(db, record.project_id);
    if (!project) throw new AppError('RECORD_NOT_FOUND');
    return toRecordView({ ...record, ...pick(project), id: record.id });
  }

  /** The user's referral rewards, newest first, with totals per status. */
  async listRewards(userId: bigint, page: number) {
    const { db } = this.#deps;
    const rows = await repo.listRewards(db, { beneficiaryId: userId }, PAGE + 1, (page - 1) * PAGE);
    const paid = await repo.rewardSums(db, userId, monthOf(this.#deps.clock.now()), -1n);
    return {
      list: rows.slice(0, PAGE).map((row) => toRewardView(row, true)),
      has_more: rows.length > PAGE,
      month_total: fromAtoms(paid.month),
    };
  }

  // --- jobs -----------------------------------------------------------------------------------------

  /** The launchpad's minute job: distributes ended projects, releases due locks, settles pending rewards. */
  async runJobs(): Promise<{ distributed: number; released: number; settled: number }> {
    const now = this.#deps.clock.now();
    let distributed = 0;
    for (const project of await repo.listDueProjects(this.#deps.db, toMillis(now))) {
      if (await this.distribute(project.id)) distributed += 1;
    }
    const released = await this.releaseDue();
    const settled = await this.settlePendingRewards();
    return { distributed, released, settled };
  }

  /**
   * Ends a project whose window has closed, in one transaction: pro-rata allocation (products
   * rule 4) with refunds; below the soft cap, cancellation with full refunds; unsold tokens and the
   * proceeds to the issuer; the referral budget to the rewards account, rewards paid or pending,
   * the unused budget back to the issuer. A project already ended is left alone.
   */
  async distribute(projectId: bigint, at?: number): Promise<boolean> {
    const { db, clock } = this.#deps;
    const now = at ?? clock.now();
    return db.transaction().execute(async (trx) => {
      const project = await repo.lockProject(trx, projectId);
      if (project?.status !== 'scheduled' || fromMillis(project.end_at) > now) return false;
      await this.#lockProjectAccounts(trx, project);
      const records = await repo.listProjectRecords(trx, project.id, ['committed', 'locked']);
      const allocations =
        project.mode === 'pro_rata'
          ? allocateByUser(records, project)
          : records.map((r) => ({ recordId: r.id, quantity: r.quantity, paid: r.paid, refunded: 0n }));
      const raise = allocations.reduce((sum, a) => sum + a.paid, 0n);
      if (raise < project.soft_cap) {
        await this.#cancel(trx, project, 'system', now);
        return true;
      }
      if (project.mode === 'pro_rata') {
        for (const allocation of allocations) {
          const record = records.find((r) => r.id === allocation.recordId);
          if (!record) continue;
          const user: Owner = { userId: record.user_id };
          await this.#deps.ledger.post(trx, {
            type: 'lp.distribute',
            ref: `lp-record:${record.id}`,
            memo: project.name,
            postings: lines(
              { owner: user, asset: project.quote, kind: 'frozen', amount: -record.committed },
              {
                owner: system('lp_escrow', project.id),
                asset: project.quote,
                kind: 'available',
                amount: allocation.paid,
              },
              { owner: user, asset: project.quote, kind: 'available', amount: allocation.refunded },
              {
                owner: system('lp_inventory', project.id),
                asset: project.coin,
                kind: 'available',
                amount: -allocation.quantity,
              },
              { owner: user, asset: project.coin, kind: 'locked', amount: allocation.quantity },
            ),
          });
          await repo.settleRecord(trx, record.id, {
            quantity: allocation.quantity,
            paid: allocation.paid,
            refunded: allocation.refunded,
            status: allocation.quantity > 0n ? 'locked' : 'refunded',
          });
        }
      }
      const sold = allocations.reduce((sum, a) => sum + a.quantity, 0n);
      const unsold = project.total_issue - sold;
      if (unsold > 0n) {
        await this.#deps.ledger.post(trx, {
          type: 'lp.unsold',
          ref: `lp-project:${project.id}`,
          memo: project.name,
          postings: [
            {
              owner: system('lp_inventory', project.id),
              asset: project.coin,
              kind: 'available',
              amount: -unsold,
            },
            {
              owner: system('lp_issuer', project.id),
              asset: project.coin,
              kind: 'available',
              amount: unsold,
            },
          ],
        });
      }
      const budget = budgetOf(raise, project.referral_budget_bp);
      if (raise > 0n) {
        await this.#deps.ledger.post(trx, {
          type: 'lp.proceeds',
          ref: `lp-project:${project.id}`,
          memo: project.name,
          postings: lines(
            {
              owner: system('lp_escrow', project.id),
              asset: project.quote,
              kind: 'available',
              amount: -raise,
            },
            {
              owner: system('lp_issuer', project.id),
              asset: project.quote,
              kind: 'available',
              amount: raise - budget,
            },
            { owner: REWARDS, asset: project.quote, kind: 'available', amount: budget },
          ),
        });
      }
      const owed = await this.#createRewards(trx, project, allocations, records, budget, now);
      if (budget - owed > 0n) {
        await this.#deps.ledger.post(trx, {
          type: 'lp.budget_return',
          ref: `lp-project:${project.id}`,
          memo: project.name,
          postings: [
            { owner: REWARDS, asset: project.quote, kind: 'available', amount: -(budget - owed) },
            {
              owner: system('lp_issuer', project.id),
              asset: project.quote,
              kind: 'available',
              amount: budget - owed,
            },
          ],
        });
      }
      await repo.setProjectStatus(trx, project.id, 'distributed', { distributed_at: toMillis(now) });
      return true;
    });
  }

  /**
   * Writes the rewards of every paid record (products §2): per generation up the buyer's chain,
   * void for a shared signal, an unverified buyer or a blocked country, capped per project, per
   * month and by the budget left; paid now to a verified, active beneficiary, pending otherwise.
   * Returns the atoms paid or held for pending rewards.
   */
  async #createRewards(
    trx: Db,
    project: ProjectRow,
    allocations: readonly { recordId: bigint; paid: bigint }[],
    records: readonly repo.RecordRow[],
    budget: bigint,
    now: number,
  ): Promise<bigint> {
    const config = await this.referralConfig(trx);
    const month = monthOf(now);
    let left = budget;
    let owed = 0n;
    for (const allocation of allocations) {
      if (allocation.paid === 0n) continue;
      const record = records.find((r) => r.id === allocation.recordId);
      if (!record) continue;
      const buyerId = record.user_id;
      const chain = (await this.#deps.users.listAncestors(trx, buyerId)).filter(
        (a) => a.generation <= config.generations,
      );
      if (chain.length === 0) continue;
      const buyer = await this.#deps.users.getAccount(buyerId, trx);
      let voidAll = '';
      if (buyer?.realnameStatus !== REALNAME_VERIFIED) voidAll = 'buyer not verified';
      for (const ancestor of chain) {
        if (voidAll) break;
        const shared = await repo.sharedSignals(trx, buyerId, ancestor.userId);
        if (shared.length > 0) voidAll = `buyer shares ${shared.join(', ')} with user ${ancestor.userId}`;
      }
      for (const ancestor of chain) {
        const rate =
          (await this.agents.ratesOverride(trx, ancestor.userId))?.[ancestor.generation - 1] ??
          config.ratesBp[ancestor.generation - 1] ??
          0n;
        const due = rewardOf(allocation.paid, rate);
        if (due === 0n) continue;
        const base = {
          project_id: project.id,
          source_id: record.id,
          buyer_id: buyerId,
          beneficiary_id: ancestor.userId,
          generation: BigInt(ancestor.generation),
          asset: project.quote,
          base: allocation.paid,
          rate_bp: rate,
          month,
          created_at: toMillis(now),
        };
        const beneficiary = await this.#deps.users.getAccount(ancestor.userId, trx);
        const country = await repo.kycCountry(trx, ancestor.userId);
        let reason = voidAll;
        if (!reason && country && config.blockedCountries.includes(country))
          reason = `rewards are not paid in ${country}`;
        if (reason) {
          await repo.insertReward(trx, {
            ...base,
            amount: due,
            capped: 0n,
            status: 'void',
            reason,
            settled_at: toMillis(now),
          });
          continue;
        }
        const sums = await repo.rewardSums(trx, ancestor.userId, month, project.id);
        const { amount, capped } = applyCaps(due, {
          project: config.capPerProject - sums.project,
          month: config.capPerMonth - sums.month,
          budget: left,
        });
        const payable = beneficiary?.realnameStatus === REALNAME_VERIFIED && beneficiary.status === 'active';
        const status: LpRewardStatus = amount === 0n ? 'capped' : payable ? 'paid' : 'pending';
        const rewardId = await repo.insertReward(trx, {
          ...base,
          amount,
          capped,
          status,
          reason: capped > 0n ? 'over a cap' : '',
          settled_at: status === 'pending' ? null : toMillis(now),
        });
        left -= amount;
        if (status === 'capped') continue;
        owed += amount;
        if (status === 'paid') await this.#payReward(trx, rewardId, ancestor.userId, project, amount);
      }
    }
    return owed;
  }

  async #payReward(
    trx: Db,
    rewardId: bigint,
    userId: bigint,
    project: { name: string; quote: string },
    amount: bigint,
  ) {
    await this.#deps.ledger.post(trx, {
      type: 'lp.reward',
      ref: `lp-reward:${rewardId}`,
      memo: project.name,
      postings: [
        { owner: REWARDS, asset: project.quote, kind: 'available', amount: -amount },
        { owner: { userId }, asset: project.quote, kind: 'available', amount },
      ],
    });
  }

  async #voidReward(trx: Db, reward: repo.RewardRow, reason: string, now: number) {
    await this.#deps.ledger.post(trx, {
      type: 'lp.reward_void',
      ref: `lp-reward:${reward.id}`,
      memo: reason,
      postings: [
        { owner: REWARDS, asset: reward.asset, kind: 'available', amount: -reward.amount },
        {
          owner: system('lp_issuer', reward.project_id),
          asset: reward.asset,
          kind: 'available',
          amount: reward.amount,
        },
      ],
    });
    await repo.setRewardStatus(trx, reward.id, { status: 'void', reason, settled_at: toMillis(now) });
  }

  /**
   * Pending rewards: paid once the beneficiary is verified (and not frozen); void, the money back
   * to the issuer, once 30 days have passed without it.
   */
  async settlePendingRewards(): Promise<number> {
    const { db, clock } = this.#deps;
    const now = clock.now();
    let settled = 0;
    for (const reward of await repo.listPendingRewards(db, BATCH)) {
      const beneficiary = await this.#deps.users.getAccount(reward.beneficiary_id);
      const payable = beneficiary?.realnameStatus === REALNAME_VERIFIED && beneficiary.status === 'active';
      const expired = now >= fromMillis(reward.created_at) + PENDING_DAYS * DAY_MS;
      if (!payable && !expired) continue;
      await db.transaction().execute(async (trx) => {
        const current = await repo.findReward(trx, reward.id);
        if (current?.status !== 'pending') return;
        if (payable) {
          const project = await repo.findProject(trx, reward.project_id);
          await this.#payReward(
            trx,
            reward.id,
            reward.beneficiary_id,
            { name: project?.name ?? '', quote: reward.asset },
            reward.amount,
          );
          await repo.setRewardStatus(trx, reward.id, { status: 'paid', settled_at: toMillis(now) });
        } else {
          await this.#voidReward(trx, current, `not verified within ${PENDING_DAYS} days`, now);
        }
        settled += 1;
      });
    }
    return settled;
  }

  /** Moves allocations whose lock has ended from `locked` to `available`, once each (`lp-release:<record>`). */
  async releaseDue(at?: number): Promise<number> {
    const { db, clock, ledger } = this.#deps;
    const now = at ?? clock.now();
    let released = 0;
    for (const due of await repo.listDueReleases(db, toMillis(now), BATCH)) {
      await db.transaction().execute(async (trx) => {
        const record = await repo.findRecord(trx, due.id);
        if (record?.status !== 'locked') return;
        const user: Owner = { userId: due.user_id };
        await ledger.post(trx, {
          type: 'lp.release',
          ref: `lp-release:${due.id}`,
          postings: [
            { owner: user, asset: due.coin, kind: 'locked', amount: -due.quantity },
            { owner: user, asset: due.coin, kind: 'available', amount: due.quantity },
          ],
        });
        await repo.settleRecord(trx, due.id, { status: 'released', released_at: toMillis(now) });
        released += 1;
      });
    }
    return released;
  }

  /**
   * Takes the project's platform accounts before its many postings take users' (the ledger's lock
   * order), so that a distribution or a cancellation never waits on a platform row while holding a
   * user's.
   */
  async #lockProjectAccounts(trx: Db, project: ProjectRow): Promise<void> {
    const accounts: { owner: Owner; asset: string; kind: 'available' }[] = [
      { owner: REWARDS, asset: project.quote, kind: 'available' },
    ];
    for (const name of ['lp_issuer', 'lp_inventory', 'lp_escrow'] as const) {
      for (const asset of [project.coin, project.quote])
        accounts.push({ owner: system(name, project.id), asset, kind: 'available' });
    }
    await this.#deps.ledger.balancesForUpdate(trx, accounts);
  }

  /** Full refunds of every live record, the inventory back to the issuer, the project cancelled. */
  async #cancel(trx: Db, project: ProjectRow, by: string, now: number): Promise<void> {
    await this.#lockProjectAccounts(trx, project);
    for (const record of await repo.listProjectRecords(trx, project.id, ['committed', 'locked'])) {
      const user: Owner = { userId: record.user_id };
      await this.#deps.ledger.post(trx, {
        type: 'lp.refund',
        ref: `lp-record:${record.id}`,
        memo: project.name,
        by,
        postings:
          record.status === 'committed'
            ? [
                { owner: user, asset: project.quote, kind: 'frozen', amount: -record.committed },
                { owner: user, asset: project.quote, kind: 'available', amount: record.committed },
              ]
            : [
                {
                  owner: system('lp_escrow', project.id),
                  asset: project.quote,
                  kind: 'available',
                  amount: -record.paid,
                },
                { owner: user, asset: project.quote, kind: 'available', amount: record.paid },
                { owner: user, asset: project.coin, kind: 'locked', amount: -record.quantity },
                {
                  owner: system('lp_inventory', project.id),
                  asset: project.coin,
                  kind: 'available',
                  amount: record.quantity,
                },
              ],
      });
      await repo.settleRecord(trx, record.id, {
        status: 'refunded',
        refunded: record.status === 'committed' ? record.committed : record.paid,
      });
    }
    const inventory = await this.#deps.ledger.balance(
      trx,
      system('lp_inventory', project.id),
      project.coin,
      'available',
    );
    if (inventory > 0n) {
      await this.#deps.ledger.post(trx, {
        type: 'lp.inventory_return',
        ref: `lp-project:${project.id}`,
        memo: project.name,
        by,
        postings: [
          {
            owner: system('lp_inventory', project.id),
            asset: project.coin,
            kind: 'available',
            amount: -inventory,
          },
          {
            owner: system('lp_issuer', project.id),
            asset: project.coin,
            kind: 'available',
            amount: inventory,
          },
        ],
      });
    }
    await repo.setProjectStatus(trx, project.id, 'cancelled', { distributed_at: toMillis(now) });
  }

  // --- demo -----------------------------------------------------------------------------------------

  /**
   * Demo mode, once: generations 2–3 on (acknowledged as the demo), and three projects so every
   * state shows at once: one closed with its allocations released, one open (pro-rata) with a
   * commitment, one upcoming (first come, first served). Subscriptions go through the same
   * postings as customers' at the times the projects' windows give them.
   */
  async seedDemo(userIds: readonly bigint[]): Promise<boolean> {
    const { db, clock, settings } = this.#deps;
    if ((await settings.get(DEMO_SEEDED)) || userIds.length === 0) return false;
    const demo = { staffId: 0n, actor: 'system:demo', ip: '' };
    if (!(await settings.get(REFERRAL_SETTING))) {
      await this.setReferralConfig(demo, { ...DEFAULT_REFERRAL, generations: 3, acknowledge: true });
    }
    const now = clock.now();
    const minute = now - (now % 60_000);
    const usdt = (units: number) => BigInt(units) * 100_000_000n;
    const base = {
      quote: 'USDT',
      coinDecimals: 4,
      maxPurchases: 1,
      softCap: 0n,
      referralBudgetBp: DEFAULT_REFERRAL.budgetBp,
    };
    const closed = await this.createProject(demo, {
      ...base,
      ...DEMO_PROJECTS.closed,
      startAt: minute - 40 * DAY_MS,
      endAt: minute - 35 * DAY_MS,
      lockDays: 5,
      totalIssue: usdt(10_000),
      price: usdt(1) / 5n,
      perMin: usdt(100),
      perMax: usdt(10_000),
      individualLimit: usdt(6_000),
      mode: 'pro_rata',
    });
    const open = await this.createProject(demo, {
      ...base,
      ...DEMO_PROJECTS.open,
      startAt: minute - DAY_MS,
      endAt: minute + 7 * DAY_MS,
      lockDays: 30,
      totalIssue: usdt(500_000),
      price: usdt(1) / 20n,
      perMin: usdt(100),
      perMax: usdt(200_000),
      individualLimit: usdt(50_000),
      mode: 'pro_rata',
    });
    const upcoming = await this.createProject(demo, {
      ...base,
      ...DEMO_PROJECTS.upcoming,
      startAt: minute + 3 * DAY_MS,
      endAt: minute + 10 * DAY_MS,
      lockDays: 14,
      totalIssue: usdt(200_000),
      price: usdt(1) / 10n,
      perMin: usdt(50),
      perMax: usdt(20_000),
      individualLimit: usdt(20_000),
      mode: 'fcfs',
    });
    for (const id of [closed, open, upcoming]) {
      await this.fundInventory(demo, id);
      await this.scheduleProject(demo, id);
    }
    await db.transaction().execute(async (trx) => {
      const past = await repo.findProject(trx, closed);
      const live = await repo.findProject(trx, open);
      if (!past || !live) return;
      for (const [i, userId] of userIds.entries()) {
        await this.#place(
          trx,
          past,
          userId,
          usdt(7_500),
          `demo-closed-${i}`,
          fromMillis(past.start_at) + (i + 1) * 3_600_000,
        );
      }
      const last = userIds.at(-1);
      if (last !== undefined) await this.#place(trx, live, last, usdt(100_000), 'demo-open', now - 3_600_000);
      await settings.set(trx, DEMO_SEEDED, String(now));
    });
    const past = await repo.findProject(db, closed);
    if (past) {
      await this.distribute(closed, fromMillis(past.end_at));
      await this.releaseDue(fromMillis(past.release_at));
    }
    return true;
  }

  // --- referral configuration -----------------------------------------------------------------------

  async referralConfig(db: Db = this.#deps.db): Promise<ReferralConfig> {
    const text = await this.#deps.settings.get(REFERRAL_SETTING, db);
    if (!text) return DEFAULT_REFERRAL;
    const stored = JSON.parse(text) as Record<string, unknown>;
    const rates = (stored.ratesBp as string[] | undefined)?.map(BigInt) ?? DEFAULT_REFERRAL.ratesBp;
    return {
      ratesBp: [rates[0] ?? 0n, rates[1] ?? 0n, rates[2] ?? 0n],
      generations: stored.generations === 3 ? 3 : 1,
      capPerProject: BigInt((stored.capPerProject as string | undefined) ?? DEFAULT_REFERRAL.capPerProject),
      capPerMonth: BigInt((stored.capPerMonth as string | undefined) ?? DEFAULT_REFERRAL.capPerMonth),
      budgetBp: BigInt((stored.budgetBp as string | undefined) ?? DEFAULT_REFERRAL.budgetBp),
      blockedCountries: (stored.blockedCountries as string[] | undefined) ?? [],
      acknowledgedBy: (stored.acknowledgedBy as string | null | undefined) ?? null,
      acknowledgedAt: (stored.acknowledgedAt as number | null | undefined) ?? null,
    };
  }

  /**
   * Saves the programme (audited). Generations 2 and 3 need the acknowledgement of the legal
   * warning (products §2), recorded with who gave it; Σ rates stays within 1,000 bp.
   */
  async setReferralConfig(
    staff: StaffRef | { actor: string; ip: string },
    input: Omit<ReferralConfig, 'acknowledgedBy' | 'acknowledgedAt'> & { acknowledge: boolean },
  ): Promise<ReferralConfig> {
    const { db, clock, audit } = this.#deps;
    const sum = input.ratesBp.reduce((s, r) => s + r, 0n);
    if (input.ratesBp.some((r) => r < 0n) || sum > 1_000n) throw new AppError('CONFIG_LIMITS_INVALID');
    if (input.capPerProject < 0n || input.capPerMonth < 0n || input.budgetBp < 0n || input.budgetBp > 10_000n)
      throw new AppError('CONFIG_LIMITS_INVALID');
    const before = await this.referralConfig();
    let acknowledgedBy = before.acknowledgedBy;
    let acknowledgedAt = before.acknowledgedAt;
    if (input.generations === 3 && before.generations !== 3) {
      if (!input.acknowledge) throw new AppError('LP_ACK_REQUIRED');
      acknowledgedBy = staff.actor;
      acknowledgedAt = clock.now();
    }
    const next: ReferralConfig = { ...input, acknowledgedBy, acknowledgedAt };
    await db.transaction().execute(async (trx) => {
      await this.#deps.settings.set(
        trx,
        REFERRAL_SETTING,
        JSON.stringify({
          ...next,
          ratesBp: next.ratesBp.map(String),
          capPerProject: String(next.capPerProject),
          capPerMonth: String(next.capPerMonth),
          budgetBp: String(next.budgetBp),
        }),
      );
      await audit.record(trx, {
        actor: staff.actor,
        action: 'launchpad.referral_config',
        target: 'referral',
        before,
        after: next,
        ip: staff.ip,
      });
    });
    return next;
  }

  // --- staff ----------------------------------------------------------------------------------------

  /** Creates a draft project and its coin row (audited). */
  async createProject(staff: StaffRef, terms: ProjectTerms): Promise<bigint> {
    validateTerms(terms);
    const { db, clock, audit } = this.#deps;
    const config = await this.referralConfig();
    return db.transaction().execute(async (trx) => {
      await this.#deps.coins.addCoin(trx, {
        symbol: terms.coin,
        name: terms.coinName,
        displayDecimals: terms.coinDecimals,
      });
      const id = await repo.insertProject(trx, {
        ...toColumns(terms),
        referral_budget_bp: terms.referralBudgetBp ?? config.budgetBp,
        status: 'draft',
        created_at: toMillis(clock.now()),
      });
      await audit.record(trx, {
        actor: staff.actor,
        action: 'launchpad.create',
        target: `lp:${id}`,
        after: terms,
        ip: staff.ip,
      });
      return id;
    });
  }

  /** Changes a draft's terms (audited); a scheduled project's terms are what customers bought on. */
  async updateProject(staff: StaffRef, id: bigint, terms: ProjectTerms): Promise<void> {
    validateTerms(terms);
    const { db, audit } = this.#deps;
    await db.transaction().execute(async (trx) => {
      const project = await repo.lockProject(trx, id);
      if (!project) throw new AppError('RECORD_NOT_FOUND');
      if (project.status !== 'draft' || project.coin !== terms.coin || project.quote !== terms.quote)
        throw new AppError('LP_NOT_EDITABLE');
      await repo.updateProject(trx, id, { ...toColumns(terms), referral_budget_bp: terms.referralBudgetBp });
      await audit.record(trx, {
        actor: staff.actor,
        action: 'launchpad.update',
        target: `lp:${id}`,
        before: project,
        after: terms,
        ip: staff.ip,
      });
    });
  }

  /**
   * Records the issuer's tokens arriving in the project's inventory (issuer → inventory: the total
   * issue), once per project (audited).
   */
  async fundInventory(staff: StaffRef, id: bigint): Promise<void> {
    const { db, audit, ledger } = this.#deps;
    await db.transaction().execute(async (trx) => {
      const project = await repo.lockProject(trx, id);
      if (!project) throw new AppError('RECORD_NOT_FOUND');
      if (project.status !== 'draft') throw new AppError('LP_NOT_EDITABLE');
      await ledger.post(trx, {
        type: 'lp.inventory',
        ref: `lp-project:${id}`,
        memo: project.name,
        by: staff.actor,
        postings: [
          {
            owner: system('lp_issuer', id),
            asset: project.coin,
            kind: 'available',
            amount: -project.total_issue,
          },
          {
            owner: system('lp_inventory', id),
            asset: project.coin,
            kind: 'available',
            amount: project.total_issue,
          },
        ],
      });
      await audit.record(trx, {
        actor: staff.actor,
        action: 'launchpad.fund_inventory',
        target: `lp:${id}`,
        after: { coin: project.coin, amount: project.total_issue },
        ip: staff.ip,
      });
    });
  }

  /** Publishes a draft (audited): only when its inventory already holds the total issue (rule 2). */
  async scheduleProject(staff: StaffRef, id: bigint): Promise<void> {
    const { db, audit, ledger } = this.#deps;
    await db.transaction().execute(async (trx) => {
      const project = await repo.lockProject(trx, id);
      if (!project) throw new AppError('RECORD_NOT_FOUND');
      if (project.status !== 'draft') throw new AppError('LP_NOT_EDITABLE');
      const held = await ledger.balance(trx, system('lp_inventory', id), project.coin, 'available');
      if (held < project.total_issue) throw new AppError('LP_INVENTORY_SHORT');
      await repo.setProjectStatus(trx, id, 'scheduled');
      await audit.record(trx, {
        actor: staff.actor,
        action: 'launchpad.schedule',
        target: `lp:${id}`,
        ip: staff.ip,
      });
    });
  }

  /** Refuses (or allows again) subscriptions to a scheduled project: "forbidden" (audited). */
  async setDisabled(staff: StaffRef, id: bigint, disabled: boolean, reason: string): Promise<void> {
    const { db, audit } = this.#deps;
    await db.transaction().execute(async (trx) => {
      const project = await repo.lockProject(trx, id);
      if (!project) throw new AppError('RECORD_NOT_FOUND');
      if (project.status !== 'scheduled') throw new AppError('LP_NOT_EDITABLE');
      await repo.setProjectStatus(trx, id, 'scheduled', { disabled: disabled ? 1n : 0n });
      await audit.record(trx, {
        actor: staff.actor,
        action: disabled ? 'launchpad.disable' : 'launchpad.enable',
        target: `lp:${id}`,
        reason,
        ip: staff.ip,
      });
    });
  }

  /** Cancels a project before distribution with full refunds (rule 7; audited, with a reason). */
  async cancelProject(staff: StaffRef, id: bigint, reason: string): Promise<void> {
    const { db, audit, clock } = this.#deps;
    await db.transaction().execute(async (trx) => {
      const project = await repo.lockProject(trx, id);
      if (!project) throw new AppError('RECORD_NOT_FOUND');
      if (project.status !== 'scheduled' && project.status !== 'draft') throw new AppError('LP_NOT_EDITABLE');
      await this.#cancel(trx, project, staff.actor, clock.now());
      await audit.record(trx, {
        actor: staff.actor,
        action: 'launchpad.cancel',
        target: `lp:${id}`,
        reason,
        ip: staff.ip,
      });
    });
  }

  /** Every project for the back office, with totals from the records and the inventory held. */
  async listProjectsForStaff() {
    const { db, clock, ledger } = this.#deps;
    const rows = await repo.listProjects(db);
    const totals = await repo.projectTotals(
      db,
      rows.map((r) => r.id),
    );
    const now = clock.now();
    return Promise.all(
      rows.map(async (row) => ({
        ...this.#view(row, totals.get(row.id), 'ja-JP'),
        disabled: row.disabled === 1n,
        referral_budget_bp: Number(row.referral_budget_bp),
        descriptions: parseDescriptions(row.descriptions),
        inventory: fromAtoms(await ledger.balance(db, system('lp_inventory', row.id), row.coin, 'available')),
        state: projectState(row, now),
      })),
    );
  }

  async listProjectRecordsForStaff(id: bigint) {
    const { db } = this.#deps;
    const project = await repo.findProject(db, id);
    if (!project) throw new AppError('RECORD_NOT_FOUND');
    const rows = await repo.listProjectRecords(db, id);
    return rows.map((r) => ({
      ...toRecordView({ ...r, ...pick(project), id: r.id }),
      user_id: String(r.user_id),
    }));
  }

  async listRewardsForStaff(filter: { projectId?: bigint; status?: LpRewardStatus }, page: number) {
    const rows = await repo.listRewards(this.#deps.db, filter, PAGE + 1, (page - 1) * PAGE);
    return {
      list: rows.slice(0, PAGE).map((row) => ({
        ...toRewardView(row, false),
        beneficiary_id: String(row.beneficiary_id),
        buyer_id: String(row.buyer_id),
      })),
      has_more: rows.length > PAGE,
    };
  }

  /** Voids a pending reward with a reason (audited); its money goes back to the issuer. */
  async voidReward(staff: StaffRef, id: bigint, reason: string): Promise<void> {
    const { db, audit, clock } = this.#deps;
    await db.transaction().execute(async (trx) => {
      const reward = await repo.findReward(trx, id);
      if (!reward) throw new AppError('RECORD_NOT_FOUND');
      if (reward.status !== 'pending') throw new AppError('ILLEGAL_OPERATION');
      await this.#voidReward(trx, reward, reason, clock.now());
      await audit.record(trx, {
        actor: staff.actor,
        action: 'launchpad.reward_void',
        target: `lp-reward:${id}`,
        reason,
        ip: staff.ip,
      });
    });
  }

  // --- views ----------------------------------------------------------------------------------------

  #view(row: ProjectRow, totals: repo.Totals | undefined, locale: string): ProjectView {
    const now = this.#deps.clock.now();
    const state = projectState(row, now);
    const subscribed =
      row.status === 'distributed' || row.mode === 'fcfs'
        ? (totals?.quantity ?? 0n)
        : (totals?.requested ?? 0n);
    const descriptions = parseDescriptions(row.descriptions);
    return {
      id: String(row.id),
      name: row.name,
      coin: row.coin,
      quote: row.quote,
      mode: row.mode,
      state,
      status: row.status,
      start_at: fromMillis(row.start_at),
      end_at: fromMillis(row.end_at),
      release_at: fromMillis(row.release_at),
      lock_days: Number(row.lock_days),
      total_issue: fromAtoms(row.total_issue),
      price: fromAtoms(row.price),
      per_min: fromAtoms(row.per_min),
      per_max: fromAtoms(row.per_max),
      individual_limit: fromAtoms(row.individual_limit),
      max_purchases: Number(row.max_purchases),
      soft_cap: fromAtoms(row.soft_cap),
      subscribed: fromAtoms(subscribed),
      progress: percent(subscribed, row.total_issue),
      raised: fromAtoms(
        row.status === 'distributed' || row.mode === 'fcfs'
          ? (totals?.paid ?? 0n)
          : (totals?.committed ?? 0n),
      ),
      participants: Number(totals?.records ?? 0n),
      description: descriptions[locale] ?? descriptions['ja-JP'] ?? '',
      server_time: now,
    };
  }
}

/**
 * Pro-rata allocation per user (the individual limit is a user's, however many purchases they
 * made): each user's commitments are summed, allocated by water-filling, and the user's tokens
 * are spread over their records in order, each record taking at most what its own commitment buys.
 */
function allocateByUser(
  records: readonly repo.RecordRow[],
  project: { total_issue: bigint; price: bigint; individual_limit: bigint },
): { recordId: bigint; quantity: bigint; paid: bigint; refunded: bigint }[] {
  const users = new Map<bigint, { committed: bigint; createdAt: number; records: repo.RecordRow[] }>();
  for (const record of records) {
    const user = users.get(record.user_id) ?? {
      committed: 0n,
      createdAt: fromMillis(record.created_at),
      records: [],
    };
    user.committed += record.committed;
    user.records.push(record);
    users.set(record.user_id, user);
  }
  const perUser = allocateProRata(
    [...users].map(([userId, u]) => ({
      recordId: userId,
      userId,
      committed: u.committed,
      createdAt: u.createdAt,
    })),
    project.total_issue,
    project.price,
    project.individual_limit,
  );
  const out: { recordId: bigint; quantity: bigint; paid: bigint; refunded: bigint }[] = [];
  for (const allocation of perUser) {
    let left = allocation.quantity;
    for (const record of users.get(allocation.recordId)?.records ?? []) {
      const buys = demandOf(record.committed, project.price);
      const quantity = left < buys ? left : buys;
      left -= quantity;
      const paid = costOf(quantity, project.price);
      out.push({ recordId: record.id, quantity, paid, refunded: record.committed - paid });
    }
  }
  return out;
}

function pick(project: ProjectRow) {
  return {
    name: project.name,
    coin: project.coin,
    quote: project.quote,
    price: project.price,
    lock_days: project.lock_days,
  };
}

function toRecordView(
  row: repo.RecordRow & { name: string; coin: string; quote: string; price: bigint; lock_days: bigint },
): RecordView {
  return {
    id: String(row.id),
    project_id: String(row.project_id),
    name: row.name,
    coin: row.coin,
    quote: row.quote,
    price: fromAtoms(row.price),
    requested: fromAtoms(row.requested),
    committed: fromAtoms(row.committed),
    quantity: fromAtoms(row.quantity),
    paid: fromAtoms(row.paid),
    refunded: fromAtoms(row.refunded),
    lock_days: Number(row.lock_days),
    created_at: fromMillis(row.created_at),
    release_at: fromMillis(row.release_at),
    released_at: row.released_at === null ? null : fromMillis(row.released_at),
    status: recordStatus(row.status),
    stage: row.status,
  };
}

function toColumns(terms: ProjectTerms) {
  return {
    name: terms.name,
    coin: terms.coin,
    quote: terms.quote,
    start_at: toMillis(terms.startAt),
    end_at: toMillis(terms.endAt),
    total_issue: terms.totalIssue,
    price: terms.price,
    lock_days: BigInt(terms.lockDays),
    per_min: terms.perMin,
    per_max: terms.perMax,
    individual_limit: terms.individualLimit,
    max_purchases: BigInt(terms.maxPurchases),
    soft_cap: terms.softCap,
    mode: terms.mode,
    release_at: toMillis(terms.endAt + terms.lockDays * DAY_MS),
    descriptions: JSON.stringify(terms.descriptions),
  };
}

/** Terms that make sense together: positive amounts, a window, min ≤ max ≤ issue, a price. */
function validateTerms(t: ProjectTerms): void {
  const ok =
    /^[A-Z0-9]{2,16}$/.test(t.coin) &&
    /^[A-Z0-9]{2,16}$/.test(t.quote) &&
    t.coin !== t.quote &&
    t.name.trim().length > 0 &&
    t.name.length <= 100 &&
    t.endAt > t.startAt &&
    t.totalIssue > 0n &&
    t.price > 0n &&
    t.perMin > 0n &&
    t.perMin <= t.perMax &&
    t.perMax <= t.totalIssue &&
    t.individualLimit >= t.perMin &&
    t.maxPurchases >= 1 &&
    t.lockDays >= 0 &&
    t.lockDays <= 3650 &&
    t.softCap >= 0n &&
    t.coinDecimals >= 0 &&
    t.coinDecimals <= 8 &&
    t.referralBudgetBp >= 0n &&
    t.referralBudgetBp <= 10_000n &&
    demandOf(t.perMin, t.price) >= 0n;
  if (!ok) throw new AppError('LP_PROJECT_INVALID');
}
