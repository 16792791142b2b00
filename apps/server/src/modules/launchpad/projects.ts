// The projects customers see: the list and one project's page, with the user's own figures.

import { AppError, fromAtoms, type ResultKey } from '@bourse/shared';
import { fromMillis } from '../../platform/time.ts';
import { costOf } from './allocation.ts';
import type { LaunchpadDeps } from './deps.ts';
import * as repo from './repository.ts';
import { type ProjectView, projectView } from './views.ts';

/** Projects customers can see (not drafts), newest first, with their state and progress. */
export async function listProjects(deps: LaunchpadDeps, locale: string): Promise<ProjectView[]> {
  const { db } = deps;
  const rows = await repo.listProjects(db, ['scheduled', 'distributed', 'cancelled']);
  const totals = await repo.projectTotals(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => projectView(deps.clock, row, totals.get(row.id), locale));
}

/** What `getProject` can answer besides the codes every route can. */
export const GET_PROJECT_ERRORS = [
  'LP_CLOSED',
  'AMOUNT_INVALID',
  'QTY_INVALID',
] as const satisfies readonly ResultKey[];

/**
 * One project with the user's own subscriptions and, for `quantity`, the cost and the expected
 * allocation at today's demand (the worked example the detail page explains).
 */
export async function getProject(
  deps: LaunchpadDeps,
  id: bigint,
  userId: bigint | undefined,
  locale: string,
  quantity?: bigint,
) {
  const { db, clock } = deps;
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
    project: projectView(deps.clock, row, totals, locale),
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
