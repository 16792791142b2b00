import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LedgerChecker } from '../src/modules/ledger/check.ts';
import type { LedgerService } from '../src/modules/ledger/service.ts';
import type { Db } from '../src/platform/db.ts';
import { DIALECTS, registerAndLogin, startServer, type TestServer } from './harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';

/** Moves `amount` of USDT from outside into the house account: one entry, two postings. */
async function move(ledger: LedgerService, db: Db, ref: string, amount: bigint): Promise<void> {
  await db.transaction().execute((trx) =>
    ledger.post(trx, {
      type: 'test.check',
      ref,
      postings: [
        { owner: { system: 'external_deposits' }, asset: 'USDT', kind: 'available', amount: -amount },
        { owner: { system: 'house' }, asset: 'USDT', kind: 'available', amount },
      ],
    }),
  );
}

async function lastPosting(db: Db): Promise<bigint> {
  const row = await db
    .selectFrom('postings')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return row?.id ?? 0n;
}

describe.each(DIALECTS)('the routine ledger check on $name', ({ name, skip }) => {
  let server: TestServer;
  let ledger: LedgerService;
  let db: Db;
  let now = 0;
  /** Slices of three postings and two accounts, so every run crosses several; time is set by the test. */
  const checker = (options: { settleMs?: number; fullEveryMs?: number } = {}) =>
    new LedgerChecker(db, () => [], {
      postingsPerSlice: 3,
      accountsPerSlice: 2,
      settleMs: options.settleMs ?? 0,
      fullEveryMs: options.fullEveryMs ?? 3_600_000,
      now: () => now,
    });

  beforeAll(async () => {
    server = await startServer(name);
    ledger = server.app.ctx.ledger;
    db = server.app.ctx.store.db;
    // why: each case starts from no recorded run (the node's own first check recorded one).
    await db.deleteFrom('ledger_checks').execute();
    now = 1_000_000;
  });
  afterAll(async () => {
    await expectLedgerInvariants(server);
    await server?.close();
  });

  it.skipIf(skip)('verifies all postings first, then only those after the last verified one', async () => {
    for (let i = 1; i <= 4; i++) await move(ledger, db, `first:${i}`, BigInt(i));
    const through = await lastPosting(db);
    const first = await checker().verify();
    expect(first).toMatchObject({ ok: true, problems: [], mode: 'full', fromPostingId: 0n });
    expect(first.throughPostingId).toBe(through);

    for (let i = 1; i <= 3; i++) await move(ledger, db, `second:${i}`, BigInt(i));
    now += 600_000;
    const second = await checker().verify();
    expect(second).toMatchObject({ ok: true, mode: 'since', fromPostingId: through });
    expect(second.throughPostingId).toBe(through + 6n);
    const recorded = await db.selectFrom('ledger_checks').selectAll().orderBy('id').execute();
    expect(recorded.map((r) => [r.from_posting_id, r.through_posting_id, r.verified_through, r.ok])).toEqual([
      [0n, through, through, 1n],
      [through, through + 6n, through + 6n, 1n],
    ]);
  });

  it.skipIf(skip)(
    'finds a broken posting after the watermark, an edited balance anywhere, and an older broken posting only in the full run',
    async () => {
      const before = await lastPosting(db);
      await move(ledger, db, 'third:1', 7n);
      const house = await db
        .selectFrom('ledger_accounts')
        .select(['id', 'balance'])
        .where('owner', '=', 'system:house')
        .where('asset', '=', 'USDT')
        .where('kind', '=', 'available')
        .executeTakeFirstOrThrow();
      const [housePosting] = await db
        .selectFrom('postings')
        .select(['id', 'balance_after'])
        .where('id', '>', before)
        .where('account_id', '=', house.id)
        .execute();
      if (!housePosting) throw new Error('no posting to the house');
      // why: stand-ins for corruption outside the ledger's code: a posting's amount changed, so its
      // entry no longer balances and its running total no longer adds up.
      await sql`update postings set amount = 8 where id = ${housePosting.id}`.execute(db);
      now += 600_000;
      const broken = await checker().verify();
      expect(broken.ok).toBe(false);
      expect(broken.mode).toBe('since');
      expect(broken.problems).toEqual([
        `entry ${await entryOf(db, housePosting.id)}: postings in USDT sum to 1`,
        `posting ${housePosting.id} of account system:house USDT available: balance after ${housePosting.balance_after}, previous ${housePosting.balance_after - 7n} + 8`,
      ]);
      await sql`update postings set amount = 7 where id = ${housePosting.id}`.execute(db);

      // why: a failed run vouches for nothing, so the next one reads the same postings again.
      now += 600_000;
      const repaired = await checker().verify();
      expect(repaired).toMatchObject({ ok: true, fromPostingId: broken.fromPostingId });

      // A balance edited by hand is found whichever run reads it: every account is read each time.
      await sql`update ledger_accounts set balance = balance + 1 where id = ${house.id}`.execute(db);
      now += 600_000;
      expect((await checker().verify()).problems).toEqual([
        `account system:house USDT available: balance ${house.balance + 1n}, postings ${house.balance}`,
      ]);
      await sql`update ledger_accounts set balance = balance - 1 where id = ${house.id}`.execute(db);

      // An old posting changed with its running total kept: behind the watermark, only the full run reads it.
      const [old] = await db
        .selectFrom('postings')
        .select('id')
        .where('account_id', '=', house.id)
        .orderBy('id')
        .limit(1)
        .execute();
      if (!old) throw new Error('no posting');
      await sql`update postings set amount = amount + 1 where id = ${old.id}`.execute(db);
      now += 600_000;
      expect((await checker().verify()).problems).toEqual([]);
      const full = await checker({ fullEveryMs: 1 }).verify();
      expect(full.mode).toBe('full');
      expect(full.problems).toContain(`entry ${await entryOf(db, old.id)}: postings in USDT sum to 1`);
      await sql`update postings set amount = amount - 1 where id = ${old.id}`.execute(db);
      now += 600_000;
      expect(await checker({ fullEveryMs: 1 }).verify()).toMatchObject({ ok: true, problems: [] });
    },
  );

  it.skipIf(skip)(
    'compares held balances with reservations a slice of users at a time, each user once',
    async () => {
      const held: { userId: bigint; asset: string; amount: bigint }[] = [];
      for (const [i, who] of ['slice_a', 'slice_b', 'slice_c'].entries()) {
        const userId = BigInt((await registerAndLogin(server, who)).uid);
        const amount = BigInt(i + 1) * 10n;
        await db.transaction().execute((trx) =>
          ledger.post(trx, {
            type: 'test.hold',
            ref: `hold:${who}`,
            postings: [
              { owner: { system: 'external_deposits' }, asset: 'USDT', kind: 'available', amount: -amount },
              { owner: { userId }, asset: 'USDT', kind: 'frozen', amount },
            ],
          }),
        );
        held.push({ userId, asset: 'USDT', amount });
      }
      const inRange = async (_db: Db, users: { after: bigint; through: bigint }) =>
        held.filter((h) => h.userId > users.after && h.userId <= users.through);
      const sliced = (source: typeof inRange) =>
        new LedgerChecker(db, () => [{ kind: 'frozen', source }], { usersPerSlice: 1, now: () => now });
      now += 600_000;
      expect(await sliced(inRange).verify()).toMatchObject({ ok: true, problems: [] });
      // why: a source that answers every user whatever the slice counts each reservation once per
      // slice: the contract of a source is the slice's users alone.
      const [first] = held;
      now += 600_000;
      const careless = await sliced(async () => (first ? [first] : [])).verify();
      expect(careless.problems).toContain(`user|asset ${first?.userId}|USDT: frozen 0, open reservations 10`);
      // why: no module reserves this money, so it goes back before the next case and the suite's check.
      for (const h of held) {
        await db.transaction().execute((trx) =>
          ledger.post(trx, {
            type: 'test.release',
            ref: `release:${h.userId}`,
            postings: [
              { owner: { userId: h.userId }, asset: 'USDT', kind: 'frozen', amount: -h.amount },
              { owner: { system: 'external_deposits' }, asset: 'USDT', kind: 'available', amount: h.amount },
            ],
          }),
        );
      }
    },
  );

  it.skipIf(skip)(
    'vouches only for postings read at least the settle time before, where ids may commit out of order',
    async () => {
      await db.deleteFrom('ledger_checks').execute();
      const settle = { settleMs: 60_000 };
      await move(ledger, db, 'settle:1', 1n);
      const first = await checker(settle).verify();
      // why: no run was read a settle time before this one, so a lower id may still have been in flight.
      expect(await verifiedThrough(db)).toBe(0n);
      await move(ledger, db, 'settle:2', 1n);
      now += 30_000;
      await checker(settle).verify();
      expect(await verifiedThrough(db)).toBe(0n);
      await move(ledger, db, 'settle:3', 1n);
      now += 40_000;
      const third = await checker(settle).verify();
      expect(third).toMatchObject({ ok: true, mode: 'full', fromPostingId: 0n });
      // why: the first run was read 70 s before: every id up to its last was committed by now.
      expect(await verifiedThrough(db)).toBe(first.throughPostingId);
      now += 600_000;
      const fourth = await checker(settle).verify();
      expect(fourth).toMatchObject({ ok: true, mode: 'since', fromPostingId: first.throughPostingId });
    },
  );
});

async function entryOf(db: Db, postingId: bigint): Promise<bigint> {
  const row = await db
    .selectFrom('postings')
    .select('entry_id')
    .where('id', '=', postingId)
    .executeTakeFirstOrThrow();
  return row.entry_id;
}

async function verifiedThrough(db: Db): Promise<bigint | null> {
  const row = await db
    .selectFrom('ledger_checks')
    .select('verified_through')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  return row.verified_through;
}
