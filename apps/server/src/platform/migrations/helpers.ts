import { type ColumnDefinitionBuilder, type Kysely, PostgresAdapter } from 'kysely';

// why: migrations are frozen in time and must not import app code; this helper is theirs alone.
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** An auto-increment primary key that works on SQLite and PostgreSQL. */
export function idColumn(
  db: Kysely<any>,
): ['integer' | 'serial', (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder] {
  return isPostgres(db)
    ? ['serial', (c) => c.primaryKey()]
    : ['integer', (c) => c.primaryKey().autoIncrement()];
}

/**
 * An auto-increment 64-bit primary key: `bigserial` on PostgreSQL; on SQLite an INTEGER PRIMARY
 * KEY, which is already a 64-bit rowid.
 */
export function bigIdColumn(
  db: Kysely<any>,
): ['integer' | 'bigserial', (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder] {
  return isPostgres(db)
    ? ['bigserial', (c) => c.primaryKey()]
    : ['integer', (c) => c.primaryKey().autoIncrement()];
}
