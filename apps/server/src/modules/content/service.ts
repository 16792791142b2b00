import { DEFAULT_LOCALE, LOCALES, type Locale } from '@bourse/i18n';
import { AppError, ATOMS_PER_UNIT, fromAtoms, type ResultKey, toAtoms } from '@bourse/shared';
import { CONTENT_PAGE_SLUGS, TERMS_PAGE_SLUG } from '@bourse/shared/api';
import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db.ts';
import type { ContentKind } from '../../platform/schema.ts';
import type { StaffActor } from '../../platform/staff-actor.ts';
import { fromMillis, toMillis } from '../../platform/time.ts';
import type { AuditService } from '../audit/service.ts';
import type { SettingsService } from '../settings/service.ts';
import { DEMO_CONTENT, type DemoContentItem } from './demo.ts';
import { DEMO_PAGES } from './demo-pages.ts';
import * as repo from './repository.ts';
import { sanitizeBody } from './sanitize.ts';

const PAGE = 20;
const CLAIM_LEVERAGE = 'claims.leverage_max';
const CLAIM_RESERVE = 'claims.reserve_btc';
const DEMO_SEEDED = 'demo_content_seeded';
const DEMO_PAGES_SEEDED = 'demo_pages_seeded';
/** The last terms version ever given: versions only go up, even when a text is unpublished or deleted. */
const TERMS_LAST_VERSION = 'content.terms_last_version';
/**
 * How long the terms version in force is kept between reads on the order path. A version staff
 * publish on this node applies at once; one published on another node, or one whose publish time
 * comes, within this time.
 */
const TERMS_CACHE_MS = 5_000;
/** At most this many remembered acceptances (user and version) before the memory starts over. */
const ACCEPTED_CACHE_MAX = 100_000;

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

/** What `detail` can answer besides the codes every route can. */
export const DETAIL_ERRORS = ['RECORD_NOT_FOUND'] as const satisfies readonly ResultKey[];

/** What `acceptTerms` can answer besides the codes every route can. */
export const ACCEPT_TERMS_ERRORS = [
  'TERMS_VERSION_STALE',
  'PARAM_MISSING',
] as const satisfies readonly ResultKey[];

/** What `save` can answer besides the codes every route can. */
export const SAVE_ERRORS = [
  'PARAM_ERROR',
  'CONTENT_TITLE_INVALID',
  'CONTENT_BODY_INVALID',
  'CONTENT_DEFAULT_TEXT_REQUIRED',
  'RECORD_NOT_FOUND',
] as const satisfies readonly ResultKey[];

/** What `remove` can answer besides the codes every route can. */
export const REMOVE_ERRORS = ['RECORD_NOT_FOUND'] as const satisfies readonly ResultKey[];

/** The newest published (signed) proof-of-reserves snapshot, as a claim about reserves needs it. */
export interface PublishedReserves {
  snapshotId: number;
  /** Per asset, in atoms (decimal strings): what the snapshot's reserve entries hold. */
  reserveTotals: Record<string, string>;
}

/**
 * Why a reserve claim is withheld from customers: '' (it is shown), `no_snapshot` (no snapshot is
 * published), `not_covered` (the latest published snapshot's reserves hold less than it claims).
 */
type ReserveWithheld = '' | 'no_snapshot' | 'not_covered';

/**
 * Why a claim of `claimed` (a decimal amount) of `asset` is withheld, '' when the latest published
 * snapshot covers it: its reserves of that asset are at least the claim, compared exactly in atoms.
 */
function reserveWithheld(
  claimed: string,
  asset: string,
  latest: PublishedReserves | undefined,
): ReserveWithheld {
  if (!latest) return 'no_snapshot';
  const held = BigInt(latest.reserveTotals[asset] ?? '0');
  return held >= toAtoms(claimed) ? '' : 'not_covered';
}

