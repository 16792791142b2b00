// Announcements, help and pages, terms acceptances and editable texts.

import type { Generated } from 'kysely';
import type { Millis } from './columns.ts';

export type ContentKind = 'announcement' | 'help' | 'page';

export interface ContentItemsTable {
  id: Generated<bigint>;
  kind: ContentKind;
  /** A page's name (`aboutus`, `msb`); '' for announcements and help articles. */
  slug: Generated<string>;
  pinned: Generated<bigint>;
  status: 'draft' | 'published';
  /** Shown to customers from this time on (once published). */
  publish_at: Millis;
  created_by: bigint | null;
  created_at: Millis;
  updated_at: Millis;
  /** A terms page's version (unique when > 0); 0 for other items and unpublished terms texts. */
  terms_version: Generated<bigint>;
}

/** Which terms-of-service versions each customer accepted, when and from where. */
export interface TermsAcceptancesTable {
  user_id: bigint;
  version: bigint;
  accepted_at: Millis;
  ip: Generated<string>;
}

export interface ContentTextsTable {
  item_id: bigint;
  locale: string;
  title: string;
  /** Sanitised when written: only the allowed tags and attributes remain. */
  body_html: string;
}
