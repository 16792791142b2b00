import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startServer, type TestServer } from './harness.ts';

describe.each(DIALECTS)('the audit log on $name', ({ name, skip }) => {
  describe.skipIf(skip)('records', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startServer(name);
    });
    afterAll(() => server?.close());

    it('appends staff actions with before and after, and lists them newest first with filters', async () => {
      const { audit } = server.app.ctx;
      const db = server.app.ctx.store.db;
      // why: the platform records its own start-up actions (the first owner); only ours count here.
      const mine = <T extends { actor: string }>(rows: T[]) =>
        rows.filter((r) => /^staff:[12]$/.test(r.actor));
      await db.transaction().execute(async (trx) => {
        await audit.record(trx, {
          actor: 'staff:1',
          action: 'deposit.confirm',
          target: 'deposit:12',
          before: { status: 'confirming' },
          after: { status: 'credited', amount: 2n ** 60n },
          ip: '127.0.0.1',
        });
        await audit.record(trx, {
          actor: 'staff:2',
          action: 'user.freeze',
          target: 'user:5',
          reason: 'fraud',
        });
      });
      server.clock.advance(1000);
      await db
        .transaction()
        .execute((trx) => audit.record(trx, { actor: 'staff:1', action: 'user.unfreeze', target: 'user:5' }));

      const all = mine(await audit.list(db, { limit: 10 }));
      expect(all.map((r) => r.action)).toEqual(['user.unfreeze', 'user.freeze', 'deposit.confirm']);
      expect(all[2]).toMatchObject({
        actor: 'staff:1',
        target: 'deposit:12',
        before: { status: 'confirming' },
        after: { status: 'credited', amount: String(2n ** 60n) },
        ip: '127.0.0.1',
        createdAt: server.clock.now() - 1000,
      });
      expect((await audit.list(db, { actor: 'staff:1', limit: 10 })).map((r) => r.action)).toEqual([
        'user.unfreeze',
        'deposit.confirm',
      ]);
      expect((await audit.list(db, { target: 'user:5', limit: 1 })).map((r) => r.action)).toEqual([
        'user.unfreeze',
      ]);
      expect((await audit.list(db, { from: server.clock.now(), limit: 10 })).map((r) => r.action)).toEqual([
        'user.unfreeze',
      ]);
      const firstPage = await audit.list(db, { limit: 2 });
      expect(
        mine(await audit.list(db, { limit: 2, beforeId: firstPage[1]!.id })).map((r) => r.action),
      ).toEqual(['deposit.confirm']);
    });

    it('refuses to change or delete a record, even by hand in the database', async () => {
      const db = server.app.ctx.store.db;
      const before = await db.selectFrom('audit_log').selectAll().orderBy('id').execute();
      await expect(sql`update audit_log set action = 'nothing'`.execute(db)).rejects.toThrow(/append-only/);
      await expect(sql`delete from audit_log`.execute(db)).rejects.toThrow(/append-only/);
      expect(await db.selectFrom('audit_log').selectAll().orderBy('id').execute()).toEqual(before);
      const rows = await db.selectFrom('audit_log').select(['actor', 'action']).orderBy('id').execute();
      expect(rows.filter((r) => /^staff:[12]$/.test(r.actor)).map((r) => r.action)).toEqual([
        'deposit.confirm',
        'user.freeze',
        'user.unfreeze',
      ]);
    });
  });
});
