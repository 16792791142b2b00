import type { Config } from './config.ts';
import type { AuthService } from './modules/auth/service.ts';
import type { MailService } from './modules/mail/service.ts';
import type { NoticesService } from './modules/notices/service.ts';
import type { PerpService } from './modules/perpetual/service.ts';
import type { SecurityService } from './modules/security/service.ts';
import type { SessionsService } from './modules/sessions/service.ts';
import type { StaffService } from './modules/staff/service.ts';
import type { Clock } from './platform/clock.ts';
import type { PruneResult, SliceOptions } from './platform/prune.ts';
import type { LimitStore } from './platform/rate-limit.ts';
import type { Scheduler } from './platform/scheduler.ts';

/** The hourly job that prunes the operational tables below (one node, a database lease). */
export const RETENTION_JOB = 'retention';
const RETENTION_INTERVAL_MS = 60 * 60_000;

/** What the job prunes, each through the module that owns the table. */
export interface RetentionTargets {
  sessions: Pick<SessionsService, 'prune'>;
  /** The staff module, whose service prunes the staff sessions. */
  staff: { service: Pick<StaffService, 'prune'> };
  auth: Pick<AuthService, 'pruneLoginLogs'>;
  notices: Pick<NoticesService, 'prune'>;
  mail: Pick<MailService, 'prune'>;
  /** The e-mail codes' owner. */
  security: Pick<SecurityService, 'prune'>;
  perpetual: Pick<PerpService, 'prune'>;
}

/** What the job runs on: the app's scheduler, clock, settings and rate-limit store. */
export interface RetentionContext {
  scheduler: Scheduler;
  clock: Clock;
  config: Pick<Config, 'retention'>;
  limitStore: Pick<LimitStore, 'sweepExpired'>;
}

/** The tables (or groups of them) one run prunes, in the order it prunes them. */
export type RetentionPart =
  | 'sessions'
  | 'staff_sessions'
  | 'login_logs'
  | 'notifications'
  | 'mail_outbox'
  | 'email_codes'
  | 'perpetual'
  | 'rate_limits';

/**
 * Retention of the operational tables that have no job of their own: customers' and staff
 * sessions, login records, notifications, the mail outbox and the e-mail codes, the perpetual
 * maker's dead orders and premium samples, and rate-limit rows. (The index history, the spot
 * bots' orders and the proofs of reserves are pruned by their modules' own jobs.) Each part
 * deletes in bounded slices that yield between them; a part that fails does not stop the others.
 * Money records are never pruned.
 */
export class Retention {
  /** The last run's result per part, for whoever checks on the job (the tests do). */
  readonly lastRun = new Map<RetentionPart, PruneResult>();
  readonly #context: RetentionContext;
  readonly #targets: RetentionTargets;
  /** Wall-clock ms: rate-limit rows expire by it, not by the platform's clock. */
  readonly #wallNow: () => number;
  #started = false;

  constructor(context: RetentionContext, targets: RetentionTargets, wallNow: () => number = Date.now) {
    this.#context = context;
    this.#targets = targets;
    this.#wallNow = wallNow;
  }

  /** Schedules the hourly run. */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    this.#context.scheduler.runEvery(RETENTION_JOB, RETENTION_INTERVAL_MS, () => this.runOnce(), {
      lease: true,
    });
  }

  /**
   * Prunes every part once; answers what each deleted. A part that fails does not stop the others;
   * the run then throws their errors together, for the scheduler to report.
   */
  async runOnce(): Promise<Map<RetentionPart, PruneResult>> {
    const { clock, config, limitStore } = this.#context;
    const settings = config.retention;
    const targets = this.#targets;
    const slices: SliceOptions = { sliceSize: settings.sliceRows };
    const now = clock.now();
    const parts: [RetentionPart, () => Promise<PruneResult>][] = [
      ['sessions', () => targets.sessions.prune(settings.sessionMs, slices)],
      // why: staff sessions keep the customers' retention, counted from the staff maximum age.
      ['staff_sessions', () => targets.staff.service.prune(settings.sessionMs, slices)],
      ['login_logs', () => targets.auth.pruneLoginLogs(settings.loginLogMs, slices)],
      ['notifications', () => targets.notices.prune(settings.notificationMs, slices)],
      ['mail_outbox', () => targets.mail.prune(settings.mailOutboxMs, slices)],
      // why: the codes are kept as long as the mails that carried them.
      ['email_codes', () => targets.security.prune(settings.mailOutboxMs, slices)],
      [
        'perpetual',
        () =>
          targets.perpetual.prune({
            makerOrdersBefore: now - settings.botOrderMs,
            premiumsBefore: now - settings.perpPremiumMs,
            ...slices,
          }),
      ],
      ['rate_limits', () => limitStore.sweepExpired(this.#wallNow(), slices)],
    ];
    const results = new Map<RetentionPart, PruneResult>();
    const errors: unknown[] = [];
    for (const [part, prune] of parts) {
      try {
        results.set(part, await prune());
      } catch (error) {
        errors.push(new Error(`retention of ${part} failed`, { cause: error }));
      }
    }
    this.lastRun.clear();
    for (const [part, result] of results) this.lastRun.set(part, result);
    if (errors.length > 0) throw new AggregateError(errors, 'retention: some parts failed');
    return results;
  }
}
