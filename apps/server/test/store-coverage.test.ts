// Which server suites run on both stores, and which on SQLite alone.
//
// The rule: a suite runs on SQLite and PostgreSQL (`DIALECTS`) when what it tests reaches the
// store — money paths, locks, limits, conflicts, leases, backups, repositories, anything written
// and read back. A suite that tests HTTP, validation or rendering, which no store changes, runs on
// SQLite alone (`SQLITE_ONLY`): PostgreSQL would repeat it at twice the cost. A new suite that
// uses either is listed here, so the choice is made once and seen in review.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const BOTH_STORES = [
  // money paths: the ledger and every product that moves balances
  'adjustment-approval',
  'api-bounds.property',
  'delivery',
  'delivery-crash',
  'delivery.property',
  'delivery-pnl-days',
  'demo-idle',
  'launchpad',
  'launchpad-races',
  'ledger',
  'ledger-check',
  'ledger-lock-order.property',
  'market-maker',
  'mining',
  'perp-abuse',
  'perp-batch-failure',
  'perp-idempotency',
  'perp-maker',
  'perpetual',
  'platform-halt',
  'reserves',
  'spot',
  'spot-candles',
  'spot-ownership',
  'spot-price-range',
  'spot-staff',
  'spot-triggers',
  'spot-ws',
  'trial-rules',
  'wallet',
  'wallet-addresses',
  'wallet-uploads',
  'wallet.property',
  // locks, limits, conflicts, leases and the store itself
  'limits',
  'owned-batches',
  'pg-conflicts',
  'query-plans',
  'retention',
  'scheduler',
  'store',
  'warm-up',
  // backups, first start, stored files and the price history
  'backups',
  'first-start',
  'seed-year',
  'index-history',
  'index-sources',
  'markets',
  'readiness',
  'shared-uploads',
  // accounts, staff and the audit log: records written and read back
  'account-services',
  'audit',
  'auth',
  'content',
  'invitations',
  'sessions',
  'staff',
  'staff-config',
  'staff-secrets',
  'support-chat',
  'terms',
  'users',
];

const SQLITE_ALONE = [
  // the envelope and translated message of each kind of bad input, before any store is reached
  'bad-input',
  // image decoding and size limits (the stored result is tested on both by wallet-uploads)
  'upload-limits',
  // the certificate image's checks and re-encoding (stored files: shared-uploads, on both)
  'msb-certificate',
];

const dir = import.meta.dirname;
const suites = fs
  .readdirSync(dir)
  .filter((file) => file.endsWith('.test.ts') && file !== path.basename(import.meta.filename))
  .map((file) => ({
    name: file.slice(0, -'.test.ts'.length),
    text: fs.readFileSync(path.join(dir, file), 'utf8'),
  }));

describe('the stores each server suite runs on', () => {
  it('lists every suite that runs on both stores, and each of them uses DIALECTS', () => {
    const onBoth = suites.filter((suite) => /\bDIALECTS\b/.test(suite.text)).map((suite) => suite.name);
    expect(onBoth.sort()).toEqual([...BOTH_STORES].sort());
  });

  it('lists every suite that runs on SQLite alone, and none of them uses DIALECTS', () => {
    const alone = suites.filter((suite) => /\bSQLITE_ONLY\b/.test(suite.text)).map((suite) => suite.name);
    expect(alone.sort()).toEqual([...SQLITE_ALONE].sort());
    for (const name of SQLITE_ALONE) {
      expect(suites.find((suite) => suite.name === name)?.text, name).not.toMatch(/\bDIALECTS\b/);
    }
  });
});
