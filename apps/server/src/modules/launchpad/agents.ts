import { AppError, fromAtoms, type ResultKey } from '@bourse/shared';
import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db.ts';
import type { HistoryPage } from '../../platform/history-page.ts';
import type { StaffActor } from '../../platform/staff-actor.ts';
import { fromMillis, toMillis } from '../../platform/time.ts';
import type { AuditService } from '../audit/service.ts';
import { maskName } from '../users/service.ts';
import * as repo from './repository.ts';
import { type RewardView, toRewardView } from './views.ts';

const DAY_MS = 86_400_000;
const PAGE = 20;
const REALNAME_VERIFIED = 2n;

export interface AgentDeps {
  db: Db;
  clock: Clock;
  audit: AuditService;
  /** The launchpad's reward records of a beneficiary. */
  rewards: {
    listRewards(
      userId: bigint,
      page: HistoryPage,
    ): Promise<{ list: RewardView[]; has_more: boolean; month_total: string }>;
  };
}

/** What `apply` can answer besides the codes every route can. */
export const APPLY_ERRORS = ['AGENT_ALREADY'] as const satisfies readonly ResultKey[];

/** What `centre` can answer besides the codes every route can. */
export const CENTRE_ERRORS = [
  'AGENT_NOT_AGENT',
  'AGENT_PENDING',
  'AGENT_SUSPENDED',
] as const satisfies readonly ResultKey[];

/** What `rewards` can answer besides the codes every route can. */
export const REWARDS_ERRORS = [
  'AGENT_NOT_AGENT',
  'AGENT_PENDING',
  'AGENT_SUSPENDED',
] as const satisfies readonly ResultKey[];

/** What `rewardsCsv` can answer besides the codes every route can. */
export const REWARDS_CSV_ERRORS = [
  'AGENT_NOT_AGENT',
  'AGENT_PENDING',
  'AGENT_SUSPENDED',
] as const satisfies readonly ResultKey[];

/** What `decide` can answer besides the codes every route can. */
export const DECIDE_ERRORS = [
  'RECORD_NOT_FOUND',
  'ILLEGAL_OPERATION',
  'CONFIG_LIMITS_INVALID',
] as const satisfies readonly ResultKey[];

/**
 * Agents (products §2 rule 8): users apply, compliance approves, rejects, suspends or reinstates
 * (audited), optionally with rates of their own; the agent centre shows the team per generation
 * (masked names, join date, verified, total paid — never balances or contacts), a 30-day daily
 * series of rewards, the reward records and their CSV. Owner of `agents`.
 */
export class AgentService {
  readonly #deps: AgentDeps;

  constructor(deps: AgentDeps) {
    this.#deps = deps;
  }

  async apply(userId: bigint): Promise<void> {
    const { db, clock } = this.#deps;
    const agent = await repo.findAgent(db, userId);
    if (agent && agent.status !== 'rejected') throw new AppError('AGENT_ALREADY');
    await repo.upsertAgent(db, { user_id: userId, status: 'pending', applied_at: toMillis(clock.now()) });
  }

