// Proof of reserves: snapshots, their Merkle nodes and leaves, and the reserves declared.

import type { Generated } from 'kysely';
import type { Millis } from './columns.ts';

export interface PorSnapshotsTable {
  id: Generated<bigint>;
  /** The snapshot's instant (00:00 UTC for the scheduled ones), unique. */
  taken_at: Millis;
  /** The last journal entry the snapshot counts. */
  ledger_seq: bigint;
  /** JSON array of the asset symbols, in the order of every balance vector. */
  assets: string;
  depth: bigint;
  /** Root hash, hex. */
  root: string;
  /** JSON array of decimal strings, one per asset. */
  root_sums: string;
  /** JSON object: trial money per asset (not counted; published on its own line). */
  trial_total: string;
  /** 1 for the first of the month (kept indefinitely, attested). */
  monthly: bigint;
  /** `pending` until its header is signed (reserve entries are attached meanwhile), then `published`. */
  status: 'pending' | 'published';
  /** When the scheduled job publishes it (unix ms). */
  publish_at: Millis;
  /** The signed header as published (canonical JSON) and its signature. */
  header_json: string | null;
  sig: string | null;
  created_at: Millis;
}

export interface PorNodesTable {
  snapshot_id: bigint;
  /** 0 = leaves (in tree order), up to `depth` = the root. */
  level: bigint;
  idx: bigint;
  hash: string;
  /** JSON array of decimal strings, one per asset. */
  sums: string;
}

export interface PorLeavesTable {
  snapshot_id: bigint;
  user_id: bigint;
  leaf_index: bigint;
  /** JSON array of decimal strings: the balances the leaf commits to. */
  balances: string;
}

export interface PorReservesTable {
  id: Generated<bigint>;
  snapshot_id: bigint;
  asset: string;
  chain: string;
  address: string;
  balance: bigint;
  height: bigint;
  block_hash: string;
  message: string;
  sig: string;
  scheme: string;
  simulated: bigint;
  created_at: Millis;
}
