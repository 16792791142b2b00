import type { AuthContext } from '../../platform/auth-hook.ts';
import type { Db } from '../../platform/db.ts';
import type { HistoryPage } from '../../platform/history-page.ts';
import type { LpRewardStatus } from '../../platform/schema.ts';
import { AgentService } from './agents.ts';
import type { ProjectTerms } from './back-office.ts';
import * as backOffice from './back-office.ts';
import * as demo from './demo.ts';
import { type LaunchpadDeps, type LaunchpadStaff, RESERVATIONS } from './deps.ts';
import * as distribution from './distribution.ts';
import * as projects from './projects.ts';
import * as repo from './repository.ts';
import type { ReferralConfig } from './rewards.ts';
import * as rewards from './rewards.ts';
import * as subscriptions from './subscriptions.ts';
import type { ProjectView, RecordView } from './views.ts';

export type { ProjectTerms } from './back-office.ts';
export type { LaunchpadDeps, LaunchpadStaff } from './deps.ts';
export type { ProjectView, RecordView } from './views.ts';

/**
 * The launchpad (products §1) and its referral rewards (§2): projects, subscriptions (first come
 * first served, or pro-rata commitments frozen until the end), distribution with refunds, the lock
 * and its release, rewards over three generations from the project's disclosed budget, and agents.
 * Owner of `lp_projects`, `lp_records`, `lp_rewards` and `agents`. Balances move only through the
 * ledger, in the transaction of the row that explains them. A project's progress and sold amount
 * are sums of its records: nothing stores or sets them.
 *
 * A thin facade: each use case lives in its own file (projects, subscriptions, distribution,
 * rewards, back-office, demo), all sharing the one `LaunchpadDeps`.
 */
export class LaunchpadService {
  readonly #deps: LaunchpadDeps;

  /** Agents: applications, staff decisions and the agent centre. */
  readonly agents: AgentService;

  constructor(deps: LaunchpadDeps) {
    this.#deps = deps;
    this.agents = new AgentService({ ...deps, rewards: this });
    deps.ledger.addReservationSource(RESERVATIONS.commitments, (db, users) =>
      repo.sumByUser(db, 'committed', users),
    );
    deps.ledger.addReservationSource(
      RESERVATIONS.locked,
      (db, users) => repo.sumByUser(db, 'locked', users),
      'locked',
    );
  }

  // --- customer ----------------------------------------------------------------------------------

