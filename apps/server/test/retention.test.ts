import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RESULT_CODES } from '@bourse/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAKER_USERNAME } from '../src/modules/mm/service.ts';
import { PERP_MAKER_USERNAME } from '../src/modules/perpetual/maker.ts';
import { EMAIL_CODE_TTL_MS } from '../src/modules/security/service.ts';
import { sha256 } from '../src/platform/crypto.ts';
import type { Db } from '../src/platform/db.ts';
import { pruneInSlices } from '../src/platform/prune.ts';
import { openLimitStore } from '../src/platform/rate-limit.ts';
import { toMillis } from '../src/platform/time.ts';
import { callAdmin, DIALECTS, registerAndLogin, startServer, type TestServer } from './harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';

const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;
/** Small slices, so a handful of rows takes several and the count of slices is visible. */
const SLICE = 3;
const slicesFor = (rows: number) => Math.ceil(rows / SLICE);

/** Money records: no prune may touch a row of them. */
const MONEY_TABLES = [
  'journal_entries',
  'postings',
  'ledger_accounts',
  'audit_log',
  'deposits',
  'withdrawals',
  'spot_trades',
  'perp_trades',
  'perp_positions',
  'delivery_contracts',
] as const;

/** A staff session row (a login step when `stage` says so), its token's hash stored as at login. */
function staffSession(
  staffId: bigint,
  createdAt: number,
  more: { token?: string; lastUsedAt?: number; revokedAt?: number; stage?: 'enrol' | 'totp' | 'active' } = {},
) {
  return {
    staff_id: staffId,
    token_hash: sha256(more.token ?? randomBytes(16).toString('hex')),
    stage: more.stage ?? 'active',
    device: 'test',
    ip: '127.0.0.1',
    created_at: toMillis(createdAt),
    last_used_at: toMillis(more.lastUsedAt ?? createdAt),
    revoked_at: more.revokedAt === undefined ? null : toMillis(more.revokedAt),
  };
}