  /** The agent's own status; refused with the spec's messages unless approved. */
  async requireAgent(userId: bigint): Promise<void> {
    const agent = await repo.findAgent(this.#deps.db, userId);
    if (!agent || agent.status === 'rejected') throw new AppError('AGENT_NOT_AGENT');
    if (agent.status === 'pending') throw new AppError('AGENT_PENDING');
    if (agent.status === 'suspended') throw new AppError('AGENT_SUSPENDED');
  }

  async status(
    userId: bigint,
  ): Promise<{ status: 'none' | 'pending' | 'approved' | 'rejected' | 'suspended' }> {
    const agent = await repo.findAgent(this.#deps.db, userId);
    return { status: agent?.status ?? 'none' };
  }

  /**
   * The agent centre: team counts per generation and members (masked name, join date, generation,
   * verified, total paid), never balances or contacts; reward totals and a 30-day daily series.
   */
  async centre(userId: bigint, query: { generation?: number; page: number }) {
    await this.requireAgent(userId);
    const { db, clock } = this.#deps;
    const members = await repo.listTeamMembers(
      db,
      userId,
      query.generation === undefined ? undefined : BigInt(query.generation),
      PAGE + 1,
      (query.page - 1) * PAGE,
    );
    const counts: [number, number, number] = [0, 0, 0];
    const everyone = await repo.listTeamMembers(db, userId, undefined, 1_000_000, 0);
    for (const m of everyone) counts[Number(m.depth) - 1] = (counts[Number(m.depth) - 1] ?? 0) + 1;
    const now = clock.now();
    const since = now - 29 * DAY_MS;
    const fromDay = since - (since % DAY_MS);
    const daily = new Map<string, bigint>();
    for (let t = fromDay; t <= now; t += DAY_MS) daily.set(new Date(t).toISOString().slice(0, 10), 0n);
    for (const row of await repo.dailyRewards(db, userId, toMillis(fromDay))) {
      const day = new Date(fromMillis(row.created_at)).toISOString().slice(0, 10);
      daily.set(day, (daily.get(day) ?? 0n) + row.amount);
    }
    return {
      counts,
      members: members.slice(0, PAGE).map((m) => ({
        name: maskName(m.username),
        joined_at: fromMillis(m.created_at),
        generation: Number(m.depth),
        verified: m.realname_status === REALNAME_VERIFIED,
        total_paid: fromAtoms(BigInt(m.total_paid ?? 0)),
      })),
      has_more: members.length > PAGE,
      daily: [...daily].map(([day, amount]) => ({ day, amount: fromAtoms(amount) })),
    };
  }

  async rewards(userId: bigint, page: HistoryPage) {
    await this.requireAgent(userId);
    return this.#deps.rewards.listRewards(userId, page);
  }

  /** The agent's reward records as CSV (RFC 4180), newest first. */
  async rewardsCsv(userId: bigint): Promise<string> {
    await this.requireAgent(userId);
    const rows = await repo.listRewards(
      this.#deps.db,
      { beneficiaryId: userId },
      { limit: 10_000, offset: 0 },
    );
    const quote = (v: string) => (/[",\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
    const lines = ['id,created_at,project,buyer,generation,base,rate_bp,amount,capped,asset,status,reason'];
    for (const row of rows) {
      const view = toRewardView(row, true);
      lines.push(
        [
          view.id,
          new Date(view.created_at).toISOString(),
          view.project,
          view.buyer,
          view.generation,
          view.base,
          view.rate_bp,
          view.amount,
          view.capped,
          view.asset,
          view.status,
          view.reason,
        ]
          .map((v) => quote(String(v)))
          .join(','),
      );
    }
    return `${lines.join('\r\n')}\r\n`;
  }

  async list(status: 'pending' | 'approved' | 'rejected' | 'suspended' | undefined, page: number) {
    const rows = await repo.listAgents(this.#deps.db, status, PAGE + 1, (page - 1) * PAGE);
    return {
      list: rows.slice(0, PAGE).map((r) => ({
        user_id: String(r.user_id),
        username: r.username,
        status: r.status,
        rates_override: r.rates_override ? (JSON.parse(r.rates_override) as number[]) : null,
        note: r.note,
        applied_at: fromMillis(r.applied_at),
        decided_at: r.decided_at === null ? null : fromMillis(r.decided_at),
        decided_by: r.decided_by,
      })),
      has_more: rows.length > PAGE,
    };
  }

  /** approve / reject a pending application, suspend an approved agent or reinstate one (audited). */
  async decide(
    staff: StaffActor,
    userId: bigint,
    decision: 'approve' | 'reject' | 'suspend' | 'reinstate',
    note: string,
    ratesOverride?: [number, number, number] | null,
  ): Promise<void> {
    const { db, clock, audit } = this.#deps;
    const allowed: Record<typeof decision, { from: string; to: 'approved' | 'rejected' | 'suspended' }> = {
      approve: { from: 'pending', to: 'approved' },
      reject: { from: 'pending', to: 'rejected' },
      suspend: { from: 'approved', to: 'suspended' },
      reinstate: { from: 'suspended', to: 'approved' },
    };
    const step = allowed[decision];
    if (ratesOverride && ratesOverride.reduce((s, r) => s + r, 0) > 1_000)
      throw new AppError('CONFIG_LIMITS_INVALID');
    await db.transaction().execute(async (trx) => {
      const agent = await repo.findAgent(trx, userId);
      if (!agent) throw new AppError('RECORD_NOT_FOUND');
      if (agent.status !== step.from) throw new AppError('ILLEGAL_OPERATION');
      await repo.decideAgent(trx, userId, {
        status: step.to,
        decided_at: toMillis(clock.now()),
        decided_by: staff.actor,
        note,
        ...(ratesOverride === undefined
          ? {}
          : { rates_override: ratesOverride ? JSON.stringify(ratesOverride) : null }),
      });
      await audit.record(trx, {
        actor: staff.actor,
        action: `agent.${decision}`,
        target: `user:${userId}`,
        before: { status: agent.status },
        after: { status: step.to, ratesOverride },
        reason: note,
        ip: staff.ip,
      });
    });
  }

  /** An approved agent's own rates (basis points per generation), if staff gave them any. */
  async ratesOverride(db: Db, userId: bigint): Promise<bigint[] | undefined> {
    const agent = await repo.findAgent(db, userId);
    if (agent?.status !== 'approved' || !agent.rates_override) return undefined;
    return (JSON.parse(agent.rates_override) as number[]).map((r) => BigInt(r));
  }
}
