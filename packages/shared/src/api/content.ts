import { z } from 'zod';
import { textField } from './fields.ts';
import { idField, pageField } from './wallet.ts';

// ---- Announcements and help (`/Index/gglist`, `/Index/gginfo`, `/Index/help`, `/Index/helpinfo`) ----

export const ContentListQuery = z.object({ page: pageField });
export type ContentListQuery = z.input<typeof ContentListQuery>;

export const ContentListItem = z.object({
  id: z.number().int(),
  title: z.string(),
  /** The start of the body as plain text (at most 140 characters). */
  excerpt: z.string(),
  pinned: z.boolean(),
  published_at: z.number().int(),
});
export type ContentListItem = z.infer<typeof ContentListItem>;

export const ContentList = z.object({
  list: z.array(ContentListItem),
  page: z.number().int(),
  has_more: z.boolean(),
});
export type ContentList = z.infer<typeof ContentList>;

export const ContentQuery = z.object({ id: idField });
export type ContentQuery = z.input<typeof ContentQuery>;

export const ContentDetail = z.object({
  id: z.number().int(),
  title: z.string(),
  /** Sanitised when written: paragraphs, emphasis, lists, headings, links and images only. */
  body_html: z.string(),
  pinned: z.boolean(),
  published_at: z.number().int(),
});
export type ContentDetail = z.infer<typeof ContentDetail>;

/**
 * The operator's pages: about us and the MSB certificate (spec §2: /Index/aboutus, /Index/msb),
 * and the privacy policy, terms of service and whitepaper (spec §1).
 */
export const CONTENT_PAGE_SLUGS = ['aboutus', 'msb', 'privacy', 'terms', 'whitepaper'] as const;
export type ContentPageSlug = (typeof CONTENT_PAGE_SLUGS)[number];
/** The page whose published version customers accept (a new published text is a new version). */
export const TERMS_PAGE_SLUG = 'terms' satisfies ContentPageSlug;
export const ContentPageQuery = z.object({
  slug: z.enum(CONTENT_PAGE_SLUGS, {
    error: (i) => (i.input === undefined ? 'PARAM_MISSING' : 'PARAM_ERROR'),
  }),
});
export type ContentPageQuery = z.input<typeof ContentPageQuery>;

// ---- Terms of service (`/Index/terms`, `/user/terms`, `/user/acceptterms`) ----

/** The terms-of-service version in force; 0 when no terms are published (nothing to accept). */
export const TermsVersion = z.object({ version: z.number().int() });
export type TermsVersion = z.infer<typeof TermsVersion>;

/** The signed-in customer's acceptance of the terms in force. */
export const TermsStatus = z.object({
  /** The version in force; 0 = none published. */
  version: z.number().int(),
  /** The newest version this customer accepted; 0 = none. */
  accepted_version: z.number().int(),
  /** When they accepted it (unix ms); 0 = never. */
  accepted_at: z.number().int(),
  /** Whether trading, subscribing and withdrawing wait for this customer to accept `version`. */
  must_accept: z.boolean(),
});
export type TermsStatus = z.infer<typeof TermsStatus>;

export const AcceptTermsBody = z.object({
  /** The version the customer read and accepts; anything but the one in force is TERMS_VERSION_STALE. */
  version: z.coerce
    .number({ error: (i) => (i.input === undefined ? 'PARAM_MISSING' : 'TERMS_VERSION_STALE') })
    .int({ error: 'TERMS_VERSION_STALE' })
    .min(1, { error: 'TERMS_VERSION_STALE' })
    .max(1_000_000_000, { error: 'TERMS_VERSION_STALE' }),
  token: z.string().max(200).optional(),
});
export type AcceptTermsBody = z.input<typeof AcceptTermsBody>;

/** The newest pinned announcement, for the home page's scrolling line; `null` when none. */
export const Marquee = z.object({
  item: z.object({ id: z.number().int(), title: z.string() }).nullable(),
});
export type Marquee = z.infer<typeof Marquee>;