/** What `setClaims` can answer besides the codes every route can. */
export const SET_CLAIMS_ERRORS = ['CONFIG_AMOUNT_INVALID'] as const satisfies readonly ResultKey[];

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
  readonly #latestReserves: () => Promise<PublishedReserves | undefined>;
  readonly #leverageOffered: () => Promise<number>;
  #terms: { version: bigint; readAt: number } | undefined;
  /** `user:version` pairs known accepted: an acceptance is never withdrawn, so this never goes stale. */
  readonly #accepted = new Set<string>();

  constructor(deps: {
    db: Db;
    clock: Clock;
    audit: AuditService;
    settings: SettingsService;
    /**
     * The newest published proof-of-reserves snapshot (undefined when none is): the evidence a
     * reserve claim links to, whose reserves must cover the amount it names.
     */
    latestReserves: () => Promise<PublishedReserves | undefined>;
    /** The highest leverage an open market offers now (0 = none): what a leverage claim needs. */
    leverageOffered: () => Promise<number>;
  }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#audit = deps.audit;
    this.#settings = deps.settings;
    this.#latestReserves = deps.latestReserves;
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

  async #storedClaims() {
    const [leverageMax, reserveBtc] = await Promise.all([
      this.#settings.get(CLAIM_LEVERAGE),
      this.#settings.get(CLAIM_RESERVE),
    ]);
    return { leverageMax: leverageMax ?? '', reserveBtc: reserveBtc ?? '' };
  }

  /**
   * The marketing claims the operator configured ('' = not made), as staff set them, with the
   * evidence each needs: the latest published reserve snapshot (its id, the BTC its reserves hold,
   * and why a reserve claim is withheld: '' when it is shown), and the highest leverage an open
   * market offers.
   */
  async configuredClaims() {
    const [stored, latest, leverageOffered] = await Promise.all([
      this.#storedClaims(),
      this.#latestReserves(),
      this.#leverageOffered(),
    ]);
    return {
      ...stored,
      reserveEvidence: latest !== undefined,
      reserveSnapshotId: latest?.snapshotId ?? 0,
      reserveHeld: latest ? fromAtoms(BigInt(latest.reserveTotals.BTC ?? '0')) : '',
      reserveWithheld: stored.reserveBtc === '' ? '' : reserveWithheld(stored.reserveBtc, 'BTC', latest),
      leverageOffered,
    };
  }

  /**
   * The claims customers see, each only while what the platform runs backs it: a reserve figure
   * while the latest published proof-of-reserves snapshot holds at least that much BTC in reserve
   * (the page links to it), a leverage figure while an open market offers at least that much
   * leverage. The app never states what nobody can check, what the proof contradicts, or what
   * nobody can use.
   */
  async publicClaims() {
    const claims = await this.configuredClaims();
    const isLeverageBacked =
      claims.leverageMax !== '' &&
      claims.leverageOffered > 0 &&
      toAtoms(claims.leverageMax) <= BigInt(claims.leverageOffered) * ATOMS_PER_UNIT;
    return {
      leverageMax: isLeverageBacked ? claims.leverageMax : '',
      reserveBtc: claims.reserveWithheld === '' ? claims.reserveBtc : '',
    };
  }

  /**
   * Demo mode: the demo announcements, pages and help articles, and the two claims (the spec's
   * leverage, and `claims.reserveBtc`, BTC the demo's proof of reserves covers, so the proof never
   * contradicts it), written once (the `demo_content_seeded` setting records it), so staff edits
   * and deletions stay; the privacy policy, terms of service (version 1, accepted by `acceptedBy`,
   * the demo's own customers) and whitepaper likewise once (`demo_pages_seeded`), also on a store
   * seeded before those pages existed.
   */
  async seedDemo(
    acceptedBy: readonly bigint[] = [],
    claims: { reserveBtc: string } = { reserveBtc: '' },
  ): Promise<boolean> {
    const now = this.#clock.now();
    const seeded = await this.#seedOnce(DEMO_SEEDED, DEMO_CONTENT, async (trx) => {
      await this.#settings.set(trx, CLAIM_LEVERAGE, '5');
      await this.#settings.set(trx, CLAIM_RESERVE, claims.reserveBtc);
    });
    const pagesSeeded = await this.#seedOnce(DEMO_PAGES_SEEDED, DEMO_PAGES, async (trx, ids) => {
      const termsId = ids.get(TERMS_PAGE_SLUG);
      if (termsId === undefined) return;
      const version = await this.#newTermsVersion(trx);
      await repo.setTermsVersion(trx, termsId, version);
      for (const userId of acceptedBy) {
        await repo.insertAcceptance(trx, { userId, version, ip: '127.0.0.1', now: toMillis(now) });
      }
    });
    this.#terms = undefined;
    return seeded || pagesSeeded;
  }

  async #seedOnce(
    key: string,
    items: readonly DemoContentItem[],
    then: (trx: Db, idsBySlug: Map<string, bigint>) => Promise<void>,
  ): Promise<boolean> {
    if (await this.#settings.get(key)) return false;
    const now = this.#clock.now();
    // why: sanitised before the transaction, which then holds the store only to write.
    const texts = await Promise.all(
      items.map((item) =>
        Promise.all(
          Object.entries(item.texts).map(async ([locale, t]) => ({
            locale,
            title: t.title,
            body: await sanitizeBody(t.body),
          })),
        ),
      ),
    );
    return this.#db.transaction().execute(async (trx) => {
      if (await this.#settings.get(key, trx)) return false;
      const ids = new Map<string, bigint>();
      for (const [index, item] of items.entries()) {
        const id = await repo.insertItem(trx, {
          kind: item.kind,
          slug: item.slug,
          pinned: item.pinned,
          status: 'published',
          publishAt: toMillis(now - item.ageHours * 3_600_000),
          staffId: null,
          now: toMillis(now),
        });
        if (item.slug) ids.set(item.slug, id);
        await repo.replaceTexts(trx, id, texts[index] ?? []);
      }
      await then(trx, ids);
      await this.#settings.set(trx, key, String(now));
      return true;
    });
  }

  // ---- terms of service ----

  /** The terms version in force now (0: no terms page is published, so nothing is to accept). */
  async currentTermsVersion(db: Db = this.#db): Promise<bigint> {
    const row = await repo.findPublished(
      db,
      { kind: 'page', slug: TERMS_PAGE_SLUG },
      toMillis(this.#clock.now()),
    );
    return row?.terms_version ?? 0n;
  }

  /** A customer's acceptance of the terms in force. */
  async termsStatus(userId: bigint) {
    const [version, newest] = await Promise.all([
      this.currentTermsVersion(),
      repo.newestAcceptance(this.#db, userId),
    ]);
    const hasAccepted = version === 0n || (await this.#hasAccepted(userId, version));
    return {
      version,
      acceptedVersion: newest?.version ?? 0n,
      acceptedAt: newest ? fromMillis(newest.accepted_at) : 0,
      mustAccept: !hasAccepted,
    };
  }

  /**
   * Records that a signed-in customer accepts `version`, which must be the one in force
   * (TERMS_VERSION_STALE otherwise: they read another text). Accepting again changes nothing.
   */
  async acceptTerms(userId: bigint, version: bigint, ip: string) {
    await this.#db.transaction().execute((trx) => this.acceptAtRegistration(trx, userId, version, ip));
    return this.termsStatus(userId);
  }

  /**
   * In the registration's transaction: records that the new account accepted `version` on the
   * form, which must be the version in force (TERMS_VERSION_STALE otherwise, and nothing is
   * created).
   */
  async acceptAtRegistration(trx: Db, userId: bigint, version: bigint, ip: string): Promise<void> {
    const current = await this.currentTermsVersion(trx);
    if (current === 0n || version !== current) throw new AppError('TERMS_VERSION_STALE');
    await repo.insertAcceptance(trx, { userId, version, ip, now: toMillis(this.#clock.now()) });
  }

  /**
   * TERMS_NOT_ACCEPTED unless the customer accepted the terms in force (nothing is required while
   * none are published). On the order path: the version is read at most once per
   * {@link TERMS_CACHE_MS}, and a customer's acceptance of it once.
   */
  async requireAccepted(userId: bigint): Promise<void> {
    const now = this.#clock.now();
    if (!this.#terms || now - this.#terms.readAt >= TERMS_CACHE_MS || now < this.#terms.readAt) {
      this.#terms = { version: await this.currentTermsVersion(), readAt: now };
    }
    const version = this.#terms.version;
    if (version === 0n) return;
    if (!(await this.#hasAccepted(userId, version))) throw new AppError('TERMS_NOT_ACCEPTED');
  }

  async #hasAccepted(userId: bigint, version: bigint): Promise<boolean> {
    const key = `${userId}:${version}`;
    if (this.#accepted.has(key)) return true;
    if (!(await repo.hasAccepted(this.#db, userId, version))) return false;
    if (this.#accepted.size >= ACCEPTED_CACHE_MAX) this.#accepted.clear();
    this.#accepted.add(key);
    return true;
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
      termsVersion: Number(row.terms_version),
      texts: Object.fromEntries(
        texts
          .filter((t) => t.item_id === row.id)
          .map((t) => [t.locale, { title: t.title, body: t.body_html }]),
      ),
    }));
  }

  /**
   * Creates (no `id`) or updates an item; bodies are sanitised, ja-JP is required; audited. The
   * terms page gets a new version when it is published with a text not published before (a changed
   * text saved as a draft loses its version until then); its publish time, pinning or a republish
   * of the same text keep it, so customers accept again only what they have not read.
   */
  async save(staff: StaffActor, input: ContentInput, id?: bigint): Promise<bigint> {
    const texts = await Promise.all(
      Object.entries(input.texts)
        .filter(([locale, t]) => (LOCALES as readonly string[]).includes(locale) && t.title.trim())
        .map(async ([locale, t]) => ({ locale, title: t.title.trim(), body: await sanitizeBody(t.body) })),
    );
    if (!texts.some((t) => t.locale === DEFAULT_LOCALE)) throw new AppError('CONTENT_DEFAULT_TEXT_REQUIRED');
    const slug = input.kind === 'page' ? input.slug : '';
    if (input.kind === 'page' && !(CONTENT_PAGE_SLUGS as readonly string[]).includes(slug))
      throw new AppError('PARAM_ERROR');
    const now = toMillis(this.#clock.now());
    const publishAt = toMillis(input.publishAt || this.#clock.now());
    const saved = await this.#db.transaction().execute(async (trx) => {
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
      const termsVersion = await this.#nextTermsVersion(trx, itemId, before, input.status, slug, texts);
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
          ...(slug === TERMS_PAGE_SLUG ? { termsVersion: Number(termsVersion) } : {}),
        },
        ip: staff.ip,
      });
      return itemId;
    });
    // why: after the commit, so no read in between can keep the old version for TERMS_CACHE_MS.
    this.#terms = undefined;
    return saved;
  }

  /** Sets (and answers) a saved item's terms version; see {@link save}. */
  async #nextTermsVersion(
    trx: Db,
    itemId: bigint,
    before: { terms_version: bigint } | undefined,
    status: 'draft' | 'published',
    slug: string,
    texts: readonly { locale: string; title: string; body: string }[],
  ): Promise<bigint> {
    const previous = before?.terms_version ?? 0n;
    if (slug !== TERMS_PAGE_SLUG) {
      if (previous !== 0n) await repo.setTermsVersion(trx, itemId, 0n);
      return 0n;
    }
    const key = (list: readonly { locale: string; title: string; body: string }[]) =>
      JSON.stringify(
        [...list].sort((a, b) => a.locale.localeCompare(b.locale)).map((t) => [t.locale, t.title, t.body]),
      );
    const stored = before ? await repo.textsOf(trx, [itemId]) : [];
    const isSameText =
      before !== undefined &&
      key(stored.map((t) => ({ locale: t.locale, title: t.title, body: t.body_html }))) === key(texts);
    let version = isSameText ? previous : 0n;
    if (status === 'published' && version === 0n) version = await this.#newTermsVersion(trx);
    if (version !== previous) await repo.setTermsVersion(trx, itemId, version);
    return version;
  }

  /** A version never given before (a text once version n is never n again, so no acceptance carries over). */
  async #newTermsVersion(trx: Db): Promise<bigint> {
    const last = BigInt((await this.#settings.get(TERMS_LAST_VERSION, trx)) ?? '0');
    const highest = await repo.maxTermsVersion(trx);
    const version = (last > highest ? last : highest) + 1n;
    await this.#settings.set(trx, TERMS_LAST_VERSION, String(version));
    return version;
  }

  async remove(staff: StaffActor, id: bigint): Promise<void> {
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
    this.#terms = undefined;
  }

  /** Sets the marketing claims ('' withdraws one); audited. */
  async setClaims(staff: StaffActor, claims: { leverageMax: string; reserveBtc: string }): Promise<void> {
    for (const value of [claims.leverageMax, claims.reserveBtc]) {
      if (value !== '' && !/^\d{1,9}(\.\d{1,8})?$/.test(value)) throw new AppError('CONFIG_AMOUNT_INVALID');
    }
    const before = await this.#storedClaims();
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
