import { DEFAULT_LOCALE, LOCALES, type Locale } from '@bourse/i18n';
import { translateServer } from '@bourse/i18n/server';
import { AppError, type ResultKey } from '@bourse/shared';
import type { Bus } from '../../platform/bus.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db.ts';
import { type HistoryPage, historyAnswer, historyWindow } from '../../platform/history-page.ts';
import { addPrunes, type PruneResult, pruneInSlices, type SliceOptions } from '../../platform/prune.ts';
import type { StaffActor } from '../../platform/staff-actor.ts';
import { fromMillis, toMillis } from '../../platform/time.ts';
import type { AuditService } from '../audit/service.ts';
import * as repo from './repository.ts';

/** Notices written by events; each has `notices.<KEY>.title` and `.body` in the server texts. */
export const NOTICE_KEYS = [
  'DEPOSIT_CREDITED',
  'DEPOSIT_REJECTED',
  'WITHDRAWAL_PASSED',
  'WITHDRAWAL_REJECTED',
  'IDENTITY_APPROVED',
  'IDENTITY_REJECTED',
  'LOGIN_NEW_DEVICE',
  'PASSWORD_RESET',
  'TOTP_ENABLED',
  'TOTP_DISABLED',
] as const;
export type NoticeKey = (typeof NOTICE_KEYS)[number];
/** The key of every staff broadcast (its texts are stored with it). */
const BROADCAST_KEY = 'BROADCAST';
/** The bus subject of "a user's notices changed" (userId null: a broadcast went out). */
export const NOTICES_SUBJECT = 'notices.changed';

/** What other modules call to tell a user something, inside the transaction that did it. */
export interface Notifier {
  notify(trx: Db, userId: bigint, key: NoticeKey, params?: Record<string, string | number>): Promise<void>;
  /** Tells the user's open apps after the transaction committed (persist, then publish). */
  changed(userId: bigint): void;
}

export interface NoticeView {
  id: bigint;
  kind: 'system' | 'broadcast';
  title: string;
  content: string;
  createdAt: number;
  read: boolean;
}

type Row = Awaited<ReturnType<typeof repo.listVisible>>[number];
type BroadcastTexts = Record<string, { title: string; body: string }>;

/** What `detail` can answer besides the codes every route can. */
export const DETAIL_ERRORS = ['RECORD_NOT_FOUND'] as const satisfies readonly ResultKey[];

/** What `markRead` can answer besides the codes every route can. */
export const MARK_READ_ERRORS = ['RECORD_NOT_FOUND'] as const satisfies readonly ResultKey[];

/** What `broadcastAsStaff` can answer besides the codes every route can. */
export const BROADCAST_ERRORS = ['PARAM_ERROR'] as const satisfies readonly ResultKey[];

/** Notifications (the `notifications` tables' owner): event notices, staff broadcasts, reading. */
export class NoticesService implements Notifier {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #bus: Bus;
  readonly #audit: AuditService;
  readonly #onError: (error: unknown) => void;

  constructor(deps: {
    db: Db;
    clock: Clock;
    bus: Bus;
    audit: AuditService;
    onError: (error: unknown) => void;
  }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#bus = deps.bus;
    this.#audit = deps.audit;
    this.#onError = deps.onError;
  }