/**
 * The marketing claims the operator makes ('' = not made). A reserve claim is only answered while
 * the latest published proof-of-reserves snapshot, the evidence it links to, holds at least that
 * much BTC in reserve.
 */
export const Claims = z.object({
  leverage_max: z.string(),
  reserve_btc: z.string(),
});
export type Claims = z.infer<typeof Claims>;

// ---- Staff (`/admin-api/content*`) ----

export const CONTENT_KINDS = ['announcement', 'help', 'page'] as const;

export const AdminContentQuery = z.object({
  kind: z.enum(CONTENT_KINDS).optional(),
  token: z.string().max(200).optional(),
});

const ContentText = z.object({
  title: textField('CONTENT_TITLE_INVALID', { max: 200 }),
  body: z.string({ error: 'CONTENT_BODY_INVALID' }).max(100_000, { error: 'CONTENT_BODY_INVALID' }),
});

export const AdminContentItem = z.object({
  id: z.number().int(),
  kind: z.enum(CONTENT_KINDS),
  slug: z.string(),
  pinned: z.boolean(),
  status: z.enum(['draft', 'published']),
  publishAt: z.number().int(),
  author: z.string().nullable(),
  updatedAt: z.number().int(),
  /**
   * The terms page's version (0 for every other item, and for a terms draft whose text changed):
   * publishing a changed terms text makes a new version that customers accept again.
   */
  termsVersion: z.number().int(),
  /** Per locale; ja-JP is always present. */
  texts: z.record(z.string(), z.object({ title: z.string(), body: z.string() })),
});
export type AdminContentItem = z.infer<typeof AdminContentItem>;

export const AdminContentList = z.object({ list: z.array(AdminContentItem) });

export const AdminContentBody = z.object({
  kind: z.enum(CONTENT_KINDS, { error: 'PARAM_ERROR' }),
  /** For pages: `aboutus`, `msb`, `privacy`, `terms` or `whitepaper`; ignored otherwise. */
  slug: z.string().max(40, { error: 'PARAM_ERROR' }).optional().default(''),
  pinned: z.boolean().optional().default(false),
  status: z.enum(['draft', 'published'], { error: 'PARAM_ERROR' }),
  /** Milliseconds since the epoch; 0 or absent = now. */
  publishAt: z.number({ error: 'PARAM_ERROR' }).int().min(0).optional().default(0),
  /** Per locale; a ja-JP text is required (the fallback every reader can get). */
  texts: z.record(z.string().max(10), ContentText),
});
export type AdminContentBody = z.input<typeof AdminContentBody>;

export const AdminContentIdParams = z.object({ id: z.coerce.number().int().min(1) });

export const AdminClaims = z.object({
  /** e.g. "5" for "leverage up to 5x"; '' withdraws the claim. */
  leverageMax: z.string().max(20),
  /** e.g. "20000" for "a 20,000 BTC reserve"; '' withdraws the claim. */
  reserveBtc: z.string().max(20),
  /** Read-only: whether a proof-of-reserves snapshot is published (the evidence a reserve claim links to). */
  reserveEvidence: z.boolean().optional(),
  /** Read-only: the latest published snapshot's id (0 = none). */
  reserveSnapshotId: z.number().int().optional(),
  /** Read-only: the BTC that snapshot's reserves hold, a decimal string ('' = no snapshot published). */
  reserveHeld: z.string().optional(),
  /**
   * Read-only: why customers do not see the reserve claim: '' (they see it), `no_snapshot` (none is
   * published) or `not_covered` (the latest published snapshot holds less BTC than it claims).
   */
  reserveWithheld: z.enum(['', 'no_snapshot', 'not_covered']).optional(),
  /** Read-only: the highest leverage an open market offers (0 = none); a leverage claim above it is not shown. */
  leverageOffered: z.number().int().optional(),
});

/**
 * The operator's MSB registration certificate (`/Index/msbcert`; in the back office
 * `/content-msb`): its image's URL under `/Upload/public/`, '' when none is set. The page's text
 * is the `msb` content page.
 */
export const MsbCertificate = z.object({ image_url: z.string() });
export type MsbCertificate = z.infer<typeof MsbCertificate>;
