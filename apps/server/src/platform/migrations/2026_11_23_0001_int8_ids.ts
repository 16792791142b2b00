import { type Kysely, sql } from 'kysely';
import { isPostgres } from './helpers.ts';

// why: the first migration made ids `serial` (int4) on PostgreSQL. Ids, like money and sequence
// numbers, are 64-bit everywhere; SQLite's INTEGER is 64-bit already, so only PostgreSQL changes.
const ID_TABLES = ['users', 'sessions', 'login_logs', 'withdraw_addresses'] as const;
const REFERENCES: ReadonlyArray<[table: string, column: string]> = [
  ['users', 'referrer_id'],
  ['sessions', 'user_id'],
  ['login_logs', 'user_id'],
  ['withdraw_addresses', 'user_id'],
];

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const table of ID_TABLES) {
    await sql`alter table ${sql.table(table)} alter column id type bigint`.execute(db);
    await sql`alter sequence ${sql.table(`${table}_id_seq`)} as bigint`.execute(db);
  }
  for (const [table, column] of REFERENCES) {
    await sql`alter table ${sql.table(table)} alter column ${sql.ref(column)} type bigint`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const [table, column] of REFERENCES) {
    await sql`alter table ${sql.table(table)} alter column ${sql.ref(column)} type integer`.execute(db);
  }
  for (const table of ID_TABLES) {
    await sql`alter sequence ${sql.table(`${table}_id_seq`)} as integer`.execute(db);
    await sql`alter table ${sql.table(table)} alter column id type integer`.execute(db);
  }
}
