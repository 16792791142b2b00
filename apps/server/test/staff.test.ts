import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAdmin, DIALECTS, registerAndLogin, startServer, type TestServer } from './harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';
import { captureLog } from './logged-server.ts';

function codeAt(server: TestServer, secret: string, offsetSeconds = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(server.clock.now() / 1000) + offsetSeconds });
}

/** Signs a staff member in (enrolling TOTP and setting `newPassword` when asked); returns the token. */
async function signIn(
  server: TestServer,
  username: string,
  password: string,
  options: { newPassword?: string; secrets?: Map<string, string> } = {},
): Promise<{ token: string; password: string }> {
  const step = await callAdmin(server, 'POST', '/login', { username, password });
  expect(step.code).toBe(1000);
  if (step.data.step === 'enrol') {
    options.secrets?.set(username, step.data.secret);
    const done = await callAdmin(server, 'POST', '/totp/enrol', {
      ticket: step.data.ticket,
      code: await codeAt(server, step.data.secret),
      newPassword: step.data.mustChangePassword ? options.newPassword : undefined,
    });
    expect(done.code).toBe(1000);
    return {
      token: done.data.token,
      password: step.data.mustChangePassword ? (options.newPassword as string) : password,
    };
  }
  const secret = options.secrets?.get(username);
  if (!secret) throw new Error(`no TOTP secret known for ${username}`);
  // why: each TOTP code is accepted once; move to the next 30-second step first.
  await server.clock.advance(30_000);
  const done = await callAdmin(server, 'POST', '/totp/verify', {
    ticket: step.data.ticket,
    code: await codeAt(server, secret),
  });
  expect(done.code).toBe(1000);
  return { token: done.data.token, password };
}

async function auditRows(server: TestServer, filter: Record<string, string> = {}) {
  return server.app.ctx.audit.list(server.app.ctx.store.db, { ...filter, limit: 200 });
}