  /** Projects customers can see (not drafts), newest first, with their state and progress. */
  listProjects(locale: string): Promise<ProjectView[]> {
    return projects.listProjects(this.#deps, locale);
  }

  /**
   * One project with the user's own subscriptions and, for `quantity`, the cost and the expected
   * allocation at today's demand (the worked example the detail page explains).
   */
  getProject(id: bigint, userId: bigint | undefined, locale: string, quantity?: bigint) {
    return projects.getProject(this.#deps, id, userId, locale, quantity);
  }

  /**
   * Subscribes `quantity` token atoms. First come, first served: paid now, tokens locked until
   * release. Pro-rata: the cost is frozen until the end of the window. Refused, changing nothing,
   * with the spec's messages; the same idempotency key answers the first record again.
   */
  subscribe(
    auth: AuthContext,
    input: { projectId: bigint; quantity: bigint; idempotencyKey: string },
  ): Promise<RecordView> {
    return subscriptions.subscribe(this.#deps, auth, input);
  }

  /** The user's subscription records, newest first (the spec's record fields). */
  listRecords(userId: bigint, page: HistoryPage): Promise<{ list: RecordView[]; has_more: boolean }> {
    return subscriptions.listRecords(this.#deps, userId, page);
  }

  /** The user's referral rewards, newest first, with totals per status. */
  listRewards(userId: bigint, page: HistoryPage) {
    return rewards.listRewards(this.#deps, userId, page);
  }

  // --- jobs --------------------------------------------------------------------------------------

  /** The launchpad's minute job: distributes ended projects, releases due locks, settles pending rewards. */
  runJobs(): Promise<{ distributed: number; released: number; settled: number }> {
    return distribution.runJobs(this.#deps, this.agents);
  }

  /**
   * Ends a project whose window has closed, in one transaction: pro-rata allocation (products
   * rule 4) with refunds; below the soft cap, cancellation with full refunds; unsold tokens and the
   * proceeds to the issuer; the referral budget to the rewards account, rewards paid or pending,
   * the unused budget back to the issuer. A project already ended is left alone.
   */
  distribute(projectId: bigint, at?: number): Promise<boolean> {
    return distribution.distribute(this.#deps, this.agents, projectId, at);
  }

  /**
   * Pending rewards: paid once the beneficiary is verified (and not frozen); void, the money back
   * to the issuer, once 30 days have passed without it.
   */
  settlePendingRewards(): Promise<number> {
    return rewards.settlePendingRewards(this.#deps);
  }

  /** Moves allocations whose lock has ended from `locked` to `available`, once each (`lp-release:<record>`). */
  releaseDue(at?: number): Promise<number> {
    return distribution.releaseDue(this.#deps, at);
  }

  // --- demo --------------------------------------------------------------------------------------

  /**
   * Demo mode, once: generations 2–3 on (acknowledged as the demo), and three projects so every
   * state shows at once: one closed with its allocations released, one open (pro-rata) with a
   * commitment, one upcoming (first come, first served). Subscriptions go through the same
   * postings as customers' at the times the projects' windows give them.
   */
  seedDemo(userIds: readonly bigint[]): Promise<boolean> {
    return demo.seedDemo(this.#deps, this.agents, userIds);
  }

  // --- referral configuration --------------------------------------------------------------------

  referralConfig(db: Db = this.#deps.db): Promise<ReferralConfig> {
    return rewards.referralConfig(this.#deps, db);
  }

  /**
   * Saves the programme (audited). Generations 2 and 3 need the acknowledgement of the legal
   * warning (products §2), recorded with who gave it; Σ rates stays within 1,000 bp.
   */
  setReferralConfig(
    staff: LaunchpadStaff | { actor: string; ip: string },
    input: Omit<ReferralConfig, 'acknowledgedBy' | 'acknowledgedAt'> & { acknowledge: boolean },
  ): Promise<ReferralConfig> {
    return rewards.setReferralConfig(this.#deps, staff, input);
  }

  // --- staff -------------------------------------------------------------------------------------

  /** Creates a draft project and its coin row (audited). */
  createProject(staff: LaunchpadStaff, terms: ProjectTerms): Promise<bigint> {
    return backOffice.createProject(this.#deps, staff, terms);
  }

  /** Changes a draft's terms (audited); a scheduled project's terms are what customers bought on. */
  updateProject(staff: LaunchpadStaff, id: bigint, terms: ProjectTerms): Promise<void> {
    return backOffice.updateProject(this.#deps, staff, id, terms);
  }

  /**
   * Records the issuer's tokens arriving in the project's inventory (issuer → inventory: the total
   * issue), once per project (audited).
   */
  fundInventory(staff: LaunchpadStaff, id: bigint): Promise<void> {
    return backOffice.fundInventory(this.#deps, staff, id);
  }

  /** Publishes a draft (audited): only when its inventory already holds the total issue (rule 2). */
  scheduleProject(staff: LaunchpadStaff, id: bigint): Promise<void> {
    return backOffice.scheduleProject(this.#deps, staff, id);
  }

  /** Refuses (or allows again) subscriptions to a scheduled project: "forbidden" (audited). */
  setDisabled(staff: LaunchpadStaff, id: bigint, disabled: boolean, reason: string): Promise<void> {
    return backOffice.setDisabled(this.#deps, staff, id, disabled, reason);
  }

  /** Cancels a project before distribution with full refunds (rule 7; audited, with a reason). */
  cancelProject(staff: LaunchpadStaff, id: bigint, reason: string): Promise<void> {
    return backOffice.cancelProject(this.#deps, staff, id, reason);
  }

  /** Every project for the back office, with totals from the records and the inventory held. */
  listProjectsForStaff() {
    return backOffice.listProjectsForStaff(this.#deps);
  }

  listProjectRecordsForStaff(id: bigint) {
    return backOffice.listProjectRecordsForStaff(this.#deps, id);
  }

  listRewardsForStaff(filter: { projectId?: bigint; status?: LpRewardStatus }, page: number) {
    return rewards.listRewardsForStaff(this.#deps, filter, page);
  }

  /** Voids a pending reward with a reason (audited); its money goes back to the issuer. */
  voidReward(staff: LaunchpadStaff, id: bigint, reason: string): Promise<void> {
    return rewards.voidReward(this.#deps, staff, id, reason);
  }
}
