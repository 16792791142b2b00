import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { runningServerPid } from '../../platform/data-dir-lock.ts';
import { openDb } from '../../platform/db.ts';
import { FILE_STORES } from '../../platform/uploads.ts';
import { BackupError } from './backup-error.ts';
import { readSqliteFacts, readStoreFacts, type StoreFacts } from './facts.ts';
import { copyHashing, type FileRecord, hashFile, listFiles, syncDir } from './files.ts';
import { snapshotSqlite } from './sqlite-copy.ts';
import { compareStoredFiles, listStoredFiles, type StoredFileRecord } from './stored-files.ts';

/** The manifest's name inside a backup folder. */
export const MANIFEST_FILE = 'manifest.json';
/** The SQLite store's file, in `DATA_DIR` and in a backup. */
export const SQLITE_FILE = 'bourse.sqlite';
/** A PostgreSQL store's dump (`pg_dump -Fc`) in a backup. */
export const PG_DUMP_FILE = 'bourse.pgdump';
/**
 * Folders of `DATA_DIR` holding images on a SQLite store: public uploads, identity documents,
 * support-chat pictures. On PostgreSQL these are in the database (`storedFiles` of the manifest);
 * the folders are still copied there, should one hold files written before that.
 */
export const IMAGE_DIRS = FILE_STORES;
/** Key files of `DATA_DIR` (created at the first start when their setting is unset), with what each protects. */
export const KEY_FILES = {
  'staff-secret.key': 'STAFF_SECRET_KEY: without it staff must enrol their two-factor codes again',
  'user-secret.key':
    "USER_SECRET_KEY: without it customers' two-factor codes stop working and identity document numbers cannot be matched",
  'por.key': "POR_KEY: without it the proof of reserves' salts change and old proofs cannot be re-derived",
  'por-signing.key':
    'POR_SIGNING_KEY: without it new proof-of-reserves headers are signed by a new key your customers do not know',
} as const;
export type KeyFile = keyof typeof KEY_FILES;

const NAME_PREFIX = 'bourse-backup-';
const NAME_PATTERN = /^bourse-backup-\d{8}T\d{9}Z$/;

export { BackupError } from './backup-error.ts';

export { readSqliteFacts, readStoreFacts, type StoreFacts } from './facts.ts';

export interface BackupManifest extends StoreFacts {
  format: 'bourse-backup';
  version: 1;
  name: string;
  createdAt: string;
  store: { dialect: 'sqlite' | 'postgres'; file: string };
  /** Key files in the backup; `leftOut` ones were in `DATA_DIR` but not copied (`--without-keys`). */
  keys: { included: KeyFile[]; leftOut: KeyFile[] };
  files: FileRecord[];
  /**
   * PostgreSQL: the uploaded files kept in the database (in the dump, not beside it), each with
   * its SHA-256, checked in the restored database. Absent in a SQLite backup.
   */
  storedFiles?: StoredFileRecord[];
}

export interface BackupSource {
  dataDir: string;
  /** `postgres://…`: the database is dumped with `pg_dump`; unset: the SQLite file in `dataDir`. */
  databaseUrl?: string;
}

export interface CreateBackupOptions extends BackupSource {
  backupDir: string;
  /** Copy the key files too (default); false for a copy that leaves the premises. */
  withKeys?: boolean;
  /** The backup's time (unix ms), in its name. */
  now: number;
  /** The `pg_dump` program (default: `pg_dump` on the PATH). */
  pgDump?: string;
  /**
   * SQLite: copy through this process's own connection to the store when it has one open (the
   * server's scheduled backups; default). false: always through a connection of its own, as a
   * process without the store open does (`npm run backup`).
   */
  useOpenConnection?: boolean;
}

export interface CreatedBackup {
  dir: string;
  manifest: BackupManifest;
  /** What the operator must know, e.g. which keys a restore will need from elsewhere. */
  warnings: string[];
}

/** True for a PostgreSQL connection URL. */
export function isPostgresUrl(url: string | undefined): url is string {
  return url !== undefined && /^postgres(ql)?:\/\//.test(url);
}

/** `20261127T104639123Z`: sorts as time does, and is safe in a file name everywhere. */
export function timeStamp(at: number): string {
  return new Date(at).toISOString().replace(/[-:.]/g, '');
}

