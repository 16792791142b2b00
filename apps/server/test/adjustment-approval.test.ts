import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInOwner, signInStaffRoles } from './delivery-harness.ts';
import { callAdmin, DIALECTS, registerAndLogin, startServer, type TestServer } from './harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';

describe.each(DIALECTS)('four eyes on large adjustments on $name', ({ name, skip }) => {
  describe.skipIf(skip)('', () => {
    let server: TestServer;
    let owner: string;
    let finance: string;
    beforeAll(async () => {
      server = await startServer(name, {
        env: {
          ADMIN_USER: 'boss',
          ADMIN_PASSWORD: 'owner-pass-1',
          ADJUSTMENT_APPROVAL_THRESHOLD: '1000',
          // why: the demo lists the coins an adjustment may be in.
          DEMO: 'on',
          LIMIT_REGISTER_PER_IP: '1000/3600',
        },
      });
      owner = await signInOwner(server, 'boss', 'owner-pass-1');
      ({ finance } = await signInStaffRoles(server, owner, ['finance'] as const));
    });
    afterAll(async () => {
      await expectLedgerInvariants(server);
      await server?.close();
    });

    const adjust = (token: string, userId: string, fields: Record<string, string>) =>
      callAdmin(server, 'POST', `/users/${userId}/adjust`, { reason: 'correction', ...fields }, token);
    const usdtOf = async (userId: string) => {
      const rows = await callAdmin(server, 'GET', `/users/${userId}/balances`, undefined, owner);
      return rows.data.find(
        (r: { asset: string; kind: string }) => r.asset === 'USDT' && r.kind === 'available',
      )?.balance;
    };
    /** How many adjustment entries the ledger holds. */
    const adjustmentEntries = async () =>
      (
        await server.app.ctx.store.db
          .selectFrom('journal_entries')
          .select('id')
          .where('type', '=', 'adjustment')
          .execute()
      ).length;

    it('posts up to the threshold at once, and holds a larger one until a second staff member approves it', async () => {
      const customer = await registerAndLogin(server).then((u) => ({ ...u, uid: String(u.uid) }));
      // exactly the threshold: posted
      expect(await adjust(finance, customer.uid, { asset: 'USDT', amount: '1000' })).toMatchObject({
        code: 1000,
        data: { status: 'done', balance: '1000.00000000' },
      });
      // one atom more: a request, nothing moves
      const asked = await adjust(finance, customer.uid, { asset: 'USDT', amount: '-1000.00000001' });
      expect(asked).toMatchObject({ code: 1000, data: { status: 'pending', requestId: expect.any(String) } });
      const big = await adjust(finance, customer.uid, {
        asset: 'USDT',
        amount: '5000',
        reason: 'wire received',
      });
      expect(big.data.status).toBe('pending');
      expect(await usdtOf(customer.uid)).toBe('1000.00000000');

      const pending = await callAdmin(server, 'GET', '/adjustments', { status: 'pending' }, owner);
      const request = pending.data.find((r: { id: string }) => r.id === big.data.requestId);
      expect(request).toMatchObject({
        userId: customer.uid,
        asset: 'USDT',
        amount: '5000.00000000',
        usdtValue: '5000.00000000',
        reason: 'wire received',
        status: 'pending',
        requestedBy: expect.stringMatching(/^staff:\d+$/),
        decidedBy: null,
        entryId: null,
      });

      // its maker cannot approve it
      expect(
        await callAdmin(server, 'POST', `/adjustments/${big.data.requestId}/approve`, {}, finance),
      ).toMatchObject({
        code: 6010,
        msg: 'A second staff member must approve this adjustment: you asked for it.',
      });
      expect(await usdtOf(customer.uid)).toBe('1000.00000000');
      // a second staff member can: the entry is posted with the maker's reason
      const approved = await callAdmin(
        server,
        'POST',
        `/adjustments/${big.data.requestId}/approve`,
        {},
        owner,
      );
      expect(approved).toMatchObject({ code: 1000, data: { status: 'done', balance: '6000.00000000' } });
      expect(await usdtOf(customer.uid)).toBe('6000.00000000');
      // once
      expect(
        (await callAdmin(server, 'POST', `/adjustments/${big.data.requestId}/approve`, {}, owner)).code,
      ).toBe(6011);
      const decided = await callAdmin(server, 'GET', '/adjustments', { status: 'approved' }, owner);
      expect(decided.data.find((r: { id: string }) => r.id === big.data.requestId)).toMatchObject({
        status: 'approved',
        decidedBy: 'staff:1',
        entryId: expect.any(String),
      });

      // rejected: nothing posted, and it cannot be approved afterwards
      const rejected = await callAdmin(
        server,
        'POST',
        `/adjustments/${asked.data.requestId}/reject`,
        { reason: 'wrong sign' },
        owner,
      );
      expect(rejected.code).toBe(1000);
      expect(
        (await callAdmin(server, 'POST', `/adjustments/${asked.data.requestId}/approve`, {}, owner)).code,
      ).toBe(6011);
      expect(await usdtOf(customer.uid)).toBe('6000.00000000');

      const audit = await server.app.ctx.audit.list(server.app.ctx.store.db, {
        target: `user:${customer.uid}`,
        limit: 20,
      });
      expect(audit.map((row) => `${row.action} ${row.actor}`)).toEqual([
        'ledger.adjust.reject staff:1',
        'ledger.adjust.approve staff:1',
        `ledger.adjust ${request.requestedBy}`,
        `ledger.adjust.request ${request.requestedBy}`,
        `ledger.adjust.request ${request.requestedBy}`,
        `ledger.adjust ${request.requestedBy}`,
      ]);
    });

    it('holds an adjustment in an asset without an index price, whatever its size', async () => {
      const customer = await registerAndLogin(server).then((u) => ({ ...u, uid: String(u.uid) }));
      // a coin listed with no market (as a launchpad project's new coin is): it has no index price
      const markets = server.app.ctx.markets;
      if (!markets) throw new Error('the markets module is registered');
      await server.app.ctx.store.db
        .transaction()
        .execute((trx) => markets.addCoin(trx, { symbol: 'NOPX', name: 'No price', displayDecimals: 8 }));
      const tiny = await adjust(finance, customer.uid, { asset: 'NOPX', amount: '0.00000001' });
      expect(tiny).toMatchObject({ code: 1000, data: { status: 'pending' } });
      const pending = await callAdmin(server, 'GET', '/adjustments', undefined, owner);
      expect(pending.data.find((r: { id: string }) => r.id === tiny.data.requestId)).toMatchObject({
        asset: 'NOPX',
        amount: '0.00000001',
        usdtValue: null,
      });
    });

    it('posts an approved request exactly once when two approvals come at the same moment', async () => {
      const customer = await registerAndLogin(server).then((u) => ({ ...u, uid: String(u.uid) }));
      const before = await adjustmentEntries();
      const asked = await adjust(owner, customer.uid, { asset: 'USDT', amount: '2500' });
      expect(asked.data.status).toBe('pending');
      const answers = await Promise.all(
        Array.from({ length: 4 }, () =>
          callAdmin(server, 'POST', `/adjustments/${asked.data.requestId}/approve`, {}, finance),
        ),
      );
      expect(answers.map((a) => a.code).sort()).toEqual([1000, 6011, 6011, 6011]);
      expect(await usdtOf(customer.uid)).toBe('2500.00000000');
      expect(await adjustmentEntries()).toBe(before + 1);
      // the same submission sent four times at once is one request
      const key = 'four-eyes-burst-01';
      const sent = await Promise.all(
        Array.from({ length: 4 }, () => adjust(owner, customer.uid, { asset: 'USDT', amount: '3000', key })),
      );
      expect(sent.map((a) => a.code).sort()).toEqual([1000, 1003, 1003, 1003]);
      const pending = await callAdmin(server, 'GET', '/adjustments', { status: 'pending' }, owner);
      expect(pending.data.filter((r: { userId: string }) => r.userId === customer.uid)).toHaveLength(1);
    });
  });
});
