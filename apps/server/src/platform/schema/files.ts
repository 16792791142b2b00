// Uploaded files kept in the store itself (several nodes on one PostgreSQL database).

import type { Millis } from './columns.ts';

/** One uploaded file of a named file store ('uploads', 'identity', 'chat'): its bytes and what they are. */
export interface StoredFilesTable {
  store: string;
  /** The generated name (never a user's), unique within its store. */
  name: string;
  bytes: Buffer;
  /** The content type of the bytes as re-encoded (e.g. `image/webp`). */
  content_type: string;
  size: bigint;
  created_at: Millis;
}
