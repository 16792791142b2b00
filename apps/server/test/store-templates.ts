// Vitest global setup of the server suites: one migrated, empty store per dialect, made once per
// run, which `startServer` copies for each server instead of migrating a new store (a SQLite file
// copied; on PostgreSQL `CREATE DATABASE … TEMPLATE`). Seeding stays with each server: it depends
// on the server's own settings (demo data, markets, staff), so only the schema is shared.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDb } from '../src/platform/db.ts';
import { migrateToLatest } from '../src/platform/migrate.ts';
import { createPostgresDatabase, dropPostgresDatabase, postgresSkipReason } from './harness.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-template-'));
  const sqlite = openDb({ dataDir: dir });
  await migrateToLatest(sqlite.db);
  await sqlite.close();
  const sqliteFile = path.join(dir, 'bourse.sqlite');

  let postgres: { url: string } | undefined;
  if (postgresSkipReason === null) {
    postgres = await createPostgresDatabase();
    const store = openDb({ dataDir: dir, databaseUrl: postgres.url, poolSize: 1 });
    await migrateToLatest(store.db);
    // why: PostgreSQL copies a database only while nobody is connected to it.
    await store.close();
  }
  project.provide('storeTemplates', {
    sqliteFile,
    postgresDatabase: postgres ? new URL(postgres.url).pathname.slice(1) : undefined,
  });
  return async () => {
    if (postgres) await dropPostgresDatabase(postgres.url);
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
