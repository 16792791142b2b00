import { spawnSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkLedgerOf } from '../src/backup-command.ts';
import {
  type BackupManifest,
  compareFacts,
  createBackup,
  listBackups,
  readStoreFacts,
  restoreBackup,
  type StoreFacts,
} from '../src/modules/backups/service.ts';
import { latestRoot } from '../src/modules/reserves/service.ts';
import { DATA_DIR_LOCK_FILE, holdDataDirLock } from '../src/platform/data-dir-lock.ts';
import { newTrader } from './delivery-harness.ts';
import { createPostgresDatabase, DIALECTS, startServer, type TestServer } from './harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';
import { captureLog } from './logged-server.ts';
import { ADDRESSES, fund, newUser, pngImage, postDeposit, saveAddress, withdraw } from './wallet-harness.ts';

const ENV = { DEMO: 'on', LIMIT_REGISTER_PER_IP: '1000/3600', LIMIT_PASSWORD_CHECKS: '1000/900' };
const temporary: string[] = [];

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-backup-test-'));
  temporary.push(dir);
  return dir;
}

afterAll(() => {
  for (const dir of temporary) fs.rmSync(dir, { recursive: true, force: true });
});

const hasPgDump = spawnSync('pg_dump', ['--version']).status === 0;
if (!hasPgDump) console.warn('[skip] PostgreSQL backup suite skipped: pg_dump is not on the PATH');

async function storeFacts(server: TestServer): Promise<StoreFacts> {
  return server.app.ctx.store.db.transaction().execute((trx) => readStoreFacts(trx));
}

