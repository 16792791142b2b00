// The end of a project: distribution (allocation, refunds, the issuer's proceeds, the referral budget),
// the release of locks, and cancellation with full refunds; and the minute job that runs them.

import type { Db } from '../../platform/db.ts';
import { fromMillis, toMillis } from '../../platform/time.ts';
import type { Owner } from '../ledger/service.ts';
import type { AgentService } from './agents.ts';
import { allocateProRata, costOf, demandOf } from './allocation.ts';
import { BATCH, type LaunchpadDeps, lines, type ProjectRow, REWARDS, system } from './deps.ts';
import * as repo from './repository.ts';
import { budgetOf, createRewards, settlePendingRewards } from './rewards.ts';

/** The launchpad's minute job: distributes ended projects, releases due locks, settles pending rewards. */
export async function runJobs(
  deps: LaunchpadDeps,
  agents: AgentService,
): Promise<{ distributed: number; released: number; settled: number }> {
  const now = deps.clock.now();
  let distributed = 0;
  for (const project of await repo.listDueProjects(deps.db, toMillis(now))) {
    if (await distribute(deps, agents, project.id)) distributed += 1;
  }
  const released = await releaseDue(deps);
  const settled = await settlePendingRewards(deps);
  return { distributed, released, settled };
}

/**
 * Ends a project whose window has closed, in one transaction: pro-rata allocation (products
 * rule 4) with refunds; below the soft cap, cancellation with full refunds; unsold tokens and the
 * proceeds to the issuer; the referral budget to the rewards account, rewards paid or pending,
 * the unused budget back to the issuer. A project already ended is left alone.
 */
export async function distribute(
  deps: LaunchpadDeps,
  agents: AgentService,
  projectId: bigint,
  at?: number,
): Promise<boolean> {
  const { db, clock } = deps;
  const now = at ?? clock.now();
  return db.transaction().execute(async (trx) => {
    const project = await repo.lockProject(trx, projectId);
    if (project?.status !== 'scheduled' || fromMillis(project.end_at) > now) return false;
    await lockProjectAccounts(deps, trx, project);
    const records = await repo.listProjectRecords(trx, project.id, ['committed', 'locked']);
    const allocations =
      project.mode === 'pro_rata'
        ? allocateByUser(records, project)
        : records.map((r) => ({ recordId: r.id, quantity: r.quantity, paid: r.paid, refunded: 0n }));
    const raise = allocations.reduce((sum, a) => sum + a.paid, 0n);
    if (raise < project.soft_cap) {
      await cancel(deps, trx, project, 'system', now);
      return true;
    }
    if (project.mode === 'pro_rata') {
      for (const allocation of allocations) {
        const record = records.find((r) => r.id === allocation.recordId);
        if (!record) continue;
        const user: Owner = { userId: record.user_id };
        await deps.ledger.post(trx, {
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
      await deps.ledger.post(trx, {
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
      await deps.ledger.post(trx, {
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
    const owed = await createRewards(deps, agents, trx, project, allocations, records, budget, now);
    if (budget - owed > 0n) {
      await deps.ledger.post(trx, {
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

/** Moves allocations whose lock has ended from `locked` to `available`, once each (`lp-release:<record>`). */
export async function releaseDue(deps: LaunchpadDeps, at?: number): Promise<number> {
  const { db, clock, ledger } = deps;
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
async function lockProjectAccounts(deps: LaunchpadDeps, trx: Db, project: ProjectRow): Promise<void> {
  const accounts: { owner: Owner; asset: string; kind: 'available' }[] = [
    { owner: REWARDS, asset: project.quote, kind: 'available' },
  ];
  for (const name of ['lp_issuer', 'lp_inventory', 'lp_escrow'] as const) {
    for (const asset of [project.coin, project.quote])
      accounts.push({ owner: system(name, project.id), asset, kind: 'available' });
  }
  await deps.ledger.balancesForUpdate(trx, accounts);
}

/** Full refunds of every live record, the inventory back to the issuer, the project cancelled. */
export async function cancel(
  deps: LaunchpadDeps,
  trx: Db,
  project: ProjectRow,
  by: string,
  now: number,
): Promise<void> {
  await lockProjectAccounts(deps, trx, project);
  for (const record of await repo.listProjectRecords(trx, project.id, ['committed', 'locked'])) {
    const user: Owner = { userId: record.user_id };
    await deps.ledger.post(trx, {
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
  const inventory = await deps.ledger.balance(
    trx,
    system('lp_inventory', project.id),
    project.coin,
    'available',
  );
  if (inventory > 0n) {
    await deps.ledger.post(trx, {
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