/**
 * Makes a backup while the server runs: a consistent snapshot of the store (SQLite: see
 * {@link snapshotSqlite}; `pg_dump` in the snapshot the facts were read in), then the images and
 * the key files, into `backupDir/bourse-backup-<time>` with a manifest of every file's SHA-256 and
 * the store's facts. The store comes first: an image is written before the row that names it, so
 * every image the snapshot refers to is copied. On PostgreSQL the images are rows of the store, in
 * the dump; the manifest lists each with its SHA-256, read in the same snapshot, and a restore
 * checks them in the restored database. The folder is written as `<name>.partial` and
 * renamed once complete, so a backup cut short never looks like one.
 */
export async function createBackup(options: CreateBackupOptions): Promise<CreatedBackup> {
  const name = `${NAME_PREFIX}${timeStamp(options.now)}`;
  const dir = path.join(options.backupDir, name);
  const partial = `${dir}.partial`;
  await fs.promises.mkdir(options.backupDir, { recursive: true, mode: 0o700 });
  if (fs.existsSync(dir)) throw new BackupError(`${dir} exists already`);
  await fs.promises.rm(partial, { recursive: true, force: true });
  await fs.promises.mkdir(partial, { mode: 0o700 });
  try {
    const postgres = isPostgresUrl(options.databaseUrl);
    const storeFile = postgres ? PG_DUMP_FILE : SQLITE_FILE;
    const target = path.join(partial, storeFile);
    let facts: StoreFacts & { storedFiles?: StoredFileRecord[] };
    let stored: { sha256: string; bytes: number };
    if (postgres) {
      facts = await dumpPostgres(options.databaseUrl as string, target, options.pgDump);
      stored = await hashFile(target);
    } else {
      const snapshot = await snapshotSqlite(path.join(options.dataDir, SQLITE_FILE), target, {
        useOpenConnection: options.useOpenConnection ?? true,
      });
      facts = snapshot.facts;
      stored = { sha256: snapshot.sha256, bytes: snapshot.bytes };
    }
    const files: FileRecord[] = [{ path: storeFile, ...stored }];
    for (const folder of IMAGE_DIRS) {
      for (const file of await listFiles(path.join(options.dataDir, folder))) {
        const relative = `${folder}/${file}`;
        const copied = await copyHashing(path.join(options.dataDir, relative), path.join(partial, relative));
        files.push({ path: relative, ...copied });
      }
    }
    const keys: BackupManifest['keys'] = { included: [], leftOut: [] };
    for (const key of Object.keys(KEY_FILES) as KeyFile[]) {
      const from = path.join(options.dataDir, key);
      if (!fs.existsSync(from)) continue;
      if (options.withKeys === false) {
        keys.leftOut.push(key);
        continue;
      }
      files.push({ path: key, ...(await copyHashing(from, path.join(partial, key), 0o600)) });
      keys.included.push(key);
    }
    const manifest: BackupManifest = {
      format: 'bourse-backup',
      version: 1,
      name,
      createdAt: new Date(options.now).toISOString(),
      store: { dialect: postgres ? 'postgres' : 'sqlite', file: storeFile },
      ...facts,
      keys,
      files,
    };
    const manifestFile = path.join(partial, MANIFEST_FILE);
    await fs.promises.writeFile(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    const handle = await fs.promises.open(manifestFile, 'r');
    await handle.sync().finally(() => handle.close());
    await syncDir(partial);
    await fs.promises.rename(partial, dir);
    await syncDir(options.backupDir);
    return { dir, manifest, warnings: keyWarnings(keys.leftOut, 'left out of this backup') };
  } catch (error) {
    await fs.promises.rm(partial, { recursive: true, force: true });
    throw error;
  }
}

function keyWarnings(keys: readonly KeyFile[], what: string): string[] {
  if (keys.length === 0) return [];
  return [
    `${keys.join(', ')} ${keys.length === 1 ? 'was' : 'were'} ${what}: keep ${keys.length === 1 ? 'it' : 'them'} ` +
      'apart (another safe place), since a restore needs each one as its file in DATA_DIR or as its setting:',
    ...keys.map((key) => `  ${key} (${KEY_FILES[key]})`),
  ];
}

/** The complete backups in `backupDir`, oldest first (names sort as time does). */
export async function listBackups(backupDir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await fs.promises.readdir(backupDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return names
    .filter((name) => NAME_PATTERN.test(name) && fs.existsSync(path.join(backupDir, name, MANIFEST_FILE)))
    .sort();
}

/** A `.partial` folder untouched this long was left by a backup that died (a running one writes to it). */
const ABANDONED_AFTER_MS = 24 * 60 * 60_000;

/**
 * Removes all but the newest `keep` complete backups in `backupDir`, and `.partial` folders left by
 * backups that died; answers the names removed.
 */
export async function pruneBackups(backupDir: string, keep: number): Promise<string[]> {
  const names = await listBackups(backupDir);
  const removed = names.slice(0, Math.max(0, names.length - keep));
  for (const entry of await fs.promises.readdir(backupDir)) {
    if (!entry.startsWith(NAME_PREFIX) || !entry.endsWith('.partial')) continue;
    // why: file times, not the scheduler's clock: the question is whether a process still writes there.
    const stat = await fs.promises.stat(path.join(backupDir, entry)).catch(() => undefined);
    if (stat && Date.now() - stat.mtimeMs > ABANDONED_AFTER_MS) removed.push(entry);
  }
  for (const name of removed)
    await fs.promises.rm(path.join(backupDir, name), { recursive: true, force: true });
  return removed;
}

/** Reads a backup's manifest; a refusal when it is missing or not one. */
export async function readManifest(backup: string): Promise<BackupManifest> {
  let text: string;
  try {
    text = await fs.promises.readFile(path.join(backup, MANIFEST_FILE), 'utf8');
  } catch {
    throw new BackupError(
      `${backup} has no ${MANIFEST_FILE}: not a Bourse backup, or one that was not finished`,
    );
  }
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(text) as BackupManifest;
  } catch {
    throw new BackupError(`${path.join(backup, MANIFEST_FILE)} is not valid JSON: the backup is damaged`);
  }
  if (manifest.format !== 'bourse-backup' || manifest.version !== 1 || !Array.isArray(manifest.files)) {
    throw new BackupError(`${path.join(backup, MANIFEST_FILE)} is not a Bourse backup manifest (version 1)`);
  }
  for (const file of manifest.files) {
    // why: a manifest names where files go on restore; none may point outside the target.
    if (path.isAbsolute(file.path) || file.path.split('/').includes('..')) {
      throw new BackupError(`the manifest names a file outside the backup: ${file.path}`);
    }
  }
  return manifest;
}

/**
 * Checks every file the manifest lists: present, of its size and SHA-256. Answers the manifest
 * and one line per problem (none: the backup is whole).
 */
export async function verifyBackup(
  backup: string,
): Promise<{ manifest: BackupManifest; problems: string[] }> {
  const manifest = await readManifest(backup);
  const problems: string[] = [];
  for (const file of manifest.files) {
    const where = path.join(backup, file.path);
    if (!fs.existsSync(where)) {
      problems.push(`${file.path}: missing from the backup`);
      continue;
    }
    const found = await hashFile(where);
    if (found.sha256 !== file.sha256 || found.bytes !== file.bytes) {
      problems.push(`${file.path}: checksum differs from the manifest (the file is damaged or was changed)`);
    }
  }
  return { manifest, problems };
}

/** One line per fact of `actual` that differs from the manifest's. */
export function compareFacts(expected: StoreFacts, actual: StoreFacts): string[] {
  const differences: string[] = [];
  if (expected.schemaVersion !== actual.schemaVersion) {
    differences.push(`schema version ${actual.schemaVersion}, the manifest says ${expected.schemaVersion}`);
  }
  if (expected.lastEntryId !== actual.lastEntryId) {
    differences.push(`last journal entry ${actual.lastEntryId}, the manifest says ${expected.lastEntryId}`);
  }
  const key = (row: StoreFacts['totals'][number]) => `${row.asset} ${row.kind}`;
  const found = new Map(actual.totals.map((row) => [key(row), row]));
  for (const row of expected.totals) {
    const other = found.get(key(row));
    found.delete(key(row));
    if (!other)
      differences.push(`${key(row)}: absent, the manifest says users ${row.users}, system ${row.system}`);
    else if (other.users !== row.users || other.system !== row.system) {
      differences.push(
        `${key(row)}: users ${other.users}, system ${other.system}; the manifest says users ${row.users}, system ${row.system}`,
      );
    }
  }
  for (const row of found.values())
    differences.push(`${key(row)}: present, the manifest has no such account`);
  if ((expected.reserves?.root ?? null) !== (actual.reserves?.root ?? null)) {
    differences.push(
      `proof-of-reserves root ${actual.reserves?.root ?? 'none'}, the manifest says ${expected.reserves?.root ?? 'none'}`,
    );
  }
  return differences;
}

/**
 * Dumps a PostgreSQL store with `pg_dump -Fc` in the snapshot its facts are read in: a
 * repeatable-read transaction exports its snapshot, reads the facts, and stays open while
 * `pg_dump --snapshot` dumps exactly what it saw.
 */
async function dumpPostgres(
  url: string,
  file: string,
  pgDump = 'pg_dump',
): Promise<StoreFacts & { storedFiles: StoredFileRecord[] }> {
  const handle = openDb({ databaseUrl: url, dataDir: '', poolSize: 1 });
  try {
    return await handle.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        const exported = await sql<{ id: string }>`select pg_export_snapshot() as id`.execute(trx);
        const facts = await readStoreFacts(trx);
        const storedFiles = await listStoredFiles(trx);
        // why: on two cores the dump's compression (zlib at its default level) took a core from
        // order entry beside it: p99 17.8 → 617 ms while a year's store was dumped.
        await runTool(
          pgDump,
          [
            '--format=custom',
            '--compress=1',
            `--snapshot=${exported.rows[0]?.id}`,
            '--file',
            file,
            '--dbname',
            url,
          ],
          { background: true },
        );
        return { ...facts, storedFiles };
      });
  } finally {
    await handle.close();
  }
}