describe.each(DIALECTS)('a backup under load on $name restores to the same money', ({ name, skip }) => {
  const skipped = skip || (name === 'postgres' && !hasPgDump);
  let server: TestServer | undefined;
  let restored: TestServer | undefined;
  const dropTarget: (() => Promise<void>)[] = [];
  afterAll(async () => {
    await restored?.close();
    await server?.close();
    for (const drop of dropTarget) await drop();
  });

  it.skipIf(skipped)(
    'keeps every write acknowledged before it started, each one whole, its totals and its reserves root',
    async () => {
      server = await startServer(name, { env: ENV });
      const live = server;
      const traders = await Promise.all([newTrader(live), newTrader(live)]);
      const payers = await Promise.all([newUser(live), newUser(live), newUser(live)]);
      // why: each deposit uploads a voucher, so the backup carries images the store refers to.
      for (const payer of payers) await fund(live, payer, 'USDT', 'TRC20', '500');
      const addressOf = await Promise.all(
        payers.map((payer) =>
          saveAddress(live, payer.token, { coin: 'USDT', network: 'TRC20', address: ADDRESSES.trx }),
        ),
      );
      const now = live.clock.now();
      await live.app.ctx.reserves?.service.takeSnapshot(now - (now % 1000));

      const placeOrder = (trader: (typeof traders)[number], i: number) =>
        live.call(
          'POST',
          '/Trade/place',
          {
            symbol: 'BTCUSDT',
            idempotency_key: randomUUID(),
            side: i % 2 === 0 ? 'buy' : 'sell',
            type: 'limit',
            price: i % 2 === 0 ? '40000' : '60000',
            qty: '0.001',
          },
          { token: trader.token, lang: 'en-us' },
        );
      const orders: { id: string; beforeBackup: boolean }[] = [];
      const withdrawals: { id: string; beforeBackup: boolean }[] = [];
      let backupStarted = false;
      let tenAcknowledged: () => void = () => {};
      const acknowledged = new Promise<void>((resolve) => {
        tenAcknowledged = resolve;
      });
      const burst = [
        ...Array.from({ length: 60 }, async (_, i) => {
          const answer = await placeOrder(traders[i % 2] as (typeof traders)[number], i);
          expect(answer).toMatchObject({ code: 1000 });
          orders.push({ id: String(answer.data.id), beforeBackup: !backupStarted });
          if (orders.length === 10) tenAcknowledged();
        }),
        ...Array.from({ length: 9 }, async (_, i) => {
          const payer = payers[i % 3] as (typeof payers)[number];
          const answer = await withdraw(live, payer.token, {
            coin: 'USDT',
            address_id: addressOf[i % 3] as string,
            amount: '10',
            paypassword: payer.payPassword,
          });
          expect(answer).toMatchObject({ code: 1000 });
          withdrawals.push({ id: String(answer.data.id), beforeBackup: !backupStarted });
        }),
      ];
      // why: the backup starts once part of the burst is acknowledged, while the rest is in flight.
      await Promise.race([acknowledged, Promise.all(burst)]);
      backupStarted = true;
      const backupDir = tempDir();
      // why: everything committed before the backup starts must be in it (a torn copy lags behind).
      const committedBefore = (await live.app.ctx.ledger.totals()).lastEntryId;
      const created = await createBackup({ ...live.store, backupDir, now: Date.now() });
      await Promise.all(burst);
      expect(orders.length).toBe(60);
      expect(withdrawals.length).toBe(9);
      const manifest: BackupManifest = created.manifest;
      expect(BigInt(manifest.lastEntryId)).toBeGreaterThanOrEqual(committedBefore);
      expect(manifest.reserves?.root).toMatch(/^[0-9a-f]{64}$/);
      // why: on PostgreSQL the images are rows of the store, inside the dump, listed with their checksums.
      if (name === 'postgres') {
        expect(manifest.files.some((file) => file.path.startsWith('uploads/'))).toBe(false);
        expect(manifest.storedFiles?.filter((file) => file.store === 'uploads')).toHaveLength(3);
      } else {
        expect(manifest.files.some((file) => file.path.startsWith('uploads/'))).toBe(true);
        expect(manifest.storedFiles).toBeUndefined();
      }
      expect(manifest.keys.included.sort()).toEqual([
        'por-signing.key',
        'por.key',
        'staff-secret.key',
        'user-secret.key',
      ]);

      const target = tempDir();
      let databaseUrl: string | undefined;
      if (name === 'postgres') {
        const database = await createPostgresDatabase();
        dropTarget.push(database.drop);
        databaseUrl = database.url;
      }
      const report = await restoreBackup({
        backup: created.dir,
        dataDir: target,
        databaseUrl,
        now: Date.now(),
        checkLedger: checkLedgerOf,
      });
      expect(report.restored.length).toBe(manifest.files.length - (name === 'postgres' ? 1 : 0));
      // A second restore finds a store there: refused, then set aside with --force.
      const again = {
        backup: created.dir,
        dataDir: target,
        databaseUrl,
        now: Date.now(),
        checkLedger: checkLedgerOf,
      };
      await expect(restoreBackup(again)).rejects.toThrow(/^the target already holds .*nothing was restored/);
      const forced = await restoreBackup({ ...again, force: true });
      expect(forced.setAside).toEqual(
        // why: on PostgreSQL the images are in the database, set aside with its schema; DATA_DIR
        // holds only key files, equal to the backup's, so nothing there is in the way.
        name === 'postgres'
          ? [expect.stringMatching(/^schema public_replaced_\d{8}t\d{9}z of the database$/)]
          : [expect.stringMatching(/replaced-\d{8}T\d{9}Z$/)],
      );

      restored = await startServer(name, {
        env: { ...ENV, DEMO: 'off' },
        reuse: { dataDir: target, databaseUrl },
      });
      await expectLedgerInvariants(restored);
      expect(compareFacts(manifest, await storeFacts(restored))).toEqual([]);
      expect((await latestRoot(restored.app.ctx.store.db))?.root).toBe(manifest.reserves?.root);

      const rdb = restored.app.ctx.store.db;
      // A withdrawal and its freeze are one transaction: the restored store holds both or neither.
      // why: on PostgreSQL a sequence hands out ids in start order, not commit order, so an entry
      // below the manifest's last id may have committed after the snapshot; "id <= last" proves nothing.
      for (const w of withdrawals) {
        const row = await rdb
          .selectFrom('withdrawals')
          .select('id')
          .where('id', '=', BigInt(w.id))
          .executeTakeFirst();
        const entry = await rdb
          .selectFrom('journal_entries')
          .select('id')
          .where('ref', '=', `withdrawal:${w.id}`)
          .executeTakeFirst();
        expect({ id: w.id, row: row !== undefined, entry: entry !== undefined }).toEqual({
          id: w.id,
          row: entry !== undefined,
          entry: w.beforeBackup ? true : entry !== undefined,
        });
      }
      const kept = await rdb
        .selectFrom('spot_orders')
        .select('id')
        .where(
          'id',
          'in',
          orders.filter((o) => o.beforeBackup).map((o) => BigInt(o.id)),
        )
        .execute();
      expect(kept.length).toBe(orders.filter((o) => o.beforeBackup).length);
      for (const file of manifest.files.filter((f) => f.path.startsWith('uploads/'))) {
        expect(fs.existsSync(path.join(target, file.path))).toBe(true);
      }
      // The restored node serves every voucher the backup holds, byte for byte.
      for (const file of manifest.storedFiles ?? []) {
        const response = await fetch(`${restored.url}/Upload/public/${file.name}`);
        const bytes = Buffer.from(await response.arrayBuffer());
        expect([response.status, bytes.length]).toEqual([200, file.bytes]);
        expect(createHash('sha256').update(bytes).digest('hex')).toBe(file.sha256);
      }
    },
  );
});

