import { type Kysely, sql } from 'kysely';

/**
 * Whether the customer was told a withdrawal's outcome (spec §3: a withdrawal record's "notified
 * or not"). `notified_at` is set in the transaction that passes or rejects the withdrawal and
 * writes its notice; null while under review, or when no notice went out.
 *
 * Rows reviewed before keep it only where the notice is there to show it: the outcome's notice to
 * the same user, written within a minute of the review (notice and review share one transaction).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('withdrawals').addColumn('notified_at', 'bigint').execute();
  await sql`update withdrawals set notified_at = (
      select min(n.created_at) from notifications n
      where n.user_id = withdrawals.user_id
        and n.msg_key = case withdrawals.status
          when 'passed' then 'WITHDRAWAL_PASSED' else 'WITHDRAWAL_REJECTED' end
        and n.created_at >= withdrawals.reviewed_at
        and n.created_at <= withdrawals.reviewed_at + 60000)
    where status in ('passed', 'rejected') and reviewed_at is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('withdrawals').dropColumn('notified_at').execute();
}
