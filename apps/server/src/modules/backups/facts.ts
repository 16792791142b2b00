import { fromAtoms } from '@bourse/shared';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { systemClock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db.ts';
import type { Database } from '../../platform/schema.ts';
import { LedgerService } from '../ledger/service.ts';
import { latestRoot } from '../reserves/service.ts';

/** What the store held at the snapshot: schema, last journal entry, ledger totals, newest reserves root. */
export interface StoreFacts {
  /** The latest migration applied. */
  schemaVersion: string;
  /** The last journal entry's id (decimal). */
  lastEntryId: string;
  /** Per asset and account kind, the users' and the platform's balances (decimal strings, 8 places). */
  totals: { asset: string; kind: string; users: string; system: string }[];
  /** The newest proof-of-reserves snapshot with a built tree, or null. */
  reserves: { snapshotId: string; takenAt: string; ledgerSeq: string; root: string; status: string } | null;
}

/** Reads the facts a manifest records from a store (inside one transaction, or a copy no one writes). */
export async function readStoreFacts(db: Db): Promise<StoreFacts> {
  const migration = await sql<{
    name: string;
  }>`select name from kysely_migration order by name desc limit 1`.execute(db);
  const { lastEntryId, totals } = await new LedgerService({ db, clock: systemClock }).totals(db);
  const root = await latestRoot(db);
  return {
    schemaVersion: migration.rows[0]?.name ?? '',
    lastEntryId: String(lastEntryId),
    totals: totals.map((row) => ({
      asset: row.asset,
      kind: row.kind,
      users: fromAtoms(row.users),
      system: fromAtoms(row.system),
    })),
    reserves: root
      ? {
          snapshotId: String(root.snapshotId),
          takenAt: new Date(root.takenAt).toISOString(),
          ledgerSeq: String(root.ledgerSeq),
          root: root.root,
          status: root.status,
        }
      : null,
  };
}

/**
 * Opens a SQLite file no one writes (a backup's copy) read-only, answering its facts. Its
 * statements are synchronous and the ledger's totals read every account (1.7 s on a year of
 * data): a server calls it on a thread of its own (sqlite-snapshot.ts), never on its event loop.
 */
export async function readSqliteFacts(file: string): Promise<StoreFacts> {
  const sqlite = new SQLite(file, { readonly: true, fileMustExist: true });
  sqlite.defaultSafeIntegers(true);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  try {
    return await readStoreFacts(db);
  } finally {
    await db.destroy();
  }
}