describe('restore refuses what it cannot trust', () => {
  let server: TestServer | undefined;
  let backup: string;
  afterAll(async () => {
    await server?.close();
  });

  async function freshBackup(): Promise<string> {
    if (!server) {
      server = await startServer('sqlite', { env: ENV });
      const user = await newUser(server);
      const sent = await postDeposit(
        server,
        user.token,
        { coin: 'USDT', network: 'TRC20', amount: '10' },
        { data: await pngImage(), filename: 'voucher.png' },
      );
      expect(sent.code).toBe(1000);
      backup = (await createBackup({ ...server.store, backupDir: tempDir(), now: Date.now() })).dir;
    }
    const copy = path.join(tempDir(), 'backup');
    fs.cpSync(backup, copy, { recursive: true });
    return copy;
  }

  const restoreInto = (copy: string, dataDir: string, force = false) =>
    restoreBackup({ backup: copy, dataDir, force, now: Date.now(), checkLedger: checkLedgerOf });

  it('refuses a store with one byte flipped, and leaves the target untouched', async () => {
    const copy = await freshBackup();
    const file = path.join(copy, 'bourse.sqlite');
    const bytes = fs.readFileSync(file);
    bytes[Math.floor(bytes.length / 2)] = (bytes[Math.floor(bytes.length / 2)] as number) ^ 0x01;
    fs.writeFileSync(file, bytes);
    const target = tempDir();
    await expect(restoreInto(copy, target)).rejects.toThrow(
      /damaged; nothing was restored:\n {2}- bourse\.sqlite: checksum differs from the manifest/,
    );
    expect(fs.readdirSync(target)).toEqual([]);
  });

  it('npm run restore prints what it restored, and refuses a damaged backup with exit code 1', async () => {
    const copy = await freshBackup();
    const run = (dataDir: string) =>
      spawnSync(process.execPath, [path.join(import.meta.dirname, '../../../scripts/restore.ts'), copy], {
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
        encoding: 'utf8',
      });
    const done = run(tempDir());
    expect(done.stderr).toBe('');
    expect(done.status).toBe(0);
    expect(done.stdout).toMatch(/^Restored bourse-backup-\d{8}T\d{9}Z .*\n {2}every checksum matched/);
    expect(done.stdout).toContain('every invariant holds');
    fs.rmSync(path.join(copy, 'staff-secret.key'));
    const refused = run(tempDir());
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('Refused: the backup');
    expect(refused.stderr).toContain('staff-secret.key: missing from the backup');
  });

  it('refuses a backup with an image missing', async () => {
    const copy = await freshBackup();
    const [image] = fs
      .readdirSync(path.join(copy, 'uploads'), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile());
    if (!image) throw new Error('the backup has no image');
    const missing = path.relative(copy, path.join(image.parentPath, image.name));
    fs.rmSync(path.join(copy, missing));
    await expect(restoreInto(copy, tempDir())).rejects.toThrow(`${missing}: missing from the backup`);
  });

  it('refuses while a server holds the target, and an existing store without --force', async () => {
    const copy = await freshBackup();
    const target = tempDir();
    const lock = holdDataDirLock(target);
    await expect(restoreInto(copy, target)).rejects.toThrow(
      `a server (pid ${process.pid}) runs on ${target}`,
    );
    lock.release();
    expect(fs.existsSync(path.join(target, DATA_DIR_LOCK_FILE))).toBe(false);

    await restoreInto(copy, target);
    await expect(restoreInto(copy, target)).rejects.toThrow(/the target already holds bourse\.sqlite/);
    const forced = await restoreInto(copy, target, true);
    expect(forced.setAside).toHaveLength(1);
    const aside = forced.setAside[0] as string;
    expect(path.basename(aside)).toMatch(/^replaced-\d{8}T\d{9}Z$/);
    expect(fs.existsSync(path.join(aside, 'bourse.sqlite'))).toBe(true);
    expect(fs.existsSync(path.join(target, 'bourse.sqlite'))).toBe(true);
  });
});