  /** Retention: deletes, in bounded slices, notifications older than `retentionMs` and their read marks. */
  async prune(retentionMs: number, slices: SliceOptions): Promise<PruneResult> {
    const before = toMillis(this.#clock.now() - retentionMs);
    const reads = await pruneInSlices(
      (limit) => repo.deleteReadsOfNoticesBefore(this.#db, before, limit),
      slices,
    );
    const notices = await pruneInSlices((limit) => repo.deleteNoticesBefore(this.#db, before, limit), slices);
    return addPrunes(reads, notices);
  }

  async notify(trx: Db, userId: bigint, key: NoticeKey, params: Record<string, string | number> = {}) {
    await repo.insertNotice(trx, {
      userId,
      key,
      params: JSON.stringify(params),
      texts: null,
      createdBy: null,
      now: toMillis(this.#clock.now()),
    });
  }

  changed(userId: bigint | null): void {
    this.#bus.publish(NOTICES_SUBJECT, { userId }).catch(this.#onError);
  }

  /** The user's notices, newest first, in `locale`. */
  async list(userId: bigint, locale: Locale, page: HistoryPage) {
    const since = await this.#since(userId);
    const rows = await repo.listVisible(this.#db, userId, since, historyWindow(page));
    const unread = await repo.countUnread(this.#db, userId, since);
    const { list, has_more } = historyAnswer(rows, page, (row) => render(row, locale));
    return { list, unread, hasMore: has_more, antiPhishing: await repo.antiPhishingOf(this.#db, userId) };
  }

  /** One notice; another user's (or an unknown one) answers RECORD_NOT_FOUND. */
  async detail(userId: bigint, id: bigint, locale: Locale) {
    const since = await this.#since(userId);
    const row = await repo.findVisible(this.#db, userId, since, id);
    if (!row) throw new AppError('RECORD_NOT_FOUND');
    return { notice: render(row, locale), antiPhishing: await repo.antiPhishingOf(this.#db, userId) };
  }

  async unread(userId: bigint): Promise<number> {
    return repo.countUnread(this.#db, userId, await this.#since(userId));
  }

  /** Marks one notice read (`id`), or all of them (undefined); returns the unread count left. */
  async markRead(userId: bigint, id: bigint | undefined): Promise<number> {
    const since = await this.#since(userId);
    if (id !== undefined && !(await repo.findVisible(this.#db, userId, since, id))) {
      throw new AppError('RECORD_NOT_FOUND');
    }
    const now = toMillis(this.#clock.now());
    await this.#db.transaction().execute(async (trx) => {
      await repo.markPersonalRead(trx, userId, id, now);
      await repo.markBroadcastsRead(trx, userId, since, id, now);
    });
    return repo.countUnread(this.#db, userId, since);
  }

  /**
   * A staff broadcast to every account: the texts of the known locales (ja-JP, the fallback,
   * required), written with its audit record in one transaction; open apps are told after it.
   */
  async broadcastAsStaff(staff: StaffActor, input: { texts: BroadcastTexts }): Promise<bigint> {
    const texts = Object.fromEntries(
      Object.entries(input.texts).filter(([locale]) => (LOCALES as readonly string[]).includes(locale)),
    );
    if (!texts[DEFAULT_LOCALE]) throw new AppError('PARAM_ERROR');
    const id = await this.#db.transaction().execute(async (trx) => {
      const created = await repo.insertNotice(trx, {
        userId: null,
        key: BROADCAST_KEY,
        params: '{}',
        texts: JSON.stringify(texts),
        createdBy: staff.staffId,
        now: toMillis(this.#clock.now()),
      });
      await this.#audit.record(trx, {
        actor: staff.actor,
        action: 'notices.broadcast',
        target: `notice:${created}`,
        after: { locales: Object.keys(texts), title: texts[DEFAULT_LOCALE]?.title },
        ip: staff.ip,
      });
      return created;
    });
    this.changed(null);
    return id;
  }

  async listBroadcasts() {
    const rows = await repo.listBroadcasts(this.#db, 100);
    return rows.map((row) => {
      const texts = JSON.parse(row.texts ?? '{}') as BroadcastTexts;
      return {
        id: row.id,
        title: texts[DEFAULT_LOCALE]?.title ?? '',
        locales: Object.keys(texts),
        createdBy: row.username,
        createdAt: fromMillis(row.created_at),
      };
    });
  }

  async #since(userId: bigint) {
    const since = await repo.userCreatedAt(this.#db, userId);
    if (since === undefined) throw new AppError('SESSION_INVALID');
    return since;
  }
}

function render(row: Row, locale: Locale): NoticeView {
  const base = {
    id: row.id,
    createdAt: fromMillis(row.created_at),
    read: row.is_read === 1n || Number(row.is_read) === 1,
  };
  if (row.user_id === null) {
    const texts = JSON.parse(row.texts ?? '{}') as BroadcastTexts;
    const text = texts[locale] ?? texts[DEFAULT_LOCALE] ?? { title: '', body: '' };
    return { ...base, kind: 'broadcast', title: text.title, content: text.body };
  }
  const params = JSON.parse(row.params) as Record<string, string | number>;
  return {
    ...base,
    kind: 'system',
    title: translateServer(locale, `notices.${row.msg_key}.title`, params),
    content: translateServer(locale, `notices.${row.msg_key}.body`, params),
  };
}
