import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { TimerClock } from './clock.ts';
import type { LeaseStore } from './job-leases.ts';

/** What a job is told about the run it is doing. */
export interface JobRun {
  name: string;
  /** When this run was due (unix ms on the scheduler's clock). */
  scheduledAt: number;
  /**
   * True on this node's first run of the job, and on the first run after it took the lease from
   * another node: state the job keeps in memory may then be older than what the store holds.
   */
  isNewHolder: boolean;
}

export type Job = (run: JobRun) => unknown;

export interface JobOptions {
  /**
   * Run on one node only: every run first takes (or renews) the database lease named after the
   * job, and a node that cannot get it skips the run. Jobs should still be idempotent: a lease
   * bounds, it does not replace, a job's own record of what it has done.
   */
  lease?: boolean;
  /** How long a run holds the lease; default twice the interval (one minute for `runAt`). */
  leaseMs?: number;
}

export interface ScheduledJob {
  /** No run starts after this; a run already going finishes. */
  cancel(): void;
}

export interface SchedulerOptions {
  clock: TimerClock;
  /** Needed for jobs with `lease`. */
  leases?: LeaseStore;
  /** Names this node in `job_leases.holder`; default host, pid and a random part. */
  holder?: string;
  /** Where a failing run is reported; the schedule goes on. */
  onError?: (error: unknown, job: string) => void;
}

interface Entry {
  name: string;
  job: Job;
  intervalMs: number | undefined;
  lease: boolean;
  leaseMs: number;
  cancelTimer: (() => void) | undefined;
  running: Promise<void> | undefined;
  cancelled: boolean;
  /** This node ran the job last time it was due (and holds the lease, for leased jobs). */
  holding: boolean;
}

/**
 * Runs jobs at a time or every interval on a clock, so tests drive it with `ManualClock.advance`.
 * Interval runs fall on multiples of the interval since the epoch, so every node's run of a
 * leased job is due at the same moments; runs of one job never overlap, and runs missed while one
 * overran are skipped, not queued.
 */
export class Scheduler {
  readonly holder: string;
  private readonly entries = new Map<string, Entry>();
  private readonly clock: TimerClock;
  private readonly leases: LeaseStore | undefined;
  private readonly onError: (error: unknown, job: string) => void;
  private stopped = false;

  constructor(options: SchedulerOptions) {
    this.clock = options.clock;
    this.leases = options.leases;
    this.holder = options.holder ?? `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
    this.onError = options.onError ?? ((error, job) => console.error(`job ${job} failed`, error));
  }

  /** Runs `job` once at `at` (unix ms); a time already past runs on the next turn. */
  runAt(name: string, at: number, job: Job, options: JobOptions = {}): ScheduledJob {
    const entry = this.add(name, job, undefined, options.lease ?? false, options.leaseMs ?? 60_000);
    this.arm(entry, at);
    return { cancel: () => this.cancel(entry) };
  }

  /** Runs `job` every `intervalMs`, first at the next multiple of the interval. */
  runEvery(name: string, intervalMs: number, job: Job, options: JobOptions = {}): ScheduledJob {
    if (!Number.isSafeInteger(intervalMs) || intervalMs <= 0) {
      throw new RangeError(`interval must be a positive whole number of ms: ${intervalMs}`);
    }
    const entry = this.add(name, job, intervalMs, options.lease ?? false, options.leaseMs ?? 2 * intervalMs);
    this.arm(entry, nextMultiple(this.clock.now(), intervalMs));
    return { cancel: () => this.cancel(entry) };
  }

  /** Cancels every job, waits for running ones, and gives up the leases this node holds. */
  async stop(): Promise<void> {
    this.stopped = true;
    const entries = [...this.entries.values()];
    for (const entry of entries) this.cancel(entry);
    await Promise.all(entries.map((entry) => entry.running));
    if (!this.leases) return;
    for (const entry of entries) {
      if (!entry.lease || !entry.holding) continue;
      await this.leases.release(entry.name, this.holder).catch((error) => this.onError(error, entry.name));
    }
  }

  private add(
    name: string,
    job: Job,
    intervalMs: number | undefined,
    lease: boolean,
    leaseMs: number,
  ): Entry {
    if (this.stopped) throw new Error('scheduler stopped');
    if (this.entries.has(name)) throw new Error(`job ${name} is already scheduled`);
    if (lease && !this.leases) throw new Error(`job ${name} needs a lease store`);
    const entry: Entry = {
      name,
      job,
      intervalMs,
      lease,
      leaseMs,
      cancelTimer: undefined,
      running: undefined,
      cancelled: false,
      holding: false,
    };
    this.entries.set(name, entry);
    return entry;
  }

  private cancel(entry: Entry): void {
    entry.cancelled = true;
    entry.cancelTimer?.();
    // why: the name stays taken while a run is going, so a job cannot be scheduled twice at once.
    if (entry.running) void entry.running.then(() => this.forget(entry));
    else this.forget(entry);
  }

  private forget(entry: Entry): void {
    if (this.entries.get(entry.name) === entry && !this.stopped) this.entries.delete(entry.name);
  }

  private arm(entry: Entry, at: number): void {
    entry.cancelTimer = this.clock.setTimer(at, () => this.fire(entry, at));
  }

  private async fire(entry: Entry, at: number): Promise<void> {
    entry.cancelTimer = undefined;
    if (entry.cancelled) return;
    entry.running = this.runOnce(entry, at);
    await entry.running;
    entry.running = undefined;
    if (entry.cancelled) return;
    if (entry.intervalMs === undefined) return this.cancel(entry);
    this.arm(entry, nextMultiple(Math.max(this.clock.now(), at), entry.intervalMs));
  }

  private async runOnce(entry: Entry, at: number): Promise<void> {
    try {
      if (entry.lease) {
        const got = await this.leases!.acquire(entry.name, this.holder, this.clock.now(), entry.leaseMs);
        if (!got) {
          entry.holding = false;
          return;
        }
      }
      const isNewHolder = !entry.holding;
      entry.holding = true;
      await entry.job({ name: entry.name, scheduledAt: at, isNewHolder });
    } catch (error) {
      if (entry.lease) entry.holding = false;
      try {
        this.onError(error, entry.name);
      } catch {
        // why: a failing reporter must not end the schedule.
      }
    }
  }
}

/** The first multiple of `interval` strictly after `time`. */
function nextMultiple(time: number, interval: number): number {
  return (Math.floor(time / interval) + 1) * interval;
}