describe.skipIf(DIALECTS[1]?.skip !== false || !hasPgDump)(
  'a PostgreSQL restore checks the files in the database',
  () => {
    let server: TestServer | undefined;
    const drops: (() => Promise<void>)[] = [];
    afterAll(async () => {
      await server?.close();
      for (const drop of drops) await drop();
    });

    it('refuses when a file the manifest lists is changed or absent in the restored database', async () => {
      server = await startServer('postgres', { env: ENV });
      const user = await newUser(server);
      const sent = await postDeposit(
        server,
        user.token,
        { coin: 'USDT', network: 'TRC20', amount: '10' },
        { data: await pngImage(), filename: 'voucher.png' },
      );
      expect(sent.code).toBe(1000);
      const created = await createBackup({ ...server.store, backupDir: tempDir(), now: Date.now() });
      const [voucher] = created.manifest.storedFiles ?? [];
      expect(voucher).toMatchObject({
        store: 'uploads',
        name: sent.data.voucher.replace('/Upload/public/', ''),
      });
      const manifestFile = path.join(created.dir, 'manifest.json');
      const changed: BackupManifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
      const missing = `${'0'.repeat(32)}.webp`;
      changed.storedFiles = [
        { ...(voucher as NonNullable<typeof voucher>), sha256: 'f'.repeat(64) },
        { store: 'identity', name: missing, bytes: 10, sha256: 'e'.repeat(64) },
      ];
      fs.writeFileSync(manifestFile, JSON.stringify(changed));
      const database = await createPostgresDatabase();
      drops.push(database.drop);
      await expect(
        restoreBackup({
          backup: created.dir,
          dataDir: tempDir(),
          databaseUrl: database.url,
          now: Date.now(),
          checkLedger: checkLedgerOf,
        }),
      ).rejects.toThrow(
        "the restored database's files differ from the manifest:\n" +
          `  - uploads/${voucher?.name}: checksum differs from the manifest (the file is damaged or was changed)\n` +
          `  - identity/${missing}: a file the manifest lists is not in the database`,
      );
    });
  },
);

describe('scheduled backups', () => {
  const servers: TestServer[] = [];
  afterAll(async () => {
    for (const server of servers) await server.close();
  });

  it('keeps exactly BACKUP_KEEP backups, and shows the last one on /readyz', async () => {
    const backupDir = tempDir();
    const server = await startServer('sqlite', {
      env: { BACKUP_DIR: backupDir, BACKUP_EVERY_HOURS: '1', BACKUP_KEEP: '3' },
      build: { startBackups: true },
    });
    servers.push(server);
    // why: one left by a backup that died two days ago goes; one being written now stays.
    const abandoned = path.join(backupDir, 'bourse-backup-20261120T030000000Z.partial');
    const inProgress = path.join(backupDir, 'bourse-backup-20261122T080000000Z.partial');
    fs.mkdirSync(abandoned, { recursive: true });
    fs.mkdirSync(inProgress, { recursive: true });
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60_000);
    fs.utimesSync(abandoned, twoDaysAgo, twoDaysAgo);
    const made: string[] = [];
    for (let run = 1; run <= 5; run += 1) {
      await server.clock.advance(60 * 60_000);
      const names = await listBackups(backupDir);
      made.push(names.at(-1) as string);
      expect(names).toHaveLength(Math.min(run, 3));
    }
    expect(await listBackups(backupDir)).toEqual(made.slice(-3));
    expect([fs.existsSync(abandoned), fs.existsSync(inProgress)]).toEqual([false, true]);
    const response = await fetch(`${server.url}/readyz`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { checks: { backup: { status: string; detail: string } } };
    expect(body.checks.backup.status).toBe('ok');
    expect(body.checks.backup.detail).toContain(`last backup ${made.at(-1)}`);
  });

  it('a failed backup is degraded on /readyz, which stays 200', async () => {
    const blocker = path.join(tempDir(), 'a-file');
    fs.writeFileSync(blocker, '');
    const log = captureLog();
    const server = await startServer('sqlite', {
      env: {
        BACKUP_DIR: path.join(blocker, 'backups'),
        BACKUP_EVERY_HOURS: '1',
        LOG_LEVEL: 'error',
        LOG_FORMAT: 'json',
      },
      build: { startBackups: true, logger: true, logStream: log.stream },
    });
    servers.push(server);
    await server.clock.advance(60 * 60_000);
    const response = await fetch(`${server.url}/readyz`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { checks: { backup: { status: string; detail: string } } };
    expect(body.checks.backup.status).toBe('degraded');
    expect(body.checks.backup.detail).toMatch(/^backup failed at .*ENOTDIR/);
    expect(log.lines().filter((line) => line.msg === 'backup failed')).toMatchObject([{ level: 50 }]);
  });
});