/**
 * Runs a PostgreSQL client program; its standard error is the refusal's message when it fails.
 * `background`: at a lower priority (where the system allows), as a dump beside order entry is.
 */
function runTool(
  program: string,
  args: readonly string[],
  options: { background?: boolean } = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    if (options.background && child.pid !== undefined) {
      try {
        os.setPriority(child.pid, BACKGROUND_PRIORITY);
      } catch {
        // why: a system that refuses only loses the priority, not the backup.
      }
    }
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 16_384) stderr += chunk.toString();
    });
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new BackupError(
              `${program} was not found: install the PostgreSQL client (Debian: postgresql-client)`,
            )
          : error,
      ),
    );
    child.once('close', (code) =>
      code === 0
        ? resolve()
        : reject(new BackupError(`${path.basename(program)} failed (exit ${code}): ${stderr.trim()}`)),
    );
  });
}

/** The dump's priority (nice value) beside the server. */
const BACKGROUND_PRIORITY = 10;

export interface RestoreOptions {
  /** The backup folder. */
  backup: string;
  /** Where the files go (and, without `databaseUrl`, the SQLite store). */
  dataDir: string;
  /** The PostgreSQL database a PostgreSQL backup is restored into. */
  databaseUrl?: string;
  /** Set an existing store (and its images, and keys the backup replaces) aside instead of refusing. */
  force?: boolean;
  now: number;
  /**
   * Runs the ledger's invariant check on a store (the full one, with every module's reservations:
   * the caller builds the platform on it). Answers the problems, none when it holds.
   */
  checkLedger(location: { dataDir: string; databaseUrl?: string }): Promise<string[]>;
  pgRestore?: string;
}

