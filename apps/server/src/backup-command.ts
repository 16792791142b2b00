import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { loadBackupConfig, loadConfig } from './config.ts';
import { BackupError, createBackup, type RestoreReport, restoreBackup } from './modules/backups/service.ts';

/** Page cache of the store's connection while the check runs (KiB; the server's is 64 MB). */
const CHECK_CACHE_KIB = 8192;

/**
 * The ledger's full invariant check (every module's reservations registered) on a store: the
 * platform is built on it with nothing scheduled, no demo data, limits in memory and throwaway
 * keys (so no key file is created), checked, and closed.
 */
export async function checkLedgerOf(location: { dataDir: string; databaseUrl?: string }): Promise<string[]> {
  // why: only a restore needs the whole platform; `npm run backup` then loads none of it (a third
  // of its memory).
  const { buildApp } = await import('./app.ts');
  const key = () => randomBytes(32);
  const config = loadConfig(
    { DATA_DIR: location.dataDir, DEMO: 'off', CAPTCHA: 'off', LOG_LEVEL: 'silent', MARKET_MAKER: 'off' },
    {
      databaseUrl: location.databaseUrl,
      limitStore: 'memory',
      staffSecretKey: key(),
      userSecretKey: key(),
      porKey: key(),
      porSigningKey: key(),
      backup: { dir: path.join(location.dataDir, 'backups'), everyMs: 0, keep: 1 },
    },
  );
  const app = await buildApp({
    config,
    startFeed: false,
    startMarketMaker: false,
    startBackups: false,
    logger: false,
  });
  try {
    // why: the check reads every posting once, in order, so a large cache only holds pages it
    // will not read again; the server's 64 MB filled up on a year of data, all of it resident.
    app.ctx.store.durability?.sqlite.pragma(`cache_size = -${CHECK_CACHE_KIB}`);
    return (await app.ctx.ledger.checkInvariants()).problems;
  } finally {
    await app.close();
  }
}

/** `npm run backup -- [--without-keys] [--to <folder>]`; answers the exit code. */
export async function backupCommand(args: readonly string[], out = process.stdout): Promise<number> {
  const settings = loadBackupConfig();
  const to = optionValue(args, '--to');
  try {
    const created = await createBackup({
      dataDir: settings.dataDir,
      databaseUrl: settings.databaseUrl,
      backupDir: to ? path.resolve(to) : settings.backupDir,
      withKeys: !args.includes('--without-keys'),
      now: Date.now(),
    });
    const { manifest } = created;
    out.write(
      `Backup made: ${created.dir}\n` +
        `  store: ${manifest.store.dialect} (${manifest.store.file}), schema ${manifest.schemaVersion}\n` +
        `  last journal entry: ${manifest.lastEntryId}\n` +
        `  proof-of-reserves root: ${manifest.reserves?.root ?? 'none yet'}\n` +
        `  files: ${manifest.files.length} (${manifest.keys.included.length} keys)\n` +
        (manifest.storedFiles
          ? `  uploaded files in the database (inside the dump): ${manifest.storedFiles.length}\n`
          : ''),
    );
    for (const line of created.warnings) out.write(`WARNING: ${line}\n`);
    return 0;
  } catch (error) {
    return fail(error);
  }
}

/** `npm run restore -- <backup> [--force]` into `DATA_DIR` (and `DATABASE_URL`); answers the exit code. */
export async function restoreCommand(args: readonly string[], out = process.stdout): Promise<number> {
  const backup = args.find((arg) => !arg.startsWith('--'));
  if (!backup) {
    process.stderr.write('usage: npm run restore -- <backup folder> [--force]\n');
    return 2;
  }
  const settings = loadBackupConfig();
  try {
    if (!fs.existsSync(backup)) throw new BackupError(`${backup}: no such backup folder`);
    const report = await restoreBackup({
      backup: path.resolve(backup),
      dataDir: settings.dataDir,
      databaseUrl: settings.databaseUrl,
      force: args.includes('--force'),
      now: Date.now(),
      checkLedger: checkLedgerOf,
    });
    out.write(describeRestore(report, settings));
    return 0;
  } catch (error) {
    return fail(error);
  }
}

function describeRestore(report: RestoreReport, target: { dataDir: string; databaseUrl?: string }): string {
  const { manifest, facts } = report;
  const lines = [
    `Restored ${manifest.name} (made ${manifest.createdAt}) into ${target.dataDir}` +
      (target.databaseUrl ? ' and the DATABASE_URL database' : ''),
    `  every checksum matched (${manifest.files.length} files)`,
    ...(manifest.storedFiles
      ? [`  uploaded files in the database: ${manifest.storedFiles.length}, each equal to the manifest's`]
      : []),
    `  store: ${manifest.store.dialect}, schema ${facts.schemaVersion}, last journal entry ${facts.lastEntryId}`,
    `  ledger totals equal the manifest's (${facts.totals.length} asset and kind lines); every invariant holds`,
    `  proof-of-reserves root: ${facts.reserves?.root ?? 'none'} (equal to the manifest's)`,
    `  files put in place: ${report.restored.length} (${manifest.keys.included.length} of them keys)`,
    ...report.setAside.map((where) => `  what was there before is kept in ${where}`),
    ...report.warnings.map((line) => `WARNING: ${line}`),
  ];
  return `${lines.join('\n')}\n`;
}

function optionValue(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

function fail(error: unknown): number {
  const message = error instanceof BackupError ? error.message : (error as Error).stack;
  process.stderr.write(`${error instanceof BackupError ? 'Refused' : 'Failed'}: ${message}\n`);
  return 1;
}
