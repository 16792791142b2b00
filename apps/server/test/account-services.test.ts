import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInOwner, signInStaffRoles } from './delivery-harness.ts';
import { callAdmin, DIALECTS, postImage, registerAndLogin, startServer, type TestServer } from './harness.ts';
import { expectHistoryPaging, newestFirst } from './history-harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';
import { ADDRESSES, balanceOf, fund, pngImage, saveAddress, withdraw } from './wallet-harness.ts';
import { connect, on } from './ws-client.ts';

const CAPTCHA = 'k7mp';

/** Uploads one identity image the way the web app does (multipart `image`). */
function uploadIdentityImage(server: TestServer, token: string, data?: Buffer, filename = 'id.png') {
  return postImage(server, '/user/upauthimg', token, data, filename);
}

async function captchaKey(server: TestServer): Promise<string> {
  const issued = await server.call('GET', '/Login/captcha');
  expect(issued.code).toBe(1000);
  return issued.data.key as string;
}

function codeAt(server: TestServer, secret: string, offsetSeconds = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(server.clock.now() / 1000) + offsetSeconds });
}

describe.each(DIALECTS)('account services on $name', ({ name, skip }) => {
  describe.skipIf(skip)('', () => {
    let server: TestServer;
    let owner: string;
    let compliance: string;
    let support: string;
    let content: string;
    const admin = (method: 'GET' | 'POST', path: string, body?: Record<string, unknown>, token = owner) =>
      callAdmin(server, method, path, body, token);

    beforeAll(async () => {
      server = await startServer(name, {
        env: {
          DEMO: 'on',
          ADMIN_USER: 'boss',
          ADMIN_PASSWORD: 'owner-pass-1',
          LIMIT_REGISTER_PER_IP: '1000/3600',
        },
        build: { captchaText: () => CAPTCHA },
      });
      owner = await signInOwner(server, 'boss', 'owner-pass-1');
      ({ compliance, support, content } = await signInStaffRoles(server, owner, [
        'compliance',
        'support',
        'content',
      ] as const));
    });
    afterAll(async () => {
      await expectLedgerInvariants(server);
      await server?.close();
    });

    it('real-name verification: private images, one submission at a time, an audited review, a notice', async () => {
      const alice = await registerAndLogin(server);
      const mallory = await registerAndLogin(server);
      expect((await server.call('GET', '/user/authrz', {}, { token: alice.token })).data).toMatchObject({
        status: 0,
        reason: '',
      });
      expect((await uploadIdentityImage(server, alice.token)).code).toBe(2105);
      const front = await uploadIdentityImage(server, alice.token, await pngImage('#112233'));
      const back = await uploadIdentityImage(server, alice.token, await pngImage('#445566'));
      expect([front.code, back.code]).toEqual([1000, 1000]);
      // identity images are never public
      const open = await fetch(`${server.url}/Upload/public/${front.data.image}`);
      expect(open.status).toBe(404);

      const fields = {
        type: 'passport',
        realname: 'Alice Example',
        country: 'JP',
        mobile: '+819012345678',
        idno: 'TR1234567',
      };
      // another user cannot submit alice's images
      const stolen = await server.call(
        'POST',
        '/user/upauthrz',
        { ...fields, front: front.data.image, back: back.data.image },
        { token: mallory.token, lang: 'en-us' },
      );
      expect([stolen.code, stolen.msg]).toEqual([
        2105,
        'Please upload both the front and the back of the document.',
      ]);
      expect(
        (
          await server.call(
            'POST',
            '/user/upauthrz',
            { ...fields, country: 'Japan', front: front.data.image, back: back.data.image },
            { token: alice.token },
          )
        ).code,
      ).toBe(2104);
      expect(
        (
          await server.call(
            'POST',
            '/user/upauthrz',
            { ...fields, type: 'visa', front: front.data.image, back: back.data.image },
            { token: alice.token },
          )
        ).code,
      ).toBe(1001);

      const submitted = await server.call(
        'POST',
        '/user/upauthrz',
        { ...fields, front: front.data.image, back: back.data.image },
        { token: alice.token },
      );
      expect(submitted.code).toBe(1000);
      const again = await server.call(
        'POST',
        '/user/upauthrz',
        { ...fields, front: front.data.image, back: back.data.image },
        { token: alice.token, lang: 'en-us' },
      );
      expect([again.code, again.msg]).toEqual([2102, 'Already verified, or a verification is under review.']);
      expect((await server.call('GET', '/user/authrz', {}, { token: alice.token })).data).toMatchObject({
        status: 1,
        type: 'passport',
        realname: 'A************',
        country: 'JP',
      });

      // the queue: compliance yes, support no
      expect((await admin('GET', '/identity', undefined, support)).code).toBe(6002);
      const queue = await admin('GET', '/identity', undefined, compliance);
      const mine = queue.data.list.find((r: { userId: number }) => r.userId === alice.uid);
      expect(mine).toMatchObject({ status: 'pending', realName: 'Alice Example', mobile: '+819012345678' });
      expect((await admin('GET', `/identity/${mine.id}/image/front`, undefined, support)).code).toBe(6002);
      const image = await admin('GET', `/identity/${mine.id}/image/front`, undefined, compliance);
      expect(image.data.dataUrl.startsWith('data:image/webp;base64,')).toBe(true);

      const reject = await admin('POST', `/identity/${mine.id}/reject`, { reason: '' }, compliance);
      expect(reject.code).toBe(1002);
      // the reviewer confirms the number and the issuing country read on the image; another
      // number, or another country than the one declared, is refused
      const approve = (idno: string, country: string) =>
        admin('POST', `/identity/${mine.id}/approve`, { idno, country }, compliance);
      expect((await approve('TR7654321', 'JP')).code).toBe(6012);
      expect((await approve('TR1234567', 'KR')).code).toBe(6013);
      const approved = await approve('TR1234567', 'JP');
      expect(approved.data).toMatchObject({ status: 'approved', reviewedBy: 'compliance1' });
      expect((await admin('POST', `/identity/${mine.id}/reject`, { reason: 'late' }, compliance)).code).toBe(
        1003,
      );
      expect(
        (await server.call('GET', '/User/getUserInfo', {}, { token: alice.token })).data.userInfo
          .realname_status,
      ).toBe(2);

      const audit = await admin('GET', '/audit', { target: `identity:${mine.id}` });
      const actions = audit.data.map((row: { action: string }) => row.action);
      expect(actions).toEqual(expect.arrayContaining(['identity.image', 'identity.approve']));

      const notices = await server.call('GET', '/user/notice', {}, { token: alice.token, lang: 'en-us' });
      expect(notices.data.list[0]).toMatchObject({ title: 'Identity verified', read: 0, kind: 'system' });
      expect(notices.data.unread).toBe(1);
    });

    it('refuses withdrawals above the configured value until the identity is verified', async () => {
      const bob = await registerAndLogin(server);
      await server.call(
        'POST',
        '/User/sub_withdrawpwd',
        { paypassword: 'pay-1234', repaypassword: 'pay-1234' },
        { token: bob.token },
      );
      expect(
        (await admin('POST', '/identity-policy', { withdrawAboveUsdt: 'abc', trading: false }, compliance))
          .code,
      ).toBe(6007);
      expect(
        (await admin('POST', '/identity-policy', { withdrawAboveUsdt: '0', trading: false }, compliance))
          .data,
      ).toEqual({
        withdrawAboveUsdt: '0',
        trading: false,
      });
      await fund(server, bob, 'USDT', 'TRC20', '100');
      const addressId = await saveAddress(server, bob.token, {
        coin: 'USDT',
        network: 'TRC20',
        address: ADDRESSES.trx,
      });
      const fields = { coin: 'USDT', address_id: addressId, amount: '20', paypassword: 'pay-1234' };
      const answer = await withdraw(server, bob.token, fields);
      expect([answer.code, answer.msg]).toEqual([2101, 'Please complete real-name verification first.']);
      // above 50 USDT only: 20 passes
      await admin('POST', '/identity-policy', { withdrawAboveUsdt: '50', trading: false }, compliance);
      expect((await withdraw(server, bob.token, fields)).code).toBe(1000);
      expect((await withdraw(server, bob.token, { ...fields, amount: '51' })).code).toBe(2101);
      // trading: refused to the unverified while the switch is on, before anything else is checked
      await admin('POST', '/identity-policy', { withdrawAboveUsdt: '', trading: true }, compliance);
      const order = {
        symbol: 'BTCUSDT',
        side: 'buy',
        type: 'limit',
        price: '50000',
        qty: '0.001',
        idempotency_key: 'kyc-spot-1',
      };
      const spot = await server.call('POST', '/Trade/place', order, { token: bob.token, lang: 'en-us' });
      expect([spot.code, spot.msg]).toEqual([2101, 'Please complete real-name verification first.']);
      const contract = await server.call(
        'POST',
        '/Contract/place',
        { symbol: 'BTCUSDT', direction: 'up', period: 60, amount: '10', idempotency_key: 'kyc-contract-1' },
        { token: bob.token },
      );
      expect(contract.code).toBe(2101);
      await admin('POST', '/identity-policy', { withdrawAboveUsdt: '', trading: false }, compliance);
      // switched off: the same order goes through
      const placed = await server.call('POST', '/Trade/place', order, { token: bob.token });
      expect(placed.code).toBe(1000);
    });

    it('notices: read one, read all, never another user’s; broadcasts in the reader’s language, pushed over /ws', async () => {
      const carol = await registerAndLogin(server);
      const dave = await registerAndLogin(server);
      const socket = await connect(server);
      socket.send({ op: 'auth', token: carol.token });
      await socket.next((f) => f.op === 'authed');
      socket.send({ op: 'subscribe', channel: 'notices' });
      expect((await socket.next(on('notices'))).data).toEqual({ unread: 0 });

      expect(
        (
          await admin(
            'POST',
            '/notices/broadcasts',
            { texts: { 'en-US': { title: 'x', body: 'y' } } },
            content,
          )
        ).code,
      ).toBe(1001);
      expect(
        (
          await admin(
            'POST',
            '/notices/broadcasts',
            { texts: { 'ja-JP': { title: 'x', body: 'y' } } },
            support,
          )
        ).code,
      ).toBe(6002);
      const sent = await admin(
        'POST',
        '/notices/broadcasts',
        {
          texts: {
            'ja-JP': { title: 'メンテナンスのお知らせ', body: '本文' },
            'en-US': { title: 'Maintenance', body: 'Body' },
          },
        },
        content,
      );
      expect(sent.code).toBe(1000);
      expect((await socket.next(on('notices'))).data).toEqual({ broadcast: true });

      const english = await server.call('GET', '/user/notice', {}, { token: carol.token, lang: 'en-us' });
      expect(english.data.list.map((n: { title: string }) => n.title)).toEqual(['Maintenance']);
      const french = await server.call('GET', '/user/notice', {}, { token: carol.token, lang: 'fr-fr' });
      expect(french.data.list[0].title).toBe('メンテナンスのお知らせ');
      const id = english.data.list[0].id;

      // a personal notice for carol: dave cannot read it
      const info = await server.call(
        'GET',
        '/User/noticeinfo',
        { id },
        { token: carol.token, lang: 'en-us' },
      );
      expect(info.data).toMatchObject({
        id,
        title: 'Maintenance',
        content: 'Body',
        read: 0,
        anti_phishing: '',
      });
      const read = await server.call('POST', '/user/readnoticeone', { id }, { token: carol.token });
      expect(read.data).toEqual({ unread: 0 });
      // the broadcast stays unread for dave
      expect((await server.call('GET', '/user/noticecount', {}, { token: dave.token })).data).toEqual({
        unread: 1,
      });
      const daveNotices = await server.call('GET', '/user/notice', {}, { token: dave.token });
      expect(daveNotices.data.list[0].read).toBe(0);
      expect(
        (await server.call('POST', '/user/readnoticeone', { id: 0 }, { token: dave.token })).data,
      ).toEqual({ unread: 0 });
      expect(
        (await server.call('POST', '/user/readnoticeone', { id: 999999 }, { token: dave.token })).code,
      ).toBe(3024);
      socket.socket.close();
    });

    it('two-factor codes: set up, confirm, then login and withdrawals ask for one; each code works once', async () => {
      const erin = await registerAndLogin(server);
      const setup = await server.call('POST', '/user/totpsetup', {}, { token: erin.token });
      expect(setup.data.otpauth_url).toContain(`Bourse:${erin.username}`);
      expect(
        (await server.call('POST', '/user/totpenable', { code: '000000' }, { token: erin.token })).code,
      ).toBe(2114);
      const enabled = await server.call(
        'POST',
        '/user/totpenable',
        { code: await codeAt(server, setup.data.secret) },
        { token: erin.token },
      );
      expect(enabled.code).toBe(1000);
      expect(enabled.data.backup_codes).toHaveLength(10);
      expect((await server.call('POST', '/user/totpsetup', {}, { token: erin.token })).code).toBe(2115);

      const login = (extra: Record<string, string>) =>
        server.call(
          'POST',
          '/Login/loginsubmit',
          { email: erin.username, lpwd: erin.password, ...extra },
          { lang: 'en-us' },
        );
      const asked = await login({});
      expect([asked.code, asked.msg]).toEqual([2113, 'Please enter the code from your authenticator app.']);
      expect((await login({ gacode: '123456' })).code).toBe(2114);
      // the code confirmed at enabling was this time step: a later step is needed
      server.clock.advance(30_000);
      const code = await codeAt(server, setup.data.secret);
      expect((await login({ gacode: code })).code).toBe(1000);
      expect((await login({ gacode: code })).code).toBe(2114);
      const backup = enabled.data.backup_codes[0];
      expect((await login({ gacode: backup })).code).toBe(1000);
      expect((await login({ gacode: backup })).code).toBe(2114);

      const log = await server.call('GET', '/user/loginlog', {}, { token: erin.token });
      expect(log.data.list.slice(0, 6).map((e: { reason: string }) => e.reason)).toEqual([
        'TOTP_WRONG',
        'OK',
        'TOTP_WRONG',
        'OK',
        'TOTP_WRONG',
        'TOTP_REQUIRED',
      ]);

      await server.call(
        'POST',
        '/User/sub_withdrawpwd',
        { paypassword: 'pay-1234', repaypassword: 'pay-1234' },
        { token: erin.token },
      );
      await fund(server, erin, 'USDT', 'TRC20', '100');
      const addressId = await saveAddress(server, erin.token, {
        coin: 'USDT',
        network: 'TRC20',
        address: ADDRESSES.trx,
      });
      const withdrawPage = async () =>
        (await server.call('GET', '/Finance/txpage', { coin: 'USDT' }, { token: erin.token })).data;
      // the withdrawal page says codes are on, so the app asks for one before it sends the request
      expect((await withdrawPage()).totp).toBe(1);
      const fields = { coin: 'USDT', address_id: addressId, amount: '20', paypassword: 'pay-1234' };
      expect((await withdraw(server, erin.token, fields)).code).toBe(2113);
      expect((await withdraw(server, erin.token, { ...fields, gacode: '000000' })).code).toBe(2114);
      expect((await balanceOf(server, erin.token, 'USDT')).available).toBe('100.00000000');
      server.clock.advance(30_000);
      const sent = await withdraw(server, erin.token, {
        ...fields,
        gacode: await codeAt(server, setup.data.secret),
      });
      expect(sent.code).toBe(1000);

      server.clock.advance(30_000);
      expect(
        (await server.call('POST', '/user/totpdisable', { code: '111111' }, { token: erin.token })).code,
      ).toBe(2114);
      expect(
        (
          await server.call(
            'POST',
            '/user/totpdisable',
            { code: await codeAt(server, setup.data.secret) },
            { token: erin.token },
          )
        ).code,
      ).toBe(1000);
      expect((await login({})).code).toBe(1000);
      expect((await withdrawPage()).totp).toBe(0);
    });

    it('sessions and devices: list, end one, end all others; anti-phishing code in notices and mail', async () => {
      const frank = await registerAndLogin(server);
      const second = await server.call(
        'POST',
        '/Login/loginsubmit',
        { email: frank.username, lpwd: frank.password },
        { headers: { 'user-agent': 'Tablet/1.0' } },
      );
      const third = await server.call('POST', '/Login/loginsubmit', {
        email: frank.username,
        lpwd: frank.password,
      });
      const list = await server.call('GET', '/user/sessions', {}, { token: frank.token });
      expect(list.data.list).toHaveLength(3);
      expect(list.data.list.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
      const tablet = list.data.list.find((s: { device: string }) => s.device.includes('Tablet'));
      expect(
        (await server.call('POST', '/user/endsession', { id: tablet.id }, { token: third.data.token })).code,
      ).toBe(1000);
      expect((await server.call('GET', '/user/sessions', {}, { token: second.data.token })).code).toBe(100);
      // a new device was announced
      const notices = await server.call('GET', '/user/notice', {}, { token: frank.token, lang: 'en-us' });
      expect(notices.data.list.map((n: { title: string }) => n.title)).toContain('Login from a new device');
      // someone else's session cannot be ended
      const other = await registerAndLogin(server);
      expect(
        (await server.call('POST', '/user/endsession', { id: tablet.id }, { token: other.token })).code,
      ).toBe(3024);
      expect((await server.call('POST', '/user/endothers', {}, { token: frank.token })).code).toBe(1000);
      expect((await server.call('GET', '/user/sessions', {}, { token: third.data.token })).code).toBe(100);
      expect((await server.call('GET', '/user/sessions', {}, { token: frank.token })).data.list).toHaveLength(
        1,
      );

      expect(
        (await server.call('POST', '/user/antiphishing', { code: 'ab' }, { token: frank.token })).code,
      ).toBe(2117);
      expect(
        (await server.call('POST', '/user/antiphishing', { code: 'Owl2026' }, { token: frank.token })).code,
      ).toBe(1000);
      expect((await server.call('GET', '/user/notice', {}, { token: frank.token })).data.anti_phishing).toBe(
        'Owl2026',
      );
      expect((await server.call('GET', '/user/security', {}, { token: frank.token })).data).toMatchObject({
        anti_phishing: 'Owl2026',
        totp_enabled: false,
        phone: '',
      });

      // bind a mobile once
      expect(
        (
          await server.call(
            'POST',
            '/user/bindmobile',
            { mobile: '+819000000001', lpwd: 'wrong' },
            { token: frank.token },
          )
        ).code,
      ).toBe(2004);
      expect(
        (
          await server.call(
            'POST',
            '/user/bindmobile',
            { mobile: '+819000000001', lpwd: frank.password },
            { token: frank.token },
          )
        ).code,
      ).toBe(1000);
      const twice = await server.call(
        'POST',
        '/user/bindmobile',
        { mobile: '+819000000002', lpwd: frank.password },
        { token: frank.token, lang: 'en-us' },
      );
      expect([twice.code, twice.msg]).toEqual([2106, 'A mobile number is already bound to this account.']);
      expect(
        (
          await server.call(
            'POST',
            '/user/bindmobile',
            { mobile: '+819000000001', lpwd: other.password },
            { token: other.token },
          )
        ).code,
      ).toBe(2014);

      // bind an e-mail with a mailed code; the mail carries the anti-phishing code
      const key = await captchaKey(server);
      const sent = await server.call(
        'POST',
        '/user/sendemailcode',
        { email: 'Frank@Example.com', vcode: CAPTCHA, key },
        { token: frank.token },
      );
      expect(sent.data).toEqual({ resend_after: 60 });
      const outbox = await admin('GET', '/mail/outbox', { recipient: 'frank@example.com' }, support);
      const mail = outbox.data.list[0];
      expect(mail.body.split('\n')[0]).toBe('あなたのフィッシング対策コード：Owl2026');
      const code = /\d{6}/.exec(mail.body)?.[0] as string;
      expect(
        (
          await server.call(
            'POST',
            '/user/bindemail',
            { email: 'frank@example.com', code: '000000' },
            { token: frank.token },
          )
        ).code,
      ).toBe(2110);
      expect(
        (
          await server.call(
            'POST',
            '/user/bindemail',
            { email: 'frank@example.com', code },
            { token: frank.token },
          )
        ).code,
      ).toBe(1000);
      expect((await server.call('GET', '/user/security', {}, { token: frank.token })).data.email).toBe(
        'frank@example.com',
      );
      expect((await admin('GET', '/mail/outbox', {}, content)).code).toBe(6002);
    });

    it('forgotten password: graphic code, registered mailbox, one code per countdown (a burst sends one), reset ends sessions', async () => {
      const grace = await registerAndLogin(server, 'grace@example.org');
      const send = async (email: string, vcode = CAPTCHA) =>
        server.call(
          'POST',
          '/Login/sendresetcode',
          { email, vcode, key: await captchaKey(server) },
          { lang: 'en-us' },
        );
      const wrongCaptcha = await send('grace@example.org', 'zzzz');
      expect([wrongCaptcha.code, wrongCaptcha.msg]).toEqual([
        2108,
        'The e-mail address or the graphic code is wrong.',
      ]);
      const unknown = await send('nobody@example.org');
      expect([unknown.code, unknown.msg]).toEqual([2107, 'This e-mail address is not registered.']);

      const keys = await Promise.all(Array.from({ length: 5 }, () => captchaKey(server)));
      const burst = await Promise.all(
        keys.map((key) =>
          server.call('POST', '/Login/sendresetcode', { email: 'grace@example.org', vcode: CAPTCHA, key }),
        ),
      );
      expect(burst.map((a) => a.code).sort()).toEqual([1000, 2112, 2112, 2112, 2112]);
      const outbox = await admin('GET', '/mail/outbox', { recipient: 'grace@example.org' }, support);
      expect(outbox.data.list).toHaveLength(1);
      const code = /\b\d{6}\b/.exec(outbox.data.list[0].body)?.[0] as string;

      const reset = (fields: Record<string, string>) =>
        server.call('POST', '/Login/resetpwd', {
          email: 'grace@example.org',
          lpwd: 'new-secret-1',
          relpwd: 'new-secret-1',
          ...fields,
        });
      expect((await reset({ code, relpwd: 'other' })).code).toBe(2010);
      expect((await reset({ code: '999999' === code ? '999998' : '999999' })).code).toBe(2110);
      expect((await reset({ code })).code).toBe(1000);
      expect((await reset({ code })).code).toBe(2110);
      expect((await server.call('GET', '/user/security', {}, { token: grace.token })).code).toBe(100);
      expect(
        (await server.call('POST', '/Login/loginsubmit', { email: grace.username, lpwd: grace.password }))
          .code,
      ).toBe(2004);
      const fresh = await server.call('POST', '/Login/loginsubmit', {
        email: grace.username,
        lpwd: 'new-secret-1',
      });
      expect(fresh.code).toBe(1000);
    });

    // why: last, as the broadcasts it writes are every later account's notices too.
    it('pages notices and the login log by `before` as by page number, and shows no one else’s', async () => {
      const db = server.app.ctx.store.db;
      // why: the suite's earlier broadcasts predate these accounts, so they are not theirs to read.
      await server.clock.advance(60_000);
      const [mine, other] = [await registerAndLogin(server), await registerAndLogin(server)];
      const [mineId, otherId] = [BigInt(mine.uid), BigInt(other.uid)];
      const { created_at: since } = await db
        .selectFrom('users')
        .select('created_at')
        .where('id', '=', mineId)
        .executeTakeFirstOrThrow();
      const at = BigInt(server.clock.now());
      const notice = async (userId: bigint | null, createdAt = at) =>
        String(
          (
            await db
              .insertInto('notifications')
              .values({
                user_id: userId,
                msg_key: userId === null ? 'BROADCAST' : 'PASSWORD_RESET',
                params: '{}',
                texts: userId === null ? JSON.stringify({ 'ja-JP': { title: 't', body: 'b' } }) : null,
                read_at: null,
                created_by: null,
                created_at: createdAt,
              })
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id,
        );
      const login = async (userId: bigint) =>
        String(
          (
            await db
              .insertInto('login_logs')
              .values({
                user_id: userId,
                account: 'x',
                success: 1n,
                reason: 'OK',
                ip: '203.0.113.9',
                device: 'test',
                created_at: at,
              })
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id,
        );
      const idsOf = async (table: 'notifications' | 'login_logs', userId: bigint) =>
        (await db.selectFrom(table).select('id').where('user_id', '=', userId).execute()).map((r) =>
          String(r.id),
        );
      const notices = { mine: await idsOf('notifications', mineId), theirs: [] as string[] };
      const logins = { mine: await idsOf('login_logs', mineId), theirs: [] as string[] };
      for (let i = 0; i < 45; i++) {
        notices.mine.push(await notice(mineId));
        // why: broadcasts sent since the account was made are its notices too.
        if (i % 5 === 2) notices.mine.push(await notice(null));
        logins.mine.push(await login(mineId));
        if (i % 10 === 3) {
          notices.theirs.push(await notice(otherId));
          // why: a broadcast sent before the account was made is not among its notices.
          notices.theirs.push(await notice(null, since - 1n));
          logins.theirs.push(await login(otherId));
        }
      }
      const list = (path: string) => (paging: Record<string, string | number>) =>
        server.call('GET', path, paging, { token: mine.token, lang: 'en-us' });
      await expectHistoryPaging(list('/user/notice'), notices);
      await expectHistoryPaging(list('/user/loginlog'), logins);

      // page 1, then below its last id: exactly the next 20 rows, newest first
      const expected = newestFirst(notices.mine);
      const first = await list('/user/notice')({});
      const ids = first.data.list.map((n: { id: number }) => n.id);
      expect(ids).toEqual(expected.slice(0, 20).map(Number));
      const second = await list('/user/notice')({ before: ids.at(-1) });
      expect(second.data.list.map((n: { id: number }) => n.id)).toEqual(expected.slice(20, 40).map(Number));
      expect(second.data).toMatchObject({ page: 1, has_more: true, unread: notices.mine.length });
    });
  });
});