export interface RestoreReport {
  manifest: BackupManifest;
  /** Files put in place, by their path in `DATA_DIR` (the store first). */
  restored: string[];
  /** Facts read back from the restored store (equal to the manifest's). */
  facts: StoreFacts;
  /** Where what was there before went (`--force`): a folder, and on PostgreSQL a schema. */
  setAside: string[];
  warnings: string[];
}

/**
 * Restores a backup into `dataDir` (and `databaseUrl`): refuses while a server holds `dataDir`,
 * when any file's checksum differs, or when a store is there already (unless `force`, which sets
 * the old one aside under a timestamped name). A SQLite backup is copied into a staging folder
 * first, its facts compared with the manifest and its ledger checked there, and put in place
 * only then; a PostgreSQL dump is restored with `pg_restore`, then compared and checked.
 */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreReport> {
  const { manifest, problems } = await verifyBackup(options.backup);
  if (problems.length > 0) {
    throw new BackupError(
      `the backup ${options.backup} is damaged; nothing was restored:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
  }
  const postgres = manifest.store.dialect === 'postgres';
  if (postgres && !isPostgresUrl(options.databaseUrl)) {
    throw new BackupError(
      'this is a backup of a PostgreSQL store: set DATABASE_URL to the database to restore into',
    );
  }
  if (!postgres && options.databaseUrl) {
    throw new BackupError(
      'this is a backup of a SQLite store: unset DATABASE_URL to restore it into DATA_DIR',
    );
  }
  const pid = runningServerPid(options.dataDir);
  if (pid !== undefined) {
    throw new BackupError(
      `a server (pid ${pid}) runs on ${options.dataDir}: stop it first ` +
        `(if none runs, delete ${path.join(options.dataDir, 'server.pid')})`,
    );
  }
  const stamp = timeStamp(options.now);
  const topLevel = [...new Set(manifest.files.map((file) => file.path.split('/')[0] as string))].filter(
    (item) => item !== PG_DUMP_FILE,
  );
  // why: a SQLite store is its file with its WAL and shared memory; the old WAL beside a new file would corrupt it.
  const candidates = [
    ...topLevel.flatMap((item) => (item === SQLITE_FILE ? [item, `${item}-wal`, `${item}-shm`] : [item])),
    ...IMAGE_DIRS.filter((dir) => !topLevel.includes(dir)),
  ].filter((item) => isOccupied(path.join(options.dataDir, item)));
  const replaced: string[] = [];
  for (const item of candidates) {
    // why: a key file equal to the backup's is not in the way (the usual case: the same installation).
    const record = item in KEY_FILES ? manifest.files.find((file) => file.path === item) : undefined;
    if (record && (await hashFile(path.join(options.dataDir, item))).sha256 === record.sha256) continue;
    replaced.push(item);
  }
  const occupiedDatabase = postgres ? await databaseState(options.databaseUrl as string) : undefined;
  if (occupiedDatabase && occupiedDatabase.otherSessions > 0) {
    throw new BackupError(
      `${occupiedDatabase.otherSessions} other session(s) are connected to the target database: stop every server using it first`,
    );
  }
  const occupied = [...replaced, ...(occupiedDatabase?.tables ? ['the database (it has tables)'] : [])];
  if (occupied.length > 0 && !options.force) {
    throw new BackupError(
      `the target already holds ${occupied.join(', ')}; nothing was restored. ` +
        'Restore into an empty DATA_DIR (and database), or add --force to set what is there aside',
    );
  }

  await fs.promises.mkdir(options.dataDir, { recursive: true });
  const staging = path.join(options.dataDir, `.restore-${stamp}`);
  await fs.promises.mkdir(staging, { mode: 0o700 });
  const setAside: string[] = [];
  let facts: StoreFacts;
  try {
    for (const file of manifest.files) {
      if (file.path === PG_DUMP_FILE) continue;
      const mode = file.path in KEY_FILES ? 0o600 : undefined;
      const copied = await copyHashing(
        path.join(options.backup, file.path),
        path.join(staging, file.path),
        mode,
      );
      if (copied.sha256 !== file.sha256) {
        throw new BackupError(`${file.path} changed while it was restored; nothing was restored`);
      }
    }
    let location: { dataDir: string; databaseUrl?: string };
    if (postgres) {
      const url = options.databaseUrl as string;
      if (occupiedDatabase?.tables) {
        const schema = `public_replaced_${stamp.toLowerCase()}`;
        await setSchemaAside(url, schema);
        setAside.push(`schema ${schema} of the database`);
      }
      await runTool(options.pgRestore ?? 'pg_restore', [
        '--no-owner',
        '--no-privileges',
        '--exit-on-error',
        '--dbname',
        url,
        path.join(options.backup, PG_DUMP_FILE),
      ]);
      const read = await readPostgresFacts(url);
      ({ facts } = read);
      location = { dataDir: staging, databaseUrl: url };
      // why: the files in the database are inside the dump, so they are checked once restored.
      const fileProblems = compareStoredFiles(manifest.storedFiles ?? [], read.storedFiles);
      if (fileProblems.length > 0) {
        throw new BackupError(
          `the restored database's files differ from the manifest:\n${fileProblems.map((p) => `  - ${p}`).join('\n')}`,
        );
      }
    } else {
      facts = await readSqliteFacts(path.join(staging, SQLITE_FILE));
      location = { dataDir: staging };
    }
    const differences = compareFacts(manifest, facts);
    if (differences.length > 0) {
      throw new BackupError(
        `the restored store differs from the manifest${postgres ? '' : '; nothing was put in place'}:\n` +
          differences.map((d) => `  - ${d}`).join('\n'),
      );
    }
    // why: the check runs on the staged copy, before anything in DATA_DIR is touched.
    const ledgerProblems = await options.checkLedger(location);
    if (ledgerProblems.length > 0) {
      throw new BackupError(
        `the restored ledger fails its invariant check${postgres ? '' : '; nothing was put in place'}:\n` +
          ledgerProblems.map((p) => `  - ${p}`).join('\n'),
      );
    }
    if (replaced.length > 0) {
      const aside = path.join(options.dataDir, `replaced-${stamp}`);
      await fs.promises.mkdir(aside, { mode: 0o700 });
      for (const item of replaced)
        await fs.promises.rename(path.join(options.dataDir, item), path.join(aside, item));
      setAside.push(aside);
    }
    for (const item of topLevel) {
      await fs.promises.rename(path.join(staging, item), path.join(options.dataDir, item));
    }
    await syncDir(options.dataDir);
  } finally {
    await fs.promises.rm(staging, { recursive: true, force: true });
  }
  const missingKeys = (Object.keys(KEY_FILES) as KeyFile[]).filter(
    (key) => !fs.existsSync(path.join(options.dataDir, key)) && manifest.keys.leftOut.includes(key),
  );
  return {
    manifest,
    restored: manifest.files.filter((file) => file.path !== PG_DUMP_FILE).map((file) => file.path),
    facts,
    setAside,
    warnings:
      missingKeys.length === 0
        ? []
        : [
            `${missingKeys.join(', ')} ${missingKeys.length === 1 ? 'is' : 'are'} in neither the backup nor DATA_DIR. ` +
              'Before starting the server, put each key file of the backed-up installation in DATA_DIR or give its ' +
              'setting; a server started without them creates new keys, and then:',
            ...missingKeys.map((key) => `  ${key} (${KEY_FILES[key]})`),
          ],
  };
}

