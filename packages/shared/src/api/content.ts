import { z } from 'zod';
import { textField } from './fields.ts';
import { idField, pageField } from './wallet.ts';

// ---- Announcements and help (`/Index/gglist`, `/Index/gginfo`, `/Index/help`, `/Index/helpinfo`) ----

export const ContentListQuery = z.object({ page: pageField });

export const ContentListItem = z.object({
  id: z.number().int(),
  title: z.string(),
  /** The start of the body as plain text (at most 140 characters). */
  excerpt: z.string(),
  pinned: z.boolean(),
  published_at: z.number().int(),
});

export const ContentList = z.object({
  list: z.array(ContentListItem),
  page: z.number().int(),
  has_more: z.boolean(),
});
export type ContentList = z.infer<typeof ContentList>;

export const ContentQuery = z.object({ id: idField });

export const ContentDetail = z.object({
  id: z.number().int(),
  title: z.string(),
  /** Sanitised when written: paragraphs, emphasis, lists, headings, links and images only. */
  body_html: z.string(),
  pinned: z.boolean(),
  published_at: z.number().int(),
});
export type ContentDetail = z.infer<typeof ContentDetail>;

/** The operator's pages (spec §2: /Index/aboutus, /Index/msb). */
export const CONTENT_PAGE_SLUGS = ['aboutus', 'msb'] as const;
export const ContentPageQuery = z.object({
  slug: z.enum(CONTENT_PAGE_SLUGS, {
    error: (i) => (i.input === undefined ? 'PARAM_MISSING' : 'PARAM_ERROR'),
  }),
});

/** The newest pinned announcement, for the home page's scrolling line; `null` when none. */
export const Marquee = z.object({
  item: z.object({ id: z.number().int(), title: z.string() }).nullable(),
});
export type Marquee = z.infer<typeof Marquee>;

/**
 * The marketing claims the operator makes ('' = not made). A reserve claim is only answered while
 * a proof-of-reserves snapshot is published, the evidence it links to.
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
  /** Per locale; ja-JP is always present. */
  texts: z.record(z.string(), z.object({ title: z.string(), body: z.string() })),
});
export type AdminContentItem = z.infer<typeof AdminContentItem>;

export const AdminContentList = z.object({ list: z.array(AdminContentItem) });

export const AdminContentBody = z.object({
  kind: z.enum(CONTENT_KINDS, { error: 'PARAM_ERROR' }),
  /** For pages: `aboutus` or `msb`; ignored otherwise. */
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
  /** Read-only: whether a published proof-of-reserves snapshot backs a reserve claim. */
  reserveEvidence: z.boolean().optional(),
  /** Read-only: the highest leverage an open market offers (0 = none); a leverage claim above it is not shown. */
  leverageOffered: z.number().int().optional(),
});
