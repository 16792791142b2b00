import { DEFAULT_LOCALE, LOCALES, type Locale } from '@bourse/i18n';
import { AppError, ATOMS_PER_UNIT, toAtoms } from '@bourse/shared';
import { CONTENT_PAGE_SLUGS } from '@bourse/shared/api';
import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db.ts';
import type { ContentKind } from '../../platform/schema.ts';
import { fromMillis, toMillis } from '../../platform/time.ts';
import type { AuditService } from '../audit/service.ts';
import type { SettingsService } from '../settings/service.ts';
import { DEMO_CONTENT } from './demo.ts';
import * as repo from './repository.ts';
import { sanitizeBody } from './sanitize.ts';

const PAGE = 20;
const CLAIM_LEVERAGE = 'claims.leverage_max';
const CLAIM_RESERVE = 'claims.reserve_btc';
const DEMO_SEEDED = 'demo_content_seeded';

export interface StaffRef {
  staffId: bigint;
  actor: string;
  ip: string;
}

export interface ContentInput {
  kind: ContentKind;
  slug: string;
  pinned: boolean;
  status: 'draft' | 'published';
  publishAt: number;
  texts: Record<string, { title: string; body: string }>;
}

type Row = Awaited<ReturnType<typeof repo.listPublished>>[number];
type TextRow = Awaited<ReturnType<typeof repo.textsOf>>[number];

/** The reader's text of an item: their language, else ja-JP, else any. */
function pick(texts: readonly TextRow[], locale: Locale): TextRow | undefined {
  return texts.find((t) => t.locale === locale) ?? texts.find((t) => t.locale === DEFAULT_LOCALE) ?? texts[0];
}

function plainExcerpt(html: string): string {
  // why: a block or line break becomes a space, an inline tag (strong, a) nothing, so
  // "on <strong>Sunday</strong>." reads "on Sunday."
  return html
    .replace(/<\/?(p|br|li|ul|ol|h2|h3|blockquote|img)\b[^>]*>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 140);
}

/**
 * Announcements, help articles and the operator's pages (the `content_*` tables' owner), and the
 * marketing claims the operator chooses to make. Bodies are sanitised when written; readers see
 * published items from their publish time on, in their language with ja-JP as the fallback.
 */
export class ContentService {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #audit: AuditService;
  readonly #settings: SettingsService;
  readonly #reserveEvidence: () => Promise<boolean>;
  readonly #leverageOffered: () => Promise<number>;

  constructor(deps: {
    db: Db;
    clock: Clock;
    audit: AuditService;
    settings: SettingsService;
    /** Whether a proof-of-reserves snapshot is published: the evidence a reserve claim links to. */
    reserveEvidence: () => Promise<boolean>;
    /** The highest leverage an open market offers now (0 = none): what a leverage claim needs. */
    leverageOffered: () => Promise<number>;
  }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#audit = deps.audit;
    this.#settings = deps.settings;
    this.#reserveEvidence = deps.reserveEvidence;
    this.#leverageOffered = deps.leverageOffered;
  }

