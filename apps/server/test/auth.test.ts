import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sha256 } from '../src/platform/crypto.ts';
import { DIALECTS, registerAndLogin, startServer, type TestServer } from './harness.ts';

describe.each(DIALECTS)('accounts on $name', ({ name, skip }) => {
  describe.skipIf(skip)('register mode 1, captcha off', () => {
    let server: TestServer;
    beforeAll(async () => {
      // why: registration and login are tested at the cost production hashes at.
      server = await startServer(name, { config: { passwordHashing: 'standard' } });
    });
    afterAll(() => server?.close());

    it('tells the client its configuration', async () => {
      const answer = await server.call('GET', '/Login/config');
      expect(answer).toMatchObject({
        code: 1000,
        data: { register_mode: 1, captcha: false, price_source: 'simulated' },
      });
    });

    it('matches paths case-insensitively', async () => {
      expect((await server.call('GET', '/login/CONFIG')).code).toBe(1000);
      expect((await server.call('GET', '/LOGIN/Config')).code).toBe(1000);
    });

    it('registers, translating the success message by the Lang header', async () => {
      const en = await server.call(
        'POST',
        '/Login/upregister',
        { account: 'alice_01', lpwd: 'secret123' },
        { lang: 'en-us' },
      );
      expect(en).toMatchObject({ status: 200, code: 1000, msg: 'Registration successful.', data: null });
      const ja = await server.call('POST', '/Login/upregister', { account: 'bob_0001', lpwd: 'secret123' });
      expect(ja.msg).toBe('登録が完了しました');
      const unknownLang = await server.call(
        'POST',
        '/Login/upregister',
        { account: 'carol_01', lpwd: 'secret123' },
        { lang: 'xx-yy' },
      );
      expect(unknownLang.msg).toBe('登録が完了しました');
    });

    it('refuses a taken username, whatever its case', async () => {
      await server.call('POST', '/Login/upregister', { account: 'dave_001', lpwd: 'secret123' });
      const again = await server.call(
        'POST',
        '/Login/upregister',
        { account: 'DAVE_001', lpwd: 'other123' },
        { lang: 'en-us' },
      );
      expect(again).toMatchObject({ code: 2006, msg: 'This user name already exists.' });
    });

    it('refuses an unknown invitation code and links a known one to its referrer', async () => {
      const bad = await server.call('POST', '/Login/upregister', {
        account: 'erin_001',
        lpwd: 'secret123',
        invit: 'NOPE1234',
      });
      expect(bad.code).toBe(2008);
      const referrer = await registerAndLogin(server, 'frank_01');
      const info = await server.call('GET', '/User/getUserInfo', {}, { token: referrer.token });
      const code = info.data.userInfo.invite_code as string;
      expect(code).toMatch(/^[A-Z2-9]{8}$/);
      const referred = await server.call('POST', '/Login/upregister', {
        account: 'gina_001',
        lpwd: 'secret123',
        invit: code.toLowerCase(),
      });
      expect(referred.code).toBe(1000);
      const login = await server.call('POST', '/Login/loginsubmit', { email: 'gina_001', lpwd: 'secret123' });
      const ginaInfo = await server.call('GET', '/User/getUserInfo', {}, { token: login.data.token });
      expect(ginaInfo.data.userInfo.referrer).toBe('fr***1');
      expect(ginaInfo.data.userInfo.invite_code).not.toBe(code);
    });

    it('accepts an e-mail address as username and records it as the e-mail', async () => {
      const { token } = await registerAndLogin(server, 'Heidi@Example.com');
      const info = await server.call('GET', '/User/getUserInfo', {}, { token });
      expect(info.data.userInfo).toMatchObject({ username: 'Heidi@Example.com', email: 'Heidi@Example.com' });
    });

    it('validates username and password with translated messages', async () => {
      const shortName = await server.call(
        'POST',
        '/Login/upregister',
        { account: 'ab', lpwd: 'secret123' },
        { lang: 'de-de' },
      );
      expect(shortName.code).toBe(2011);
      expect(shortName.msg).toContain('Benutzername');
      const shortPassword = await server.call(
        'POST',
        '/Login/upregister',
        { account: 'ivan_001', lpwd: '123' },
        { lang: 'fr-fr' },
      );
      expect(shortPassword).toMatchObject({
        code: 2012,
        msg: 'Le mot de passe doit comporter de 6 à 32 caractères.',
      });
      const missing = await server.call(
        'POST',
        '/Login/upregister',
        { lpwd: 'secret123' },
        { lang: 'ko-kr' },
      );
      expect(missing).toMatchObject({ code: 1002, msg: '필수 항목이 누락되었습니다' });
      const wrongMode = await server.call('POST', '/Login/upregister_phone', {
        account: '+8613800000000',
        lpwd: 'secret123',
      });
      expect(wrongMode.code).toBe(2015);
    });

    it('logs in with a token stored only as a hash, and writes every attempt to the login log', async () => {
      await server.call('POST', '/Login/upregister', { account: 'judy_001', lpwd: 'secret123' });
      const headers = { 'user-agent': 'BourseTest/1.0 (iPhone)' };
      const wrong = await server.call(
        'POST',
        '/Login/loginsubmit',
        { email: 'judy_001', lpwd: 'wrong-pass' },
        { lang: 'en-us', headers },
      );
      expect(wrong).toMatchObject({ code: 2004, msg: 'Wrong login password.' });
      const unknown = await server.call(
        'POST',
        '/Login/loginsubmit',
        { email: 'nobody_1', lpwd: 'secret123' },
        { lang: 'en-us', headers },
      );
      expect(unknown).toMatchObject({ code: 2003, msg: 'User does not exist.' });
      const good = await server.call(
        'POST',
        '/Login/loginsubmit',
        { email: 'JUDY_001', lpwd: 'secret123' },
        { lang: 'en-us', headers },
      );
      expect(good).toMatchObject({ code: 1000, msg: 'Login successful.' });
      expect(good.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);

      const db = server.app.ctx.store.db;
      const sessions = await db
        .selectFrom('sessions')
        .selectAll()
        .where('user_id', '=', good.data.uid)
        .execute();
      expect(sessions).toHaveLength(1);
      expect(sessions[0]!.token_hash).toBe(sha256(good.data.token));
      expect(
        JSON.stringify(sessions, (_key, value) => (typeof value === 'bigint' ? String(value) : value)),
      ).not.toContain(good.data.token);
      expect(sessions[0]).toMatchObject({ ip: '127.0.0.1', device: 'BourseTest/1.0 (iPhone)' });

      const logs = await db
        .selectFrom('login_logs')
        .selectAll()
        .where('account', 'in', ['judy_001', 'JUDY_001', 'nobody_1'])
        .orderBy('id')
        .execute();
      expect(logs.map((l) => [l.account, l.success, l.reason])).toEqual([
        ['judy_001', 0n, 'LOGIN_PASSWORD_WRONG'],
        ['nobody_1', 0n, 'USER_NOT_FOUND'],
        ['JUDY_001', 1n, 'OK'],
      ]);
      expect(
        logs.every(
          (l) => l.ip === '127.0.0.1' && l.device.includes('BourseTest') && Number(l.created_at) > 0,
        ),
      ).toBe(true);

      const info = await server.call('GET', '/User/getUserInfo', {}, { token: good.data.token });
      expect(info.data.userInfo.last_login_ip).toBe('127.0.0.1');
      expect(info.data.userInfo.last_login_time).toBe(Math.floor(server.clock.now() / 1000));
    });

    it('refuses a frozen account', async () => {
      const { uid, username } = await registerAndLogin(server, 'kate_001');
      await server.app.ctx.store.db
        .updateTable('users')
        .set({ status: 'frozen' })
        .where('id', '=', BigInt(uid))
        .execute();
      const answer = await server.call(
        'POST',
        '/Login/loginsubmit',
        { email: username, lpwd: 'secret123' },
        { lang: 'en-us' },
      );
      expect(answer).toMatchObject({
        code: 2005,
        msg: 'Your account is frozen. Please contact the administrator.',
      });
    });

    it('accepts the token as a query parameter, a form field or a Bearer header, and revokes it on logout', async () => {
      const { token } = await registerAndLogin(server, 'leo_0001');
      expect((await server.call('GET', '/User/getUserInfo', {}, { token })).code).toBe(1000);
      expect((await server.call('GET', '/User/getUserInfo', {}, { bearer: token })).code).toBe(1000);
      expect((await server.call('POST', '/user/online', {}, { token })).code).toBe(1000);
      expect((await server.call('POST', '/user/online', {}, { token, json: true })).code).toBe(1000);
      const none = await server.call('GET', '/User/getUserInfo', {}, { lang: 'en-us' });
      expect(none).toMatchObject({ code: 100, msg: 'Your session has expired. Please log in again.' });
      expect((await server.call('GET', '/User/getUserInfo', {}, { token: 'x'.repeat(43) })).code).toBe(100);
      const logout = await server.call('POST', '/Login/logout', {}, { token });
      expect(logout.code).toBe(1000);
      expect((await server.call('GET', '/User/getUserInfo', {}, { token })).code).toBe(100);
      expect((await server.call('POST', '/Login/logout', {}, { token })).code).toBe(100);
    });
  });

  describe.skipIf(skip)('brute-force limits', () => {
    let server: TestServer;
    beforeEach(async () => {
      server = await startServer(name, {
        env: {
          LIMIT_LOGIN_PER_IP: '8/60',
          LIMIT_LOGIN_PER_ACCOUNT_IP: '3/1',
          LIMIT_REGISTER_PER_IP: '2/60',
          LIMIT_CAPTCHA_PER_IP: '3/60',
        },
      });
    });
    afterEach(() => server?.close());

    it('stops logins to one account from one address after repeated failures, until the window passes', async () => {
      await server.call('POST', '/Login/upregister', { account: 'mike_001', lpwd: 'secret123' });
      for (let i = 0; i < 3; i++) {
        expect(
          (await server.call('POST', '/Login/loginsubmit', { email: 'mike_001', lpwd: 'bad-pass' })).code,
        ).toBe(2004);
      }
      const blocked = await server.call(
        'POST',
        '/Login/loginsubmit',
        { email: 'mike_001', lpwd: 'secret123' },
        { lang: 'en-us' },
      );
      expect(blocked).toMatchObject({ code: 1004, msg: 'Too many attempts. Please try again later.' });
      // why: limits count in real time (the limit store's own clock); this window is one second.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect(
        (await server.call('POST', '/Login/loginsubmit', { email: 'mike_001', lpwd: 'secret123' })).code,
      ).toBe(1000);
    });

    it('stops logins from one IP after repeated failures across accounts', async () => {
      await server.call('POST', '/Login/upregister', { account: 'mike_001', lpwd: 'secret123' });
      for (let i = 0; i < 8; i++) {
        expect(
          (await server.call('POST', '/Login/loginsubmit', { email: `ghost_${i}x`, lpwd: 'whatever1' })).code,
        ).toBe(2003);
      }
      expect(
        (await server.call('POST', '/Login/loginsubmit', { email: 'mike_001', lpwd: 'secret123' })).code,
      ).toBe(1004);
    });

    it('limits registrations per IP with the spec message', async () => {
      expect(
        (await server.call('POST', '/Login/upregister', { account: 'nina_001', lpwd: 'secret123' })).code,
      ).toBe(1000);
      expect(
        (await server.call('POST', '/Login/upregister', { account: 'nina_002', lpwd: 'secret123' })).code,
      ).toBe(1000);
      const third = await server.call(
        'POST',
        '/Login/upregister',
        { account: 'nina_003', lpwd: 'secret123' },
        { lang: 'zh-cn' },
      );
      expect(third).toMatchObject({ code: 2007, msg: '注册次数过多，请稍后再试' });
    });

    it('limits graphic codes per IP', async () => {
      for (let i = 0; i < 3; i++) expect((await server.call('GET', '/Login/captcha')).code).toBe(1000);
      expect((await server.call('GET', '/Login/captcha')).code).toBe(1004);
    });
  });

  describe.skipIf(skip)('graphic captcha on', () => {
    let server: TestServer;
    let nextText = 'ab3d';
    beforeAll(async () => {
      server = await startServer(name, { env: { CAPTCHA: 'on' }, build: { captchaText: () => nextText } });
    });
    afterAll(() => server?.close());

    const captcha = async (text: string) => {
      nextText = text;
      const answer = await server.call('GET', '/Login/captcha');
      expect(answer.code).toBe(1000);
      return answer.data as { key: string; img: string };
    };

    it('returns an SVG image and a key', async () => {
      const { key, img } = await captcha('k7mp');
      expect(key).toMatch(/^[0-9a-f]{32}$/);
      expect(img.startsWith('data:image/svg+xml;base64,')).toBe(true);
      const svg = Buffer.from(img.split(',')[1]!, 'base64').toString('utf8');
      expect(svg).toContain('<svg');
      expect(svg).not.toContain('k7mp'); // drawn as paths, not text
      expect((await server.call('GET', '/Login/config')).data.captcha).toBe(true);
    });

    it('requires the right code for registration and login, once per key, before it expires', async () => {
      const missing = await server.call(
        'POST',
        '/Login/upregister',
        { account: 'olga_001', lpwd: 'secret123' },
        { lang: 'en-us' },
      );
      expect(missing).toMatchObject({ code: 2001, msg: 'The graphic code is wrong or has expired.' });

      let c = await captcha('q4rs');
      expect(
        (
          await server.call('POST', '/Login/upregister', {
            account: 'olga_001',
            lpwd: 'secret123',
            vcode: 'zzzz',
            key: c.key,
          })
        ).code,
      ).toBe(2001);
      // the key was used up by the wrong attempt
      expect(
        (
          await server.call('POST', '/Login/upregister', {
            account: 'olga_001',
            lpwd: 'secret123',
            vcode: 'q4rs',
            key: c.key,
          })
        ).code,
      ).toBe(2001);

      c = await captcha('q4rs');
      expect(
        (
          await server.call('POST', '/Login/upregister', {
            account: 'olga_001',
            lpwd: 'secret123',
            vcode: 'Q4RS',
            key: c.key,
          })
        ).code,
      ).toBe(1000);

      c = await captcha('w8xy');
      server.clock.advance(5 * 60_000 + 1);
      expect(
        (
          await server.call('POST', '/Login/loginsubmit', {
            email: 'olga_001',
            lpwd: 'secret123',
            vcode: 'w8xy',
            key: c.key,
          })
        ).code,
      ).toBe(2001);

      c = await captcha('w8xy');
      const login = await server.call('POST', '/Login/loginsubmit', {
        email: 'olga_001',
        lpwd: 'secret123',
        vcode: 'w8xy',
        key: c.key,
      });
      expect(login.code).toBe(1000);
      expect(
        (
          await server.call('POST', '/Login/loginsubmit', {
            email: 'olga_001',
            lpwd: 'secret123',
            vcode: 'w8xy',
            key: c.key,
          })
        ).code,
      ).toBe(2001);
    });
  });

  describe.skipIf(skip)('register mode 2 (phone)', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startServer(name, { env: { REGISTER_MODE: '2' } });
    });
    afterAll(() => server?.close());

    it('registers by phone number and logs in with it', async () => {
      expect((await server.call('GET', '/Login/config')).data.register_mode).toBe(2);
      const ok = await server.call('POST', '/Login/upregister_phone', {
        account: '+819012345678',
        lpwd: 'secret123',
      });
      expect(ok.code).toBe(1000);
      const again = await server.call(
        'POST',
        '/Login/upregister_phone',
        { account: '+819012345678', lpwd: 'secret123' },
        { lang: 'en-us' },
      );
      expect(again).toMatchObject({ code: 2014, msg: 'This mobile number is already registered.' });
      const bad = await server.call('POST', '/Login/upregister_phone', {
        account: '12ab',
        lpwd: 'secret123',
      });
      expect(bad.code).toBe(2013);
      const mode1 = await server.call('POST', '/Login/upregister', {
        account: 'paul_001',
        lpwd: 'secret123',
      });
      expect(mode1.code).toBe(2015);
      const login = await server.call('POST', '/Login/loginsubmit', {
        email: '+819012345678',
        lpwd: 'secret123',
      });
      expect(login.code).toBe(1000);
      const info = await server.call('GET', '/User/getUserInfo', {}, { token: login.data.token });
      expect(info.data.userInfo.phone).toBe('+819012345678');
    });
  });
});
