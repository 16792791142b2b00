import type { Millis } from './columns.ts';

/** A market's owner: one node at a time; `epoch` grows by one at every change of owner. */
export interface MarketLeasesTable {
  symbol: string;
  holder: string;
  epoch: bigint;
  expires_at: Millis;
}

/** A node's heartbeat: alive while `expires_at` is ahead. */
export interface ClusterNodesTable {
  node_id: string;
  started_at: Millis;
  expires_at: Millis;
}

/** The one row of when a customer was last seen on any node (platform/customer-activity.ts). */
export interface CustomerActivityTable {
  id: bigint;
  last_seen_at: Millis;
}
