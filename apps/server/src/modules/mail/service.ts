import { type Locale, normalizeLocale } from '@bourse/i18n';
import { translateServer } from '@bourse/i18n/server';
import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db.ts';
import {
  deleteOldestCreatedBefore,
  type PruneResult,
  pruneInSlices,
  type SliceOptions,
} from '../../platform/prune.ts';
import type { StaffActor } from '../../platform/staff-actor.ts';
import { fromMillis, toMillis } from '../../platform/time.ts';
import type { AuditService } from '../audit/service.ts';

/** One message on its way out. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Where mail leaves Bourse: SMTP in production; without one the outbox is the delivery. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** Mail Bourse writes; each has `mail.<KEY>.subject` and `.body` in the server texts. */
export type MailKey = 'RESET_CODE' | 'BIND_CODE';

export interface MailDeps {
  db: Db;
  clock: Clock;
  audit: AuditService;
  /** SMTP (nodemailer) when configured; undefined keeps mail in the outbox only. */
  mailer?: Mailer;
  /** Told of every message kept without SMTP, so a developer or demo user can read it in the log. */
  onKept?: (entry: { id: bigint; to: string; subject: string; text: string }) => void;
  onError: (error: unknown) => void;
}

/**
 * Mail (the `mail_outbox` table's owner): every message is written in the recipient's language,
 * with their anti-phishing code on its first line, and recorded in the outbox (which the back
 * office shows); then sent through SMTP when one is configured.
 */
export class MailService {
  readonly #deps: MailDeps;

  constructor(deps: MailDeps) {
    this.#deps = deps;
  }

  /** Writes, records and (with SMTP) sends one message; a send failure is recorded, not thrown. */
  async send(input: {
    userId: bigint | null;
    to: string;
    locale: string;
    key: MailKey;
    params: Record<string, string | number>;
    antiPhishing: string;
  }): Promise<bigint> {
    const { db, clock, mailer } = this.#deps;
    const locale: Locale = normalizeLocale(input.locale);
    const subject = translateServer(locale, `mail.${input.key}.subject`, input.params);
    const lines = [
      input.antiPhishing
        ? translateServer(locale, 'mail.ANTI_PHISHING', { code: input.antiPhishing })
        : translateServer(locale, 'mail.NO_ANTI_PHISHING'),
      '',
      translateServer(locale, `mail.${input.key}.body`, input.params),
    ];
    const text = lines.join('\n');
    const row = await db
      .insertInto('mail_outbox')
      .values({
        user_id: input.userId,
        recipient: input.to,
        subject,
        body: text,
        status: 'kept',
        created_at: toMillis(clock.now()),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (!mailer) {
      this.#deps.onKept?.({ id: row.id, to: input.to, subject, text });
      return row.id;
    }
    try {
      await mailer.send({ to: input.to, subject, text });
      await db.updateTable('mail_outbox').set({ status: 'sent' }).where('id', '=', row.id).execute();
    } catch (error) {
      this.#deps.onError(error);
      await db
        .updateTable('mail_outbox')
        .set({ status: 'failed', error: String((error as Error).message ?? error).slice(0, 500) })
        .where('id', '=', row.id)
        .execute();
    }
    return row.id;
  }

  /**
   * The newest outbox entries as the back office reads them, optionally to one recipient. Mail
   * holds one-time codes, so who read it is on record: the reading is audited.
   */
  async outboxForStaff(staff: StaffActor, input: { recipient?: string }) {
    const list = await this.#outbox(input.recipient);
    await this.#deps.audit.record(this.#deps.db, {
      actor: staff.actor,
      action: 'mail.outbox_read',
      target: input.recipient ? `mail:${input.recipient}` : 'mail:*',
      ip: staff.ip,
    });
    return list;
  }

  /**
   * Retention: deletes, in bounded slices, outbox entries older than `retentionMs`, whatever their
   * status: each is final (nothing retries a failed one), and the one-time codes they carry expired
   * long before.
   */
  prune(retentionMs: number, slices: SliceOptions): Promise<PruneResult> {
    const { db, clock } = this.#deps;
    const before = toMillis(clock.now() - retentionMs);
    return pruneInSlices((limit) => deleteOldestCreatedBefore(db, 'mail_outbox', before, limit), slices);
  }

  async #outbox(recipient: string | undefined, limit = 100) {
    let query = this.#deps.db.selectFrom('mail_outbox').selectAll().orderBy('id', 'desc').limit(limit);
    if (recipient) query = query.where('recipient', '=', recipient);
    const rows = await query.execute();
    return rows.map((row) => ({
      id: row.id,
      userId: row.user_id,
      recipient: row.recipient,
      subject: row.subject,
      body: row.body,
      status: row.status,
      error: row.error,
      createdAt: fromMillis(row.created_at),
    }));
  }
}