/** The first staff account: the owner every server creates at its first start. */
async function firstStaffId(db: Db): Promise<bigint> {
  return (await db.selectFrom('staff').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
}

/** Row counts of the money records, and of the orders of everyone but the bots. */
async function moneyCounts(db: Db, botIds: bigint[]) {
  const counts: Record<string, number> = {};
  for (const table of MONEY_TABLES) {
    const row = await db
      .selectFrom(table as 'postings')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  for (const table of ['spot_orders', 'perp_orders'] as const) {
    const row = await db
      .selectFrom(table as 'spot_orders')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', 'not in', botIds)
      .executeTakeFirstOrThrow();
    counts[`customer ${table}`] = Number(row.n);
  }
  return counts;
}

describe('pruning in slices', () => {
  it('stops at the first short slice and counts the slices that deleted rows', async () => {
    for (const [rows, size, slices] of [
      [7, 3, 3],
      [6, 3, 2],
      [0, 3, 0],
      [1, 1000, 1],
    ] as const) {
      let left: number = rows;
      const seen: number[] = [];
      const result = await pruneInSlices(
        async (limit) => {
          const deleted = Math.min(limit, left);
          left -= deleted;
          return deleted;
        },
        { sliceSize: size, onSlice: (deleted) => seen.push(deleted) },
      );
      expect(result).toEqual({ deleted: rows, slices });
      expect(seen).toHaveLength(slices);
      expect(left).toBe(0);
    }
  });
});

describe.each(DIALECTS)('retention on $name', ({ name, skip }) => {
  describe.skipIf(skip)('', () => {
    let server: TestServer;
    let db: Db;
    let start: number;
    let runAt: number;
    let userId: bigint;
    let makerId: bigint;
    let perpMakerId: bigint;
    let perpSymbol: string;

    beforeAll(async () => {
      server = await startServer(name, {
        env: { DEMO: 'on', RETENTION_SLICE_ROWS: String(SLICE) },
        build: { startRetention: true },
      });
      db = server.app.ctx.store.db;
      start = server.clock.now();
      // why: the hourly job first runs at the next whole hour; every age below is taken from then.
      runAt = Math.floor(start / HOUR) * HOUR + HOUR;
      userId = BigInt((await registerAndLogin(server)).uid);
      const idOf = async (account: string) =>
        (await db.selectFrom('users').select('id').where('username', '=', account).executeTakeFirstOrThrow())
          .id;
      makerId = await idOf(MAKER_USERNAME);
      perpMakerId = await idOf(PERP_MAKER_USERNAME);
      perpSymbol = (
        await db.selectFrom('perp_markets').select('symbol').orderBy('symbol').executeTakeFirstOrThrow()
      ).symbol;
    });
    afterAll(async () => {
      if (server) await expectLedgerInvariants(server);
      await server?.close();
    });

    const ids = (rows: { id: bigint }[]) => rows.map((row) => row.id);
    const at = (ms: number) => toMillis(ms);

    it('deletes what is past each retention in slices, keeps the rest, and leaves money records alone', async () => {
      const maxAge = server.config.session.maxAgeMs;
      const session = (createdAt: number) => ({
        user_id: userId,
        token_hash: randomBytes(16).toString('hex'),
        device: 'test',
        ip: '127.0.0.1',
        created_at: at(createdAt),
        last_used_at: at(createdAt),
        revoked_at: null,
      });
      // over for more than the 30-day retention after the maximum age: gone, revoked or not
      const oldSessions = ids(
        await db
          .insertInto('sessions')
          .values(Array.from({ length: 7 }, (_, i) => session(runAt - maxAge - 31 * DAY - i)))
          .returning('id')
          .execute(),
      );
      const keptSessions = ids(
        await db
          .insertInto('sessions')
          .values([session(runAt - maxAge - 29 * DAY), session(runAt - DAY)])
          .returning('id')
          .execute(),
      );

      const loginLog = (createdAt: number) => ({
        user_id: userId,
        account: 'someone',
        success: 1n,
        reason: '',
        ip: '127.0.0.1',
        device: 'test',
        created_at: at(createdAt),
      });
      const oldLogins = ids(
        await db
          .insertInto('login_logs')
          .values(Array.from({ length: 7 }, (_, i) => loginLog(runAt - 181 * DAY - i)))
          .returning('id')
          .execute(),
      );
      const keptLogins = ids(
        await db
          .insertInto('login_logs')
          .values([loginLog(runAt - 179 * DAY)])
          .returning('id')
          .execute(),
      );

      const notice = (createdAt: number, forUser: bigint | null) => ({
        user_id: forUser,
        msg_key: 'test.notice',
        texts: forUser === null ? '{}' : null,
        created_at: at(createdAt),
      });
      const oldNotices = ids(
        await db
          .insertInto('notifications')
          .values([
            ...Array.from({ length: 4 }, (_, i) => notice(runAt - 181 * DAY - i, userId)),
            notice(runAt - 182 * DAY, null),
          ])
          .returning('id')
          .execute(),
      );
      const keptNotices = ids(
        await db
          .insertInto('notifications')
          .values([notice(runAt - 179 * DAY, userId)])
          .returning('id')
          .execute(),
      );
      await db
        .insertInto('notification_reads')
        .values([
          { notification_id: oldNotices[0], user_id: userId, read_at: at(runAt - 180 * DAY) },
          { notification_id: oldNotices[4], user_id: userId, read_at: at(runAt - DAY) },
          { notification_id: keptNotices[0], user_id: userId, read_at: at(runAt - DAY) },
        ])
        .execute();

      const mail = (createdAt: number, status: 'kept' | 'sent' | 'failed') => ({
        user_id: userId,
        recipient: 'someone@example.com',
        subject: 's',
        body: 'b',
        status,
        created_at: at(createdAt),
      });
      const oldMail = ids(
        await db
          .insertInto('mail_outbox')
          .values([
            mail(runAt - 31 * DAY, 'sent'),
            mail(runAt - 31 * DAY, 'kept'),
            mail(runAt - 31 * DAY, 'failed'),
            mail(runAt - 40 * DAY, 'sent'),
            mail(runAt - 400 * DAY, 'sent'),
          ])
          .returning('id')
          .execute(),
      );
      const keptMail = ids(
        await db
          .insertInto('mail_outbox')
          .values([mail(runAt - 29 * DAY, 'sent')])
          .returning('id')
          .execute(),
      );

      // staff sessions end within hours (the staff maximum age) and are kept 30 days after it
      const staffMaxAge = server.config.staffSession.maxAgeMs;
      const staffId = await firstStaffId(db);
      const staffOver = runAt - staffMaxAge - 31 * DAY;
      const oldStaffSessions = ids(
        await db
          .insertInto('staff_sessions')
          .values([
            staffSession(staffId, staffOver),
            staffSession(staffId, staffOver - 1, { revokedAt: staffOver + HOUR }),
            staffSession(staffId, staffOver - 2, { stage: 'totp' }),
            staffSession(staffId, staffOver - 3, { stage: 'enrol', revokedAt: staffOver }),
          ])
          .returning('id')
          .execute(),
      );
      const staffToken = randomBytes(16).toString('hex');
      const keptStaffSessions = ids(
        await db
          .insertInto('staff_sessions')
          .values([
            staffSession(staffId, runAt - staffMaxAge - 29 * DAY, { revokedAt: runAt - 29 * DAY }),
            // still valid when the job runs: opened 2 hours before it, used a minute before it
            staffSession(staffId, runAt - 2 * HOUR, { token: staffToken, lastUsedAt: runAt - 60_000 }),
          ])
          .returning('id')
          .execute(),
      );

      const emailCode = (createdAt: number, usedAt: number | null) => ({
        purpose: 'reset_password' as const,
        email: 'someone@example.com',
        user_id: userId,
        code_hash: randomBytes(16).toString('hex'),
        expires_at: at(createdAt + EMAIL_CODE_TTL_MS),
        used_at: usedAt === null ? null : at(usedAt),
        created_at: at(createdAt),
      });
      // codes are kept as long as the mail that carried them, used or not
      const oldCodes = ids(
        await db
          .insertInto('email_codes')
          .values([
            emailCode(runAt - 31 * DAY, null),
            emailCode(runAt - 31 * DAY - 1, runAt - 31 * DAY),
            emailCode(runAt - 90 * DAY, null),
            emailCode(runAt - 400 * DAY, runAt - 400 * DAY + 60_000),
          ])
          .returning('id')
          .execute(),
      );
      const keptCodes = ids(
        await db
          .insertInto('email_codes')
          .values([emailCode(runAt - 29 * DAY, runAt - 29 * DAY), emailCode(runAt - 60_000, null)])
          .returning('id')
          .execute(),
      );

      let orderNo = 9_000_000n;
      const perpOrder = (
        owner: bigint,
        state: 'cancelled' | 'expired' | 'rejected' | 'filled',
        filled: bigint,
        updatedAt: number,
      ) => ({
        symbol: perpSymbol,
        order_no: orderNo++,
        user_id: owner,
        side: 'buy' as const,
        type: 'limit' as const,
        price: 100n,
        qty: 10n,
        filled_qty: filled,
        filled_value: filled * 100n,
        fee: 0n,
        hold: 0n,
        leverage: 1n,
        reduce_only: 0n,
        close_position: 0n,
        post_only: 0n,
        ioc: 0n,
        trigger_kind: null,
        trigger_price: null,
        trigger_ref: null,
        trigger_condition: null,
        price_protect: 0n,
        oco: null,
        state,
        end_reason: null,
        seq: orderNo,
        idempotency_key: null,
        request_fingerprint: null,
        created_at: at(updatedAt),
        updated_at: at(updatedAt),
      });
      const old = runAt - 7 * HOUR;
      const oldPerpOrders = ids(
        await db
          .insertInto('perp_orders')
          .values([
            perpOrder(perpMakerId, 'cancelled', 0n, old),
            perpOrder(perpMakerId, 'cancelled', 0n, old),
            perpOrder(perpMakerId, 'expired', 0n, old),
            perpOrder(perpMakerId, 'rejected', 0n, old),
          ])
          .returning('id')
          .execute(),
      );
      const keptPerpOrders = ids(
        await db
          .insertInto('perp_orders')
          .values([
            perpOrder(perpMakerId, 'filled', 10n, old),
            perpOrder(perpMakerId, 'cancelled', 4n, old),
            perpOrder(perpMakerId, 'cancelled', 0n, runAt - 5 * HOUR),
            perpOrder(userId, 'cancelled', 0n, old),
          ])
          .returning('id')
          .execute(),
      );
      const minute = (ms: number) => BigInt(Math.floor(ms / 60_000));
      await db
        .insertInto('perp_premiums')
        .values([
          ...[0, 1, 2, 3].map((i) => ({
            symbol: perpSymbol,
            minute: minute(runAt - 8 * DAY) + BigInt(i),
            premium: 1n,
          })),
          { symbol: perpSymbol, minute: minute(runAt - 6 * DAY), premium: 2n },
        ])
        .execute();

      const money = await moneyCounts(db, [makerId, perpMakerId]);
      const sessionsBefore = await db.selectFrom('sessions').select('id').execute();

      await server.clock.advance(runAt - start);

      const retention = server.app.ctx.retention;
      expect(retention).toBeDefined();
      const last = Object.fromEntries(retention?.lastRun ?? []);
      expect(last).toMatchObject({
        sessions: { deleted: 7, slices: slicesFor(7) },
        staff_sessions: { deleted: 4, slices: slicesFor(4) },
        login_logs: { deleted: 7, slices: slicesFor(7) },
        // the old notices' two read marks, then the five notices
        notifications: { deleted: 2 + 5, slices: slicesFor(2) + slicesFor(5) },
        mail_outbox: { deleted: 5, slices: slicesFor(5) },
        email_codes: { deleted: 4, slices: slicesFor(4) },
        // the maker's four dead orders, then the four old premium samples
        perpetual: { deleted: 4 + 4, slices: slicesFor(4) + slicesFor(4) },
      });

      const left = async (
        table:
          | 'sessions'
          | 'staff_sessions'
          | 'login_logs'
          | 'notifications'
          | 'mail_outbox'
          | 'email_codes'
          | 'perp_orders',
        of: bigint[],
      ) => ids(await db.selectFrom(table).select('id').where('id', 'in', of).orderBy('id').execute());
      expect(await left('sessions', oldSessions)).toEqual([]);
      expect(await left('sessions', keptSessions)).toEqual(keptSessions);
      expect(await db.selectFrom('sessions').select('id').execute()).toHaveLength(sessionsBefore.length - 7);
      expect(await left('login_logs', oldLogins)).toEqual([]);
      expect(await left('login_logs', keptLogins)).toEqual(keptLogins);
      expect(await left('notifications', oldNotices)).toEqual([]);
      expect(await left('notifications', keptNotices)).toEqual(keptNotices);
      expect(
        await db
          .selectFrom('notification_reads')
          .select('notification_id')
          .where('user_id', '=', userId)
          .execute(),
      ).toEqual([{ notification_id: keptNotices[0] }]);
      expect(await left('mail_outbox', oldMail)).toEqual([]);
      expect(await left('mail_outbox', keptMail)).toEqual(keptMail);
      expect(await left('staff_sessions', oldStaffSessions)).toEqual([]);
      expect(await left('staff_sessions', keptStaffSessions)).toEqual(keptStaffSessions);
      expect((await callAdmin(server, 'GET', '/me', undefined, staffToken)).code).toBe(1000);
      expect(await left('email_codes', oldCodes)).toEqual([]);
      expect(await left('email_codes', keptCodes)).toEqual(keptCodes);
      expect(await left('perp_orders', oldPerpOrders)).toEqual([]);
      expect(await left('perp_orders', keptPerpOrders)).toEqual(keptPerpOrders);
      const premiums = await db
        .selectFrom('perp_premiums')
        .select('minute')
        .where('symbol', '=', perpSymbol)
        .orderBy('minute')
        .execute();
      expect(premiums).toEqual([{ minute: minute(runAt - 6 * DAY) }]);
      expect(await moneyCounts(db, [makerId, perpMakerId])).toEqual(money);

      // a second run finds nothing left to delete
      await server.clock.advance(HOUR);
      expect(Object.fromEntries(retention?.lastRun ?? [])).toMatchObject({
        sessions: { deleted: 0, slices: 0 },
        staff_sessions: { deleted: 0, slices: 0 },
        login_logs: { deleted: 0, slices: 0 },
        notifications: { deleted: 0, slices: 0 },
        mail_outbox: { deleted: 0, slices: 0 },
        email_codes: { deleted: 0, slices: 0 },
        perpetual: { deleted: 0, slices: 0 },
      });
    });

    it('never deletes a staff session still valid, even with a session retention of 0 days', async () => {
      const bare = await startServer(name, { env: { SESSION_RETENTION_DAYS: '0' } });
      try {
        const bareDb = bare.app.ctx.store.db;
        const now = bare.clock.now();
        const maxAge = bare.config.staffSession.maxAgeMs;
        const staffId = await firstStaffId(bareDb);
        const validToken = randomBytes(16).toString('hex');
        const agedToken = randomBytes(16).toString('hex');
        const [valid, aged] = ids(
          await bareDb
            .insertInto('staff_sessions')
            .values([
              // five minutes short of the maximum age, used a minute ago: still valid
              staffSession(staffId, now - maxAge + 5 * 60_000, {
                token: validToken,
                lastUsedAt: now - 60_000,
              }),
              // a minute past it: ended by age, though used a minute ago
              staffSession(staffId, now - maxAge - 60_000, { token: agedToken, lastUsedAt: now - 60_000 }),
            ])
            .returning('id')
            .execute(),
        );
        expect((await callAdmin(bare, 'GET', '/me', undefined, agedToken)).code).toBe(
          RESULT_CODES.SESSION_INVALID.code,
        );
        const retention = bare.app.ctx.retention;
        expect(retention).toBeDefined();
        const result = await retention?.runOnce();
        expect(result?.get('staff_sessions')).toEqual({ deleted: 1, slices: 1 });
        const left = await bareDb
          .selectFrom('staff_sessions')
          .select('id')
          .where('id', 'in', [valid, aged])
          .execute();
        expect(ids(left)).toEqual([valid]);
        expect((await callAdmin(bare, 'GET', '/me', undefined, validToken)).code).toBe(1000);
      } finally {
        await bare.close();
      }
    });

    it('prunes the spot bots’ dead quotes in slices, and no customer order or filled quote', async () => {
      const now = server.clock.now();
      let seq = 9_000_000n;
      const spotOrder = (
        owner: bigint,
        status: 'revoked' | 'completed',
        filled: bigint,
        updatedAt: number,
      ) => ({
        symbol: 'BTCUSDT',
        user_id: owner,
        side: 'buy' as const,
        type: 'limit' as const,
        tif: 'gtc' as const,
        price: 100n,
        qty: 10n,
        quote_amount: null,
        trigger_price: null,
        trigger_condition: null,
        triggered_at: null,
        filled_qty: filled,
        filled_quote: filled * 100n,
        fee: 0n,
        fee_bps: 10n,
        hold_asset: 'USDT',
        held: 0n,
        status,
        revoke_reason: null,
        seq: seq++,
        idempotency_key: `retention-${seq}`,
        created_at: at(updatedAt),
        updated_at: at(updatedAt),
      });
      const old = now - 7 * HOUR;
      const dead = ids(
        await db
          .insertInto('spot_orders')
          .values(Array.from({ length: 7 }, () => spotOrder(makerId, 'revoked', 0n, old)))
          .returning('id')
          .execute(),
      );
      const kept = ids(
        await db
          .insertInto('spot_orders')
          .values([
            spotOrder(makerId, 'revoked', 3n, old),
            spotOrder(makerId, 'completed', 10n, old),
            spotOrder(makerId, 'revoked', 0n, now - 5 * HOUR),
            spotOrder(userId, 'revoked', 0n, old),
          ])
          .returning('id')
          .execute(),
      );
      const mm = server.app.ctx.marketMaker;
      expect(mm).toBeDefined();
      const seen: number[] = [];
      // the demo seed's own bot orders are younger than the retention: only the seven go
      const result = await mm?.service.pruneBotOrders((deleted) => seen.push(deleted));
      expect(result).toEqual({ deleted: 7, slices: slicesFor(7) });
      expect(seen).toHaveLength(slicesFor(7));
      const after = await db
        .selectFrom('spot_orders')
        .select('id')
        .where('id', 'in', [...dead, ...kept])
        .orderBy('id')
        .execute();
      expect(ids(after)).toEqual(kept);
    });

    it('rolls the index history up: old ticks and fine candles go, coarse candles stay', async () => {
      const markets = server.app.ctx.markets;
      expect(markets).toBeDefined();
      const now = server.clock.now();
      const symbol = 'BTCUSDT';
      const tickAt = (ms: number) => ({ symbol, at: at(ms), price: 1n, source: 'test', constituents: null });
      const oldTicks = Array.from({ length: 7 }, (_, i) => now - 31 * DAY - i * 1000);
      await db
        .insertInto('index_ticks')
        .values([...oldTicks.map(tickAt), tickAt(now - 29 * DAY)])
        .execute();
      const candle = (interval: string, ms: number) => ({
        symbol,
        interval,
        t: at(ms),
        o: 1n,
        h: 1n,
        l: 1n,
        c: 1n,
      });
      const oldFine = [
        candle('1m', now - 91 * DAY),
        candle('1m', now - 91 * DAY + 60_000),
        candle('5m', now - 91 * DAY),
        candle('15m', now - 91 * DAY),
      ];
      const keptCandles = [
        candle('1m', now - 89 * DAY),
        candle('1h', now - 91 * DAY),
        candle('4h', now - 400 * DAY),
        candle('1d', now - 400 * DAY),
      ];
      await db
        .insertInto('index_candles')
        .values([...oldFine, ...keptCandles])
        .execute();

      const result = await markets?.pruneIndexHistory(now);
      // seven ticks in slices of three, then one slice per fine interval with old candles
      expect(result).toEqual({ deleted: 7 + 4, slices: slicesFor(7) + 3 });
      const ticks = await db
        .selectFrom('index_ticks')
        .select('at')
        .where('symbol', '=', symbol)
        .where('at', '<', at(now))
        .execute();
      expect(ticks.map((t) => Number(t.at))).toEqual([now - 29 * DAY]);
      const candles = await db
        .selectFrom('index_candles')
        .select(['interval', 't'])
        .where('symbol', '=', symbol)
        .where('t', '<', at(now - 2 * DAY))
        .orderBy('t')
        .orderBy('interval')
        .execute();
      expect(candles).toEqual(
        [...keptCandles]
          .sort((a, b) => Number(a.t) - Number(b.t) || a.interval.localeCompare(b.interval))
          .map((c) => ({ interval: c.interval, t: c.t })),
      );
    });

    it('drops old daily proofs of reserves in slices and keeps monthly ones and every header', async () => {
      const reserves = server.app.ctx.reserves;
      expect(reserves).toBeDefined();
      const midnight = server.clock.now() - (server.clock.now() % DAY);
      const snapshot = async (takenAt: number, monthly: boolean) =>
        (
          await db
            .insertInto('por_snapshots')
            .values({
              taken_at: at(takenAt),
              ledger_seq: 0n,
              assets: '[]',
              depth: 1n,
              root: 'r',
              root_sums: '[]',
              trial_total: '{}',
              monthly: monthly ? 1n : 0n,
              status: 'published',
              publish_at: at(takenAt),
              header_json: null,
              sig: null,
              created_at: at(takenAt),
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      const oldDaily = await snapshot(midnight - 91 * DAY, false);
      const oldMonthly = await snapshot(midnight - 92 * DAY, true);
      const recentDaily = await snapshot(midnight - 89 * DAY, false);
      const users = (await db.selectFrom('users').select('id').orderBy('id').limit(5).execute()).map(
        (u) => u.id,
      );
      expect(users).toHaveLength(5);
      for (const id of [oldDaily, oldMonthly, recentDaily]) {
        await db
          .insertInto('por_leaves')
          .values(
            users.map((user, i) => ({
              snapshot_id: id,
              user_id: user,
              leaf_index: BigInt(i),
              balances: '[]',
            })),
          )
          .execute();
        await db
          .insertInto('por_nodes')
          .values(
            [0, 1, 2, 3].map((i) => ({
              snapshot_id: id,
              level: BigInt(i >> 1),
              idx: BigInt(i),
              hash: 'h',
              sums: '[]',
            })),
          )
          .execute();
      }
      const seen: number[] = [];
      const result = await reserves?.service.pruneProofs(midnight, (deleted) => seen.push(deleted));
      // four nodes, then five leaves, of the one old daily snapshot
      expect(result).toEqual({ deleted: 4 + 5, slices: slicesFor(4) + slicesFor(5) });
      expect(seen).toHaveLength(slicesFor(4) + slicesFor(5));
      const count = async (table: 'por_leaves' | 'por_nodes', id: bigint) =>
        (await db.selectFrom(table).select('snapshot_id').where('snapshot_id', '=', id).execute()).length;
      expect([await count('por_leaves', oldDaily), await count('por_nodes', oldDaily)]).toEqual([0, 0]);
      expect([await count('por_leaves', oldMonthly), await count('por_nodes', oldMonthly)]).toEqual([5, 4]);
      expect([await count('por_leaves', recentDaily), await count('por_nodes', recentDaily)]).toEqual([5, 4]);
      const headers = await db
        .selectFrom('por_snapshots')
        .select('id')
        .where('id', 'in', [oldDaily, oldMonthly, recentDaily])
        .execute();
      expect(headers).toHaveLength(3);
      // nothing is left for the next run
      expect(await reserves?.service.pruneProofs(midnight)).toEqual({ deleted: 0, slices: 0 });
    });

    it('sweeps rate-limit rows whose window ended, in slices, and keeps live ones', async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-limits-'));
      const store = await openLimitStore({
        kind: name === 'postgres' ? 'postgres' : 'sqlite',
        dataDir,
        databaseUrl: server.store.databaseUrl,
        prefix: `rt_${randomBytes(3).toString('hex')}`,
      });
      try {
        const short = store.limit('short', { points: 5, durationSec: 60 });
        const long = store.limit('long', { points: 5, durationSec: 3600 });
        for (const key of ['a', 'b', 'c', 'd']) expect(await short.take(key)).toBe(true);
        expect(await long.take('e')).toBe(true);
        const later = Date.now() + 120_000;
        expect(await store.sweepExpired(later, { sliceSize: SLICE })).toEqual({
          deleted: 4,
          slices: slicesFor(4),
        });
        expect(await store.sweepExpired(later, { sliceSize: SLICE })).toEqual({ deleted: 0, slices: 0 });
        expect(await long.used('e')).toBe(1);
      } finally {
        await store.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    });
  });
});
