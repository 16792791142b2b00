import path from 'node:path';
import type { Clock } from '../../platform/clock.ts';
import type { Scheduler } from '../../platform/scheduler.ts';
import { type BackupSource, createBackup, listBackups, pruneBackups, readManifest } from './service.ts';

/** One backup run: when it ended, whether it made a backup, its name, and a line a person can act on. */
export interface BackupRun {
  at: number;
  ok: boolean;
  name?: string;
  detail: string;
}

/** How `/readyz` and the dashboard show backups (the shape of a readiness check). */
export interface BackupCheck {
  status: 'ok' | 'degraded';
  detail: string;
  at: number;
}

export interface BackupsDeps {
  scheduler: Scheduler;
  clock: Clock;
  source: BackupSource;
  /** Where backups are kept (`BACKUP_DIR`). */
  backupDir: string;
  /** Time between scheduled backups; 0 = off (`BACKUP_EVERY_HOURS`). */
  everyMs: number;
  /** Complete backups kept; older ones are removed after each new one (`BACKUP_KEEP`). */
  keep: number;
  log: {
    info(data: object, message: string): void;
    error(data: object, message: string): void;
  };
}

/**
 * Scheduled backups: a leased job (one node of many) that makes a backup every `everyMs`, keeps
 * the newest `keep`, and remembers how the last run went. A failed run is logged at error and
 * shown degraded on `/readyz` and the dashboard, never skipped in silence.
 */
export class BackupsModule {
  readonly #deps: BackupsDeps;
  readonly #startedAt: number;
  #last: BackupRun | undefined;

  constructor(deps: BackupsDeps) {
    this.#deps = deps;
    this.#startedAt = deps.clock.now();
  }

  start(): void {
    if (this.#deps.everyMs <= 0) return;
    this.#deps.scheduler.runEvery('backup', this.#deps.everyMs, () => this.runNow(), { lease: true });
  }

  /** Makes a backup now and prunes the old ones; never throws (the run's result says how it went). */
  async runNow(): Promise<BackupRun> {
    const { clock, source, backupDir, keep, log } = this.#deps;
    try {
      const created = await createBackup({ ...source, backupDir, now: clock.now() });
      const removed = await pruneBackups(backupDir, keep);
      const { manifest } = created;
      this.#last = {
        at: clock.now(),
        ok: true,
        name: manifest.name,
        detail: `${manifest.files.length} files, last journal entry ${manifest.lastEntryId}`,
      };
      log.info({ backup: created.dir, removed, lastEntryId: manifest.lastEntryId }, 'backup made');
    } catch (error) {
      this.#last = { at: clock.now(), ok: false, detail: (error as Error).message };
      log.error({ err: error, backupDir }, 'backup failed');
    }
    return this.#last;
  }

  /**
   * The last run: this node's own, or, when another node (or `npm run backup`) made a newer one
   * in the same folder, that backup's manifest.
   */
  async last(): Promise<BackupRun | undefined> {
    const own = this.#last;
    const names = await listBackups(this.#deps.backupDir).catch(() => []);
    const newest = names.at(-1);
    if (!newest || (own && own.name === newest)) return own;
    try {
      const manifest = await readManifest(path.join(this.#deps.backupDir, newest));
      const at = Date.parse(manifest.createdAt);
      if (own && own.at >= at) return own;
      return {
        at,
        ok: true,
        name: newest,
        detail: `${manifest.files.length} files, last journal entry ${manifest.lastEntryId}`,
      };
    } catch {
      return own;
    }
  }

  /**
   * ok: backups are off, the last one succeeded within twice the interval, or the first is not
   * due yet; degraded: the last run failed, or the last backup is older than twice the interval.
   */
  async check(): Promise<BackupCheck> {
    const { clock, everyMs } = this.#deps;
    const now = clock.now();
    const last = await this.last();
    if (everyMs <= 0 && !last)
      return { status: 'ok', detail: 'scheduled backups are off (BACKUP_EVERY_HOURS=0)', at: now };
    if (last && !last.ok) {
      return { status: 'degraded', detail: `backup failed at ${iso(last.at)}: ${last.detail}`, at: now };
    }
    if (!last) {
      return now - this.#startedAt <= 2 * everyMs
        ? {
            status: 'ok',
            detail: `no backup yet; the first is due by ${iso(this.#startedAt + everyMs)}`,
            at: now,
          }
        : { status: 'degraded', detail: `no backup since ${iso(this.#startedAt)}`, at: now };
    }
    const line = `last backup ${last.name} at ${iso(last.at)}: ${last.detail}`;
    if (everyMs > 0 && now - last.at > 2 * everyMs)
      return { status: 'degraded', detail: `overdue: ${line}`, at: now };
    return { status: 'ok', detail: line, at: now };
  }
}

function iso(at: number): string {
  return new Date(at).toISOString();
}