function isOccupied(target: string): boolean {
  try {
    const stat = fs.statSync(target);
    return !stat.isDirectory() || fs.readdirSync(target).length > 0;
  } catch {
    return false;
  }
}

async function databaseState(url: string): Promise<{ tables: number; otherSessions: number }> {
  const handle = openDb({ databaseUrl: url, dataDir: '', poolSize: 1 });
  try {
    const tables = await sql<{ n: bigint }>`select count(*)::int8 as n from information_schema.tables
      where table_schema = 'public'`.execute(handle.db);
    const sessions = await sql<{ n: bigint }>`select count(*)::int8 as n from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid()`.execute(handle.db);
    return { tables: Number(tables.rows[0]?.n ?? 0n), otherSessions: Number(sessions.rows[0]?.n ?? 0n) };
  } finally {
    await handle.close();
  }
}

async function setSchemaAside(url: string, schema: string): Promise<void> {
  const handle = openDb({ databaseUrl: url, dataDir: '', poolSize: 1 });
  try {
    await handle.db.transaction().execute(async (trx) => {
      await sql`alter schema public rename to ${sql.id(schema)}`.execute(trx);
      await sql`create schema public`.execute(trx);
    });
  } finally {
    await handle.close();
  }
}

async function readPostgresFacts(
  url: string,
): Promise<{ facts: StoreFacts; storedFiles: StoredFileRecord[] }> {
  const handle = openDb({ databaseUrl: url, dataDir: '', poolSize: 1 });
  try {
    return await handle.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => ({
        facts: await readStoreFacts(trx),
        storedFiles: await listStoredFiles(trx),
      }));
  } finally {
    await handle.close();
  }
}