describe.each(DIALECTS)('back office on $name', ({ name, skip }) => {
  describe.skipIf(skip)('first owner from ADMIN_USER and ADMIN_PASSWORD', () => {
    let server: TestServer;
    const secrets = new Map<string, string>();
    let ownerToken = '';
    beforeAll(async () => {
      server = await startServer(name, {
        env: {
          ADMIN_USER: 'boss',
          ADMIN_PASSWORD: 'owner-pass-1',
          DEMO: 'on',
          LIMIT_PASSWORD_CHECKS: '5/900',
        },
      });
    });
    afterAll(async () => {
      await expectLedgerInvariants(server);
      await server?.close();
    });

    it('creates the owner once and audits it', async () => {
      const rows = await auditRows(server, { action: 'staff.bootstrap' });
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        actor: 'system',
        after: { username: 'boss', role: 'owner', oneTimePassword: false },
      });
    });

    it('enrols TOTP at first login, refusing a wrong code, and never shows the secret again', async () => {
      const wrongPassword = await callAdmin(server, 'POST', '/login', {
        username: 'boss',
        password: 'nope-nope',
      });
      expect(wrongPassword.code).toBe(2002);
      const step = await callAdmin(server, 'POST', '/login', { username: 'boss', password: 'owner-pass-1' });
      expect(step.data).toMatchObject({ step: 'enrol', mustChangePassword: false });
      expect(step.data.secret).toMatch(/^[A-Z2-7]{16,}$/);
      expect(step.data.otpauthUrl).toBe(
        `otpauth://totp/Bourse:boss?secret=${step.data.secret}&issuer=Bourse`,
      );
      // a login step is no session
      expect((await callAdmin(server, 'GET', '/me', undefined, step.data.ticket)).code).toBe(100);
      const wrong = await callAdmin(server, 'POST', '/totp/enrol', {
        ticket: step.data.ticket,
        code: '000000',
      });
      expect(wrong.code).toBe(6001);
      const verifyInstead = await callAdmin(server, 'POST', '/totp/verify', {
        ticket: step.data.ticket,
        code: await codeAt(server, step.data.secret),
      });
      expect(verifyInstead.code).toBe(6005);
      const done = await callAdmin(server, 'POST', '/totp/enrol', {
        ticket: step.data.ticket,
        code: await codeAt(server, step.data.secret),
      });
      expect(done).toMatchObject({
        code: 1000,
        data: { staff: { username: 'boss', role: 'owner', totpEnabled: true } },
      });
      secrets.set('boss', step.data.secret);
      ownerToken = done.data.token;
      const me = await callAdmin(server, 'GET', '/me', undefined, ownerToken);
      expect(me.data).toMatchObject({ username: 'boss', role: 'owner' });
      expect(me.data.permissions).toContain('staff.manage');
      expect(JSON.stringify(me.data)).not.toContain(step.data.secret);
      // the ticket is spent
      const again = await callAdmin(server, 'POST', '/totp/enrol', {
        ticket: step.data.ticket,
        code: await codeAt(server, step.data.secret, 30),
      });
      expect(again.code).toBe(6005);
      const enrolled = await auditRows(server, { action: 'staff.totp_enrol' });
      expect(enrolled[0]).toMatchObject({
        actor: 'staff:1',
        before: { totpEnabled: false },
        after: { totpEnabled: true },
      });
    });

    it('asks every later login for the current code, and refuses a code used before', async () => {
      const step = await callAdmin(server, 'POST', '/login', { username: 'BOSS', password: 'owner-pass-1' });
      expect(step.data).toEqual({ step: 'totp', ticket: expect.any(String) });
      const secret = secrets.get('boss') as string;
      const replay = await callAdmin(server, 'POST', '/totp/verify', {
        ticket: step.data.ticket,
        code: await codeAt(server, secret),
      });
      expect(replay.code).toBe(6001);
      await server.clock.advance(30_000);
      const done = await callAdmin(server, 'POST', '/totp/verify', {
        ticket: step.data.ticket,
        code: await codeAt(server, secret),
      });
      expect(done.code).toBe(1000);
      expect((await auditRows(server, { action: 'staff.login' })).length).toBe(1);
    });

    it('limits TOTP guesses under a burst: at most five evaluated', async () => {
      const step = await callAdmin(server, 'POST', '/login', { username: 'boss', password: 'owner-pass-1' });
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          callAdmin(server, 'POST', '/totp/verify', { ticket: step.data.ticket, code: String(100000 + i) }),
        ),
      );
      const codes = answers.map((a) => a.code).sort();
      expect(codes.filter((c) => c === 6001)).toHaveLength(5);
      expect(codes.filter((c) => c === 1004)).toHaveLength(7);
      // even the right code is refused until the window ends
      await server.clock.advance(30_000);
      const right = await callAdmin(server, 'POST', '/totp/verify', {
        ticket: step.data.ticket,
        code: await codeAt(server, secrets.get('boss') as string),
      });
      expect(right.code).toBe(1004);
    });

    it('limits password guesses under a burst: at most five evaluated per name and address', async () => {
      const answers = await Promise.all(
        Array.from({ length: 12 }, () =>
          callAdmin(server, 'POST', '/login', { username: 'victim', password: 'guess-123' }),
        ),
      );
      const codes = answers.map((a) => a.code);
      expect(codes.filter((c) => c === 2002)).toHaveLength(5);
      expect(codes.filter((c) => c === 1004)).toHaveLength(7);
    });

    it('checks the role on every route: a support user cannot approve withdrawals', async () => {
      const created = await callAdmin(
        server,
        'POST',
        '/staff',
        { username: 'sup1', password: 'support-1', role: 'support' },
        ownerToken,
      );
      expect(created.code).toBe(1000);
      await callAdmin(
        server,
        'POST',
        '/staff',
        { username: 'fin1', password: 'finance-1', role: 'finance' },
        ownerToken,
      );
      const dup = await callAdmin(
        server,
        'POST',
        '/staff',
        { username: 'SUP1', password: 'support-2', role: 'support' },
        ownerToken,
      );
      expect(dup.code).toBe(6004);

      // a password set by someone else must be changed at first login
      const first = await callAdmin(server, 'POST', '/login', { username: 'sup1', password: 'support-1' });
      expect(first.data).toMatchObject({ step: 'enrol', mustChangePassword: true });
      const noNew = await callAdmin(server, 'POST', '/totp/enrol', {
        ticket: first.data.ticket,
        code: await codeAt(server, first.data.secret),
      });
      expect(noNew.code).toBe(6006);
      const sup = await callAdmin(server, 'POST', '/totp/enrol', {
        ticket: first.data.ticket,
        code: await codeAt(server, first.data.secret),
        newPassword: 'support-new-1',
      });
      expect(sup.code).toBe(1000);
      const support = sup.data.token as string;
      expect(
        (await callAdmin(server, 'POST', '/login', { username: 'sup1', password: 'support-1' })).code,
      ).toBe(2002);

      const approve = await callAdmin(server, 'POST', '/withdrawals/1/approve', {}, support);
      expect(approve).toMatchObject({ code: 6002, msg: 'Your role does not allow this action.', data: null });
      expect((await callAdmin(server, 'POST', '/deposits/1/confirm', { amount: '1' }, support)).code).toBe(
        6002,
      );
      expect((await callAdmin(server, 'GET', '/staff', undefined, support)).code).toBe(6002);
      expect((await callAdmin(server, 'GET', '/audit', undefined, support)).code).toBe(6002);
      expect((await callAdmin(server, 'POST', '/users/1/freeze', { frozen: true }, support)).code).toBe(6002);
      expect(
        (
          await callAdmin(
            server,
            'POST',
            '/users/1/adjust',
            { asset: 'USDT', amount: '1', reason: 'x' },
            support,
          )
        ).code,
      ).toBe(6002);
      expect((await callAdmin(server, 'GET', '/users', { q: 'demo' }, support)).code).toBe(1000);

      const fin = await signIn(server, 'fin1', 'finance-1', { newPassword: 'finance-new-1', secrets });
      expect((await callAdmin(server, 'GET', '/staff', undefined, fin.token)).code).toBe(6002);
      expect((await callAdmin(server, 'POST', '/users/1/freeze', { frozen: true }, fin.token)).code).toBe(
        6002,
      );
      // without a session at all: code 100
      expect((await callAdmin(server, 'GET', '/dashboard')).code).toBe(100);
    });

    it('freezes a customer: their sessions end and their logins are refused, audited', async () => {
      const customer = await registerAndLogin(server, 'frozen_01');
      expect((await server.call('GET', '/User/getUserInfo', {}, { token: customer.token })).code).toBe(1000);
      const found = await callAdmin(server, 'GET', '/users', { q: 'FROZEN_' }, ownerToken);
      expect(found.data.map((u: { username: string }) => u.username)).toEqual(['frozen_01']);
      const byId = await callAdmin(server, 'GET', '/users', { q: String(customer.uid) }, ownerToken);
      expect(byId.data[0]).toMatchObject({ id: customer.uid, status: 'active' });

      const freeze = await callAdmin(
        server,
        'POST',
        `/users/${customer.uid}/freeze`,
        { frozen: true, reason: 'fraud check' },
        ownerToken,
      );
      expect(freeze.code).toBe(1000);
      expect((await server.call('GET', '/User/getUserInfo', {}, { token: customer.token })).code).toBe(100);
      const login = await server.call('POST', '/Login/loginsubmit', {
        email: 'frozen_01',
        lpwd: customer.password,
      });
      expect(login.code).toBe(2005);
      const rows = await auditRows(server, { action: 'user.freeze', target: `user:${customer.uid}` });
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        actor: 'staff:1',
        before: { status: 'active' },
        after: { status: 'frozen' },
        reason: 'fraud check',
        ip: '127.0.0.1',
      });

      await callAdmin(server, 'POST', `/users/${customer.uid}/freeze`, { frozen: false }, ownerToken);
      // the ended session stays ended; a new login works
      expect((await server.call('GET', '/User/getUserInfo', {}, { token: customer.token })).code).toBe(100);
      expect(
        (await server.call('POST', '/Login/loginsubmit', { email: 'frozen_01', lpwd: customer.password }))
          .code,
      ).toBe(1000);
      expect((await auditRows(server, { action: 'user.unfreeze' }))[0]).toMatchObject({
        before: { status: 'frozen' },
        after: { status: 'active' },
      });

      const ban = await callAdmin(
        server,
        'POST',
        `/users/${customer.uid}/trade-ban`,
        { banned: true, reason: 'wash trading' },
        ownerToken,
      );
      expect(ban.code).toBe(1000);
      expect(
        (await callAdmin(server, 'GET', `/users/${customer.uid}`, undefined, ownerToken)).data,
      ).toMatchObject({
        status: 'active',
        tradeBanned: true,
      });
      expect((await auditRows(server, { action: 'user.trade_ban' }))[0]).toMatchObject({
        before: { tradeBanned: false },
        after: { tradeBanned: true },
      });
      const logins = await callAdmin(server, 'GET', `/users/${customer.uid}/logins`, undefined, ownerToken);
      expect(logins.data.map((l: { reason: string }) => l.reason)).toEqual(['OK', 'ACCOUNT_FROZEN', 'OK']);
    });

    it('adjusts a balance by a double entry with a reason, shown in the statement and audited', async () => {
      const customer = await registerAndLogin(server, 'adjust_01');
      const key = 'adj-key-0001';
      const credit = await callAdmin(
        server,
        'POST',
        `/users/${customer.uid}/adjust`,
        { asset: 'USDT', amount: '100.5', reason: 'goodwill credit', key },
        ownerToken,
      );
      expect(credit).toMatchObject({ code: 1000, data: { balance: '100.50000000' } });
      const twice = await callAdmin(
        server,
        'POST',
        `/users/${customer.uid}/adjust`,
        { asset: 'USDT', amount: '100.5', reason: 'goodwill credit', key },
        ownerToken,
      );
      expect(twice.code).toBe(1003);
      const overdraw = await callAdmin(
        server,
        'POST',
        `/users/${customer.uid}/adjust`,
        { asset: 'USDT', amount: '-100.50000001', reason: 'too much' },
        ownerToken,
      );
      expect(overdraw.code).toBe(3004);
      expect(
        (
          await callAdmin(
            server,
            'POST',
            `/users/${customer.uid}/adjust`,
            { asset: 'NOPE', amount: '1', reason: 'x' },
            ownerToken,
          )
        ).code,
      ).toBe(1001);
      expect(
        (
          await callAdmin(
            server,
            'POST',
            `/users/${customer.uid}/adjust`,
            { asset: 'USDT', amount: '0', reason: 'x' },
            ownerToken,
          )
        ).code,
      ).toBe(1001);
      const debit = await callAdmin(
        server,
        'POST',
        `/users/${customer.uid}/adjust`,
        { asset: 'USDT', amount: '-0.5', reason: 'fee correction' },
        ownerToken,
      );
      expect(debit.data.balance).toBe('100.00000000');

      const balances = await callAdmin(
        server,
        'GET',
        `/users/${customer.uid}/balances`,
        undefined,
        ownerToken,
      );
      // why: no trial money: it waits for a verified identity (docs/trial-money.md).
      expect(balances.data).toEqual([{ asset: 'USDT', kind: 'available', balance: '100.00000000' }]);
      const statement = await callAdmin(
        server,
        'GET',
        `/users/${customer.uid}/statement`,
        undefined,
        ownerToken,
      );
      expect(
        statement.data.map((l: Record<string, string>) => [l.type, l.memo, l.amount, l.balanceAfter]),
      ).toEqual([
        ['adjustment', 'fee correction', '-0.50000000', '100.00000000'],
        ['adjustment', 'goodwill credit', '100.50000000', '100.50000000'],
      ]);
      const rows = await auditRows(server, { action: 'ledger.adjust', target: `user:${customer.uid}` });
      expect(rows).toHaveLength(2);
      expect(rows[1]).toMatchObject({
        actor: 'staff:1',
        reason: 'goodwill credit',
        // amounts in the audit log are decimal strings, as staff typed them, not atoms
        before: { asset: 'USDT', available: '0.00000000' },
        after: {
          asset: 'USDT',
          available: '100.50000000',
          amount: '100.50000000',
          ref: `adjustment:${key}`,
        },
      });
    });

    it('shows the dashboard with the ledger status and the platform’s health', async () => {
      const dashboard = await callAdmin(server, 'GET', '/dashboard', undefined, ownerToken);
      expect(dashboard.code).toBe(1000);
      const now = server.clock.now();
      // why: the periodic check's result (the first ran at start); a page view never reads the whole ledger.
      expect(dashboard.data.ledger).toEqual({ ok: true, problems: [], checkedAt: expect.any(Number) });
      expect(dashboard.data.ledger.checkedAt).toBeLessThanOrEqual(now);
      expect(dashboard.data.usersTotal).toBeGreaterThanOrEqual(4);
      const readyz = (await (await fetch(`${server.url}/readyz`)).json()) as { checks: { ledger: unknown } };
      // why: the feed is not scheduled in these tests, so no index tick has arrived: degraded, not down.
      expect(dashboard.data.health).toEqual({
        status: 'degraded',
        checks: {
          database: { status: 'ok', detail: expect.stringMatching(/^answered in \d+\.\d ms$/), at: now },
          bus: { status: 'ok', detail: expect.stringMatching(/^round trip in \d+\.\d ms$/), at: now },
          feed: { status: 'degraded', detail: 'no index tick yet', at: now },
          ledger: readyz.checks.ledger,
          backup: {
            status: 'ok',
            detail: expect.stringMatching(/^no backup yet; the first is due by \d{4}-\d\d-\d\dT/),
            at: now,
          },
          halt: { status: 'ok', detail: 'not halted', at: now },
          markets: {
            status: 'ok',
            detail: expect.stringMatching(/^every book loaded \(in \d+ ms\)$/),
            at: expect.any(Number),
          },
        },
      });
      expect(dashboard.data.halt).toBeNull();
      expect(dashboard.data.health.checks.ledger).toMatchObject({
        status: 'ok',
        detail: 'every invariant holds',
      });
    });

    it('runs the ledger check on request, recorded in the audit log', async () => {
      await server.clock.advance(5_000);
      const checked = await callAdmin(server, 'POST', '/ledger/check', {}, ownerToken);
      expect(checked).toMatchObject({
        code: 1000,
        data: { ok: true, problems: [], checkedAt: server.clock.now() },
      });
      const dashboard = await callAdmin(server, 'GET', '/dashboard', undefined, ownerToken);
      expect(dashboard.data.ledger.checkedAt).toBe(server.clock.now());
      expect((await auditRows(server, { action: 'ledger.check' }))[0]).toMatchObject({
        target: 'ledger',
        after: { ok: true, problems: 0 },
      });
    });

    it('lets the owner disable staff (their sessions end), never themselves', async () => {
      const staffList = await callAdmin(server, 'GET', '/staff', undefined, ownerToken);
      const sup = staffList.data.find((s: { username: string }) => s.username === 'sup1');
      const self = await callAdmin(server, 'POST', '/staff/1/status', { disabled: true }, ownerToken);
      expect(self.code).toBe(1003);
      const disable = await callAdmin(
        server,
        'POST',
        `/staff/${sup.id}/status`,
        { disabled: true, reason: 'left' },
        ownerToken,
      );
      expect(disable.code).toBe(1000);
      expect(
        (await callAdmin(server, 'POST', '/login', { username: 'sup1', password: 'support-new-1' })).code,
      ).toBe(6003);
      expect((await auditRows(server, { action: 'staff.disable' }))[0]).toMatchObject({
        target: `staff:${sup.id}`,
        before: { status: 'active' },
        after: { status: 'disabled' },
        reason: 'left',
      });
    });

    it('offers no route that writes the audit log, and lists it with filters', async () => {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
        expect(server.app.hasRoute({ method, url: '/admin-api/audit' })).toBe(false);
        expect(server.app.hasRoute({ method, url: '/admin-api/audit/:id' })).toBe(false);
        const answer = await callAdmin(server, method, '/audit', { actor: 'staff:1' }, ownerToken);
        expect(answer).toMatchObject({ status: 404, code: 1005 });
      }
      const all = await callAdmin(server, 'GET', '/audit', { limit: '200' }, ownerToken);
      const actions = new Set(all.data.map((row: { action: string }) => row.action));
      for (const action of [
        'staff.bootstrap',
        'staff.totp_enrol',
        'staff.login',
        'staff.create',
        'user.freeze',
        'user.unfreeze',
        'user.trade_ban',
        'ledger.adjust',
        'staff.disable',
      ]) {
        expect(actions).toContain(action);
      }
      const filtered = await callAdmin(server, 'GET', '/audit', { action: 'staff.create' }, ownerToken);
      expect(filtered.data.map((row: { after: { username: string } }) => row.after.username)).toEqual([
        'fin1',
        'sup1',
      ]);
      const before = await callAdmin(
        server,
        'GET',
        '/audit',
        { beforeId: String(filtered.data[0].id), action: 'staff.create' },
        ownerToken,
      );
      expect(before.data).toHaveLength(1);
      const logout = await callAdmin(server, 'POST', '/logout', {}, ownerToken);
      expect(logout.code).toBe(1000);
      expect((await callAdmin(server, 'GET', '/me', undefined, ownerToken)).code).toBe(100);
      expect((await auditRows(server, { action: 'staff.logout' })).length).toBe(1);
    });
  });

  describe.skipIf(skip)('first owner with a one-time password', () => {
    let server: TestServer | undefined;
    afterAll(() => server?.close());

    it('prints the password once, forces a change at first login, and ends idle and old sessions', async () => {
      const log = captureLog();
      server = await startServer(name, {
        env: { LOG_LEVEL: 'info' },
        build: { logger: true, logStream: log.stream },
      });
      const line = log.lines().find((l) => /one-time password/.test(l.msg ?? ''));
      const password = /one-time password (\S+)/.exec(line?.msg ?? '')?.[1];
      expect(line?.msg).toContain('"admin"');
      expect(password).toMatch(/^[A-Z2-9]{16}$/);

      const first = await callAdmin(server, 'POST', '/login', {
        username: 'admin',
        password: password as string,
      });
      expect(first.data).toMatchObject({ step: 'enrol', mustChangePassword: true });
      // a login step expires after five minutes
      await server.clock.advance(5 * 60_000);
      const late = await callAdmin(server, 'POST', '/totp/enrol', {
        ticket: first.data.ticket,
        code: await codeAt(server, first.data.secret),
        newPassword: 'my-own-pass-1',
      });
      expect(late.code).toBe(6005);
      const secrets = new Map<string, string>();
      const { token } = await signIn(server, 'admin', password as string, {
        newPassword: 'my-own-pass-1',
        secrets,
      });
      expect(
        (await callAdmin(server, 'POST', '/login', { username: 'admin', password: password as string })).code,
      ).toBe(2002);

      // idle: 30 minutes unused ends the session
      await server.clock.advance(29 * 60_000);
      expect((await callAdmin(server, 'GET', '/me', undefined, token)).code).toBe(1000);
      await server.clock.advance(30 * 60_000);
      expect((await callAdmin(server, 'GET', '/me', undefined, token)).code).toBe(100);

      // age: 12 hours after login, however much it is used
      const fresh = await signIn(server, 'admin', 'my-own-pass-1', { secrets });
      for (let minutes = 0; minutes < 12 * 60 - 20; minutes += 20) {
        await server.clock.advance(20 * 60_000);
        expect((await callAdmin(server, 'GET', '/me', undefined, fresh.token)).code).toBe(1000);
      }
      await server.clock.advance(20 * 60_000);
      expect((await callAdmin(server, 'GET', '/me', undefined, fresh.token)).code).toBe(100);

      // a restart on the same store creates nobody and prints nothing
      await server.close({ keepStore: true });
      const again = captureLog();
      server = await startServer(name, {
        env: { LOG_LEVEL: 'info' },
        build: { logger: true, logStream: again.stream },
        reuse: server.store,
      });
      expect(again.text()).not.toContain('one-time password');
      expect(
        (await server.app.ctx.audit.list(server.app.ctx.store.db, { action: 'staff.bootstrap', limit: 10 }))
          .length,
      ).toBe(1);
    });
  });
});
