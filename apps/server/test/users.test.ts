import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WITHDRAW_BLOCK_AFTER_PASSWORD_CHANGE_MS } from '../src/modules/users/service.ts';
import { DIALECTS, registerAndLogin, startServer, type TestServer } from './harness.ts';

describe.each(DIALECTS)('user profile and passwords on $name', ({ name, skip }) => {
  describe.skipIf(skip)('', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startServer(name, { env: { SUPPORT_URL: 'https://support.example.test/chat' } });
    });
    afterAll(() => server?.close());

    it('returns the full user info', async () => {
      const { token, uid } = await registerAndLogin(server, 'quinn_01');
      const answer = await server.call('GET', '/User/getUserInfo', {}, { token });
      expect(answer.code).toBe(1000);
      expect(answer.data.userInfo).toEqual({
        id: uid,
        username: 'quinn_01',
        paypassword: 0,
        is_address: 0,
        email: '',
        phone: '',
        level: 1,
        credit: 100,
        last_login_time: Math.floor(server.clock.now() / 1000),
        last_login_ip: '127.0.0.1',
        invite_code: expect.stringMatching(/^[A-Z2-9]{8}$/),
        reg_ip: '127.0.0.1',
        referrer: '',
        realname_status: 0,
      });
    });

    it('reports is_address once a withdrawal address exists', async () => {
      const { token, uid } = await registerAndLogin(server, 'rita_001');
      await server.app.ctx.store.db
        .insertInto('withdraw_addresses')
        .values({
          user_id: BigInt(uid),
          coin: 'USDT',
          network: 'TRC20',
          address: 'TXYZ',
          remark: '',
          created_at: BigInt(server.clock.now()),
        })
        .execute();
      const answer = await server.call('GET', '/User/getUserInfo', {}, { token });
      expect(answer.data.userInfo.is_address).toBe(1);
    });

    it('changes the login password: checks the old one, ends other sessions, blocks withdrawals for 24 hours', async () => {
      const first = await registerAndLogin(server, 'sam_0001', 'first-pass');
      const second = await server.call('POST', '/Login/loginsubmit', {
        email: 'sam_0001',
        lpwd: 'first-pass',
      });
      const users = server.app.ctx;

      const inconsistent = await server.call(
        'POST',
        '/user/sub_respwd',
        { oldpwd: 'first-pass', newpwd: 'new-pass1', renewpwd: 'new-pass2' },
        { token: first.token, lang: 'en-us' },
      );
      expect(inconsistent).toMatchObject({ code: 2010, msg: 'The two passwords entered are inconsistent.' });
      const wrongOld = await server.call(
        'POST',
        '/user/sub_respwd',
        { oldpwd: 'not-it-1', newpwd: 'new-pass1', renewpwd: 'new-pass1' },
        { token: first.token, lang: 'en-us' },
      );
      expect(wrongOld).toMatchObject({ code: 2009, msg: 'The old password is wrong.' });
      const tooShort = await server.call(
        'POST',
        '/user/sub_respwd',
        { oldpwd: 'first-pass', newpwd: 'abc', renewpwd: 'abc' },
        { token: first.token },
      );
      expect(tooShort.code).toBe(2012);
      const same = await server.call(
        'POST',
        '/user/sub_respwd',
        { oldpwd: 'first-pass', newpwd: 'first-pass', renewpwd: 'first-pass' },
        { token: first.token },
      );
      expect(same.code).toBe(2016);

      const changed = await server.call(
        'POST',
        '/user/sub_respwd',
        { oldpwd: 'first-pass', newpwd: 'new-pass1', renewpwd: 'new-pass1' },
        { token: first.token, lang: 'en-us' },
      );
      expect(changed).toMatchObject({
        code: 1000,
        msg: 'Password changed. Withdrawals are blocked for 24 hours.',
      });

      expect((await server.call('GET', '/User/getUserInfo', {}, { token: first.token })).code).toBe(1000);
      expect((await server.call('GET', '/User/getUserInfo', {}, { token: second.data.token })).code).toBe(
        100,
      );
      expect(
        (await server.call('POST', '/Login/loginsubmit', { email: 'sam_0001', lpwd: 'first-pass' })).code,
      ).toBe(2004);
      expect(
        (await server.call('POST', '/Login/loginsubmit', { email: 'sam_0001', lpwd: 'new-pass1' })).code,
      ).toBe(1000);

      const row = await users.store.db
        .selectFrom('users')
        .select('withdraw_blocked_until')
        .where('id', '=', BigInt(first.uid))
        .executeTakeFirstOrThrow();
      expect(row.withdraw_blocked_until).toBe(
        BigInt(server.clock.now() + WITHDRAW_BLOCK_AFTER_PASSWORD_CHANGE_MS),
      );
    });

    it('sets the withdrawal password, then changes it only with the old one', async () => {
      const { token } = await registerAndLogin(server, 'tina_001');
      const mismatch = await server.call(
        'POST',
        '/User/sub_withdrawpwd',
        { paypassword: 'pay-123', repaypassword: 'pay-124' },
        { token },
      );
      expect(mismatch.code).toBe(2010);
      const short = await server.call(
        'POST',
        '/User/sub_withdrawpwd',
        { paypassword: '12', repaypassword: '12' },
        { token, lang: 'en-us' },
      );
      expect(short).toMatchObject({
        code: 3003,
        msg: 'The withdrawal password must be 6–32 characters long.',
      });

      const set = await server.call(
        'POST',
        '/User/sub_withdrawpwd',
        { paypassword: 'pay-123', repaypassword: 'pay-123' },
        { token, lang: 'en-us' },
      );
      expect(set).toMatchObject({ code: 1000, msg: 'Withdrawal password saved.' });
      expect((await server.call('GET', '/User/getUserInfo', {}, { token })).data.userInfo.paypassword).toBe(
        1,
      );

      const noOld = await server.call(
        'POST',
        '/User/sub_withdrawpwd',
        { paypassword: 'pay-456', repaypassword: 'pay-456' },
        { token },
      );
      expect(noOld.code).toBe(1002);
      const wrongOld = await server.call(
        'POST',
        '/User/sub_withdrawpwd',
        { paypassword: 'pay-456', repaypassword: 'pay-456', oldpaypassword: 'nope-12' },
        { token, lang: 'en-us' },
      );
      expect(wrongOld).toMatchObject({ code: 3001, msg: 'Wrong withdrawal password.' });
      const changed = await server.call(
        'POST',
        '/User/sub_withdrawpwd',
        { paypassword: 'pay-456', repaypassword: 'pay-456', oldpaypassword: 'pay-123' },
        { token },
      );
      expect(changed.code).toBe(1000);
      const db = server.app.ctx.store.db;
      const row = await db
        .selectFrom('users')
        .select('pay_password_hash')
        .where('username_key', '=', 'tina_001')
        .executeTakeFirstOrThrow();
      expect(row.pay_password_hash).toMatch(/^\$argon2id\$/);
    });

    it('returns the configured support URL, needing a session', async () => {
      const { token } = await registerAndLogin(server, 'uma_0001');
      expect(await server.call('POST', '/user/online', {}, { token })).toMatchObject({
        code: 1000,
        data: 'https://support.example.test/chat',
      });
      expect((await server.call('POST', '/user/online')).code).toBe(100);
      await server.app.ctx.store.db
        .insertInto('settings')
        .values({ key: 'support_url', value: 'https://chat.example.test/' })
        .execute();
      expect((await server.call('POST', '/user/online', {}, { token })).data).toBe(
        'https://chat.example.test/',
      );
    });

    it('stores passwords as argon2id hashes only', async () => {
      const { uid } = await registerAndLogin(server, 'vera_001', 'plain-pass');
      const row = await server.app.ctx.store.db
        .selectFrom('users')
        .select('password_hash')
        .where('id', '=', BigInt(uid))
        .executeTakeFirstOrThrow();
      expect(row.password_hash).toMatch(/^\$argon2id\$/);
      expect(row.password_hash).not.toContain('plain-pass');
    });
  });
});