  async list(kind: 'announcement' | 'help', locale: Locale, page: number) {
    const now = toMillis(this.#clock.now());
    const rows = await repo.listPublished(this.#db, kind, now, PAGE + 1, (page - 1) * PAGE);
    const shown = rows.slice(0, PAGE);
    const texts = await repo.textsOf(
      this.#db,
      shown.map((r) => r.id),
    );
    return {
      list: shown.map((row) => {
        const text = pick(
          texts.filter((t) => t.item_id === row.id),
          locale,
        );
        return {
          id: row.id,
          title: text?.title ?? '',
          excerpt: plainExcerpt(text?.body_html ?? ''),
          pinned: row.pinned === 1n,
          publishedAt: fromMillis(row.publish_at),
        };
      }),
      hasMore: rows.length > PAGE,
    };
  }

  async detail(where: { id: bigint; kind: 'announcement' | 'help' } | { slug: string }, locale: Locale) {
    const now = toMillis(this.#clock.now());
    const row =
      'slug' in where
        ? await repo.findPublished(this.#db, { kind: 'page', slug: where.slug }, now)
        : await repo.findPublished(this.#db, { id: where.id, kind: where.kind }, now);
    if (!row) throw new AppError('RECORD_NOT_FOUND');
    return this.#view(row, locale);
  }

  /** The newest pinned announcement (the home page's scrolling line), or undefined. */
  async marquee(locale: Locale) {
    const row = await repo.newestPinned(this.#db, toMillis(this.#clock.now()));
    if (!row) return undefined;
    const view = await this.#view(row, locale);
    return { id: view.id, title: view.title };
  }

  /**
   * The marketing claims the operator configured ('' = not made), as staff set them, with the
   * evidence each needs: a published reserve snapshot, and the highest leverage an open market
   * offers.
   */
  async configuredClaims() {
    const [leverageMax, reserveBtc, reserveEvidence, leverageOffered] = await Promise.all([
      this.#settings.get(CLAIM_LEVERAGE),
      this.#settings.get(CLAIM_RESERVE),
      this.#reserveEvidence(),
      this.#leverageOffered(),
    ]);
    return { leverageMax: leverageMax ?? '', reserveBtc: reserveBtc ?? '', reserveEvidence, leverageOffered };
  }

  /**
   * The claims customers see, each only while what the platform runs backs it: a reserve figure
   * while a published proof-of-reserves snapshot backs it (the page links to it), a leverage
   * figure while an open market offers at least that much leverage. The app never states what
   * nobody can check or use.
   */
  async publicClaims() {
    const claims = await this.configuredClaims();
    const isLeverageBacked =
      claims.leverageMax !== '' &&
      claims.leverageOffered > 0 &&
      toAtoms(claims.leverageMax) <= BigInt(claims.leverageOffered) * ATOMS_PER_UNIT;
    return {
      leverageMax: isLeverageBacked ? claims.leverageMax : '',
      reserveBtc: claims.reserveEvidence ? claims.reserveBtc : '',
    };
  }

  /**
   * Demo mode: the demo announcements, pages and help articles, and the spec's two claims, written
   * once (the `demo_content_seeded` setting records it), so staff edits and deletions stay.
   */
  async seedDemo(): Promise<boolean> {
    if (await this.#settings.get(DEMO_SEEDED)) return false;
    const now = this.#clock.now();
    return this.#db.transaction().execute(async (trx) => {
      if (await this.#settings.get(DEMO_SEEDED, trx)) return false;
      for (const item of DEMO_CONTENT) {
        const id = await repo.insertItem(trx, {
          kind: item.kind,
          slug: item.slug,
          pinned: item.pinned,
          status: 'published',
          publishAt: toMillis(now - item.ageHours * 3_600_000),
          staffId: null,
          now: toMillis(now),
        });
        await repo.replaceTexts(
          trx,
          id,
          Object.entries(item.texts).map(([locale, t]) => ({
            locale,
            title: t.title,
            body: sanitizeBody(t.body),
          })),
        );
      }
      await this.#settings.set(trx, CLAIM_LEVERAGE, '5');
      await this.#settings.set(trx, CLAIM_RESERVE, '20000');
      await this.#settings.set(trx, DEMO_SEEDED, String(now));
      return true;
    });
  }

  // ---- staff ----

  async listForStaff(kind?: ContentKind) {
    const rows = await repo.listAll(this.#db, kind);
    const texts = await repo.textsOf(
      this.#db,
      rows.map((r) => r.id),
    );
    return rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      slug: row.slug,
      pinned: row.pinned === 1n,
      status: row.status,
      publishAt: fromMillis(row.publish_at),
      author: row.author ?? null,
      updatedAt: fromMillis(row.updated_at),
      texts: Object.fromEntries(
        texts
          .filter((t) => t.item_id === row.id)
          .map((t) => [t.locale, { title: t.title, body: t.body_html }]),
      ),
    }));
  }

  /** Creates (no `id`) or updates an item; bodies are sanitised, ja-JP is required; audited. */
  async save(staff: StaffRef, input: ContentInput, id?: bigint): Promise<bigint> {
    const texts = Object.entries(input.texts)
      .filter(([locale, t]) => (LOCALES as readonly string[]).includes(locale) && t.title.trim())
      .map(([locale, t]) => ({ locale, title: t.title.trim(), body: sanitizeBody(t.body) }));
    if (!texts.some((t) => t.locale === DEFAULT_LOCALE)) throw new AppError('CONTENT_DEFAULT_TEXT_REQUIRED');
    const slug = input.kind === 'page' ? input.slug : '';
    if (input.kind === 'page' && !(CONTENT_PAGE_SLUGS as readonly string[]).includes(slug))
      throw new AppError('PARAM_ERROR');
    const now = toMillis(this.#clock.now());
    const publishAt = toMillis(input.publishAt || this.#clock.now());
    return this.#db.transaction().execute(async (trx) => {
      let itemId = id;
      const before = id === undefined ? undefined : await repo.findItem(trx, id);
      if (id !== undefined && !before) throw new AppError('RECORD_NOT_FOUND');
      if (itemId === undefined) {
        itemId = await repo.insertItem(trx, {
          kind: input.kind,
          slug,
          pinned: input.pinned,
          status: input.status,
          publishAt,
          staffId: staff.staffId,
          now,
        });
      } else {
        await repo.updateItem(trx, itemId, {
          slug,
          pinned: input.pinned,
          status: input.status,
          publishAt,
          now,
        });
      }
      await repo.replaceTexts(trx, itemId, texts);
      await this.#audit.record(trx, {
        actor: staff.actor,
        action: id === undefined ? 'content.create' : 'content.update',
        target: `content:${itemId}`,
        before: before ? { status: before.status, pinned: before.pinned === 1n } : undefined,
        after: {
          kind: input.kind,
          status: input.status,
          pinned: input.pinned,
          locales: texts.map((t) => t.locale),
        },
        ip: staff.ip,
      });
      return itemId;
    });
  }

  async remove(staff: StaffRef, id: bigint): Promise<void> {
    await this.#db.transaction().execute(async (trx) => {
      const before = await repo.findItem(trx, id);
      if (!before) throw new AppError('RECORD_NOT_FOUND');
      await repo.deleteItem(trx, id);
      await this.#audit.record(trx, {
        actor: staff.actor,
        action: 'content.delete',
        target: `content:${id}`,
        before: { kind: before.kind, status: before.status },
        ip: staff.ip,
      });
    });
  }

  /** Sets the marketing claims ('' withdraws one); audited. */
  async setClaims(staff: StaffRef, claims: { leverageMax: string; reserveBtc: string }): Promise<void> {
    for (const value of [claims.leverageMax, claims.reserveBtc]) {
      if (value !== '' && !/^\d{1,9}(\.\d{1,8})?$/.test(value)) throw new AppError('CONFIG_AMOUNT_INVALID');
    }
    const { reserveEvidence: _, leverageOffered: __, ...before } = await this.configuredClaims();
    await this.#db.transaction().execute(async (trx) => {
      await this.#settings.set(trx, CLAIM_LEVERAGE, claims.leverageMax);
      await this.#settings.set(trx, CLAIM_RESERVE, claims.reserveBtc);
      await this.#audit.record(trx, {
        actor: staff.actor,
        action: 'content.claims',
        target: 'settings:claims',
        before,
        after: claims,
        ip: staff.ip,
      });
    });
  }

  async #view(row: Row, locale: Locale) {
    const text = pick(await repo.textsOf(this.#db, [row.id]), locale);
    return {
      id: row.id,
      title: text?.title ?? '',
      bodyHtml: text?.body_html ?? '',
      pinned: row.pinned === 1n,
      publishedAt: fromMillis(row.publish_at),
    };
  }
}
