import { translateServer } from '@bourse/i18n/server';
import { RESULT_CODES } from '@bourse/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAndLogin, SQLITE_ONLY, startServer, type TestServer } from './harness.ts';

const LANG = 'de-de';
const ERROR_MESSAGES = new Set(
  Object.keys(RESULT_CODES).map((key) => translateServer('de-DE', `errors.${key}`)),
);

const POST_ENDPOINTS: { path: string; fields: string[]; auth: boolean }[] = [
  { path: '/Login/upregister', fields: ['account', 'lpwd', 'invit', 'vcode', 'key'], auth: false },
  { path: '/Login/upregister_phone', fields: ['account', 'lpwd', 'invit', 'vcode', 'key'], auth: false },
  { path: '/Login/loginsubmit', fields: ['email', 'lpwd', 'vcode', 'key'], auth: false },
  { path: '/user/sub_respwd', fields: ['oldpwd', 'newpwd', 'renewpwd'], auth: true },
  { path: '/User/sub_withdrawpwd', fields: ['paypassword', 'repaypassword', 'oldpaypassword'], auth: true },
  { path: '/Login/logout', fields: ['token'], auth: true },
  { path: '/user/online', fields: ['token'], auth: true },
];
const GET_ENDPOINTS = ['/Login/config', '/Login/captcha', '/User/getUserInfo', '/Market/tickers'];

const NASTY_STRINGS = [
  '',
  ' ',
  "' OR '1'='1' --",
  '"; DROP TABLE users; --',
  '<script>alert(1)</script>',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log-injection probe, not a template
  '${jndi:ldap://127.0.0.1/a}',
  '../../../../etc/passwd',
  '\u0000\u0001\u001f',
  '\ud800',
  '💥'.repeat(500),
  'x'.repeat(20_000),
];

interface RawAnswer {
  status: number;
  body: { code: number; msg: string; data: unknown };
}

describe.each(SQLITE_ONLY)('bad input on $name', ({ name, skip }) => {
  describe.skipIf(skip)('', () => {
    let server: TestServer;
    let token: string;
    let snapshot: () => Promise<string>;

    beforeAll(async () => {
      server = await startServer(name);
      ({ token } = await registerAndLogin(server, 'victim_1', 'secret123'));
      await server.call(
        'POST',
        '/User/sub_withdrawpwd',
        { paypassword: 'pay-123', repaypassword: 'pay-123' },
        { token },
      );
      const db = server.app.ctx.store.db;
      // what bad input must never change (the login log records attempts, and captchas are issued freely)
      snapshot = async () =>
        JSON.stringify(
          [
            await db.selectFrom('users').selectAll().orderBy('id').execute(),
            await db.selectFrom('sessions').select(['id', 'user_id', 'revoked_at']).orderBy('id').execute(),
            await db.selectFrom('withdraw_addresses').selectAll().execute(),
            await db.selectFrom('settings').selectAll().execute(),
          ],
          (_key, value) => (typeof value === 'bigint' ? `${value}n` : value),
        );
    });
    afterAll(() => server?.close());

    async function raw(
      method: string,
      path: string,
      init: { body?: string | Buffer; type?: string; query?: string } = {},
    ): Promise<RawAnswer> {
      const headers: Record<string, string> = { Lang: LANG };
      if (init.type) headers['content-type'] = init.type;
      const response = await fetch(`${server.url}/apiv${path}${init.query ? `?${init.query}` : ''}`, {
        method,
        headers,
        body: init.body,
      });
      const text = await response.text();
      let body: RawAnswer['body'];
      try {
        body = JSON.parse(text);
      } catch {
        throw new Error(`${method} ${path} answered non-JSON (${response.status}): ${text.slice(0, 200)}`);
      }
      return { status: response.status, body };
    }

    function expectRefused(answer: RawAnswer, label: string) {
      expect(answer.status, label).toBeLessThan(500);
      expect(answer.body.code, label).not.toBe(1000);
      expect(typeof answer.body.code, label).toBe('number');
      expect(ERROR_MESSAGES.has(answer.body.msg), `${label}: untranslated msg ${answer.body.msg}`).toBe(true);
      expect(answer.body.data, label).toBeNull();
    }

    it('answers every malformed POST with a translated error and changes nothing', async () => {
      const before = await snapshot();
      let checked = 0;
      for (const endpoint of POST_ENDPOINTS) {
        const base: Record<string, string> = endpoint.auth ? { token } : {};
        const cases: [string, RawAnswer][] = [];
        const form = (fields: Record<string, string>) =>
          new URLSearchParams({ ...base, ...fields }).toString();
        const formType = 'application/x-www-form-urlencoded';
        const jsonType = 'application/json';

        if (endpoint.path !== '/Login/logout' && endpoint.path !== '/user/online') {
          cases.push(['empty form', await raw('POST', endpoint.path, { body: form({}), type: formType })]);
          cases.push([
            'no body',
            await raw('POST', endpoint.path, endpoint.auth ? { query: `token=${token}` } : {}),
          ]);
          for (const field of endpoint.fields) {
            for (const nasty of NASTY_STRINGS) {
              const fields = Object.fromEntries(
                endpoint.fields.map((f) => [f, f === field ? nasty : 'short']),
              );
              cases.push([
                `${field}=${JSON.stringify(nasty).slice(0, 30)}`,
                await raw('POST', endpoint.path, { body: form(fields), type: formType }),
              ]);
            }
            for (const wrong of [12345, true, null, ['a', 'b'], { nested: 'x' }]) {
              const body = JSON.stringify({
                ...base,
                ...Object.fromEntries(endpoint.fields.map((f) => [f, f === field ? wrong : 'short'])),
              });
              cases.push([
                `json ${field}=${JSON.stringify(wrong)}`,
                await raw('POST', endpoint.path, { body, type: jsonType }),
              ]);
            }
            const repeated = `${form({})}&${field}=a&${field}=b`;
            cases.push([
              `repeated ${field}`,
              await raw('POST', endpoint.path, { body: repeated, type: formType }),
            ]);
          }
        }
        const invalidUtf8 = Buffer.concat([
          Buffer.from(`${form({})}&${endpoint.fields[0]}=`),
          Buffer.from([0xff, 0xfe, 0xc3, 0x28]),
        ]);
        cases.push([
          'invalid utf-8 bytes',
          await raw('POST', endpoint.path, { body: invalidUtf8, type: formType }),
        ]);
        cases.push([
          'invalid utf-8 percent-encoded',
          await raw('POST', endpoint.path, {
            body: `${form({})}&${endpoint.fields[0]}=%FF%FE%C3%28`,
            type: formType,
          }),
        ]);
        cases.push([
          'broken json',
          await raw('POST', endpoint.path, { body: '{"account": ', type: jsonType }),
        ]);
        cases.push(['json array', await raw('POST', endpoint.path, { body: '[1,2,3]', type: jsonType })]);
        cases.push([
          'proto pollution',
          await raw('POST', endpoint.path, { body: '{"__proto__":{"admin":true}}', type: jsonType }),
        ]);
        cases.push([
          'unsupported type',
          await raw('POST', endpoint.path, { body: 'hello', type: 'text/plain' }),
        ]);
        cases.push([
          'over body limit',
          await raw('POST', endpoint.path, {
            body: form({ [endpoint.fields[0]!]: 'y'.repeat(70_000) }),
            type: formType,
          }),
        ]);

        for (const [label, answer] of cases) {
          // logout and online succeed with a valid token whatever else is sent: only refusals are checked
          if (
            (endpoint.path === '/Login/logout' || endpoint.path === '/user/online') &&
            answer.body.code === 1000
          )
            continue;
          expectRefused(answer, `${endpoint.path} ${label}`);
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(300);
      expect(await snapshot()).toBe(before);
    });

    it('answers malformed GET queries without a 500', async () => {
      for (const path of GET_ENDPOINTS) {
        for (const query of [
          'token=%FF%FE',
          `token=${'t'.repeat(5000)}`,
          'token=a&token=b',
          'token[]=x',
          '%E0%A4%A',
        ]) {
          const answer = await raw('GET', path, { query });
          expect(answer.status, `${path}?${query}`).toBeLessThan(500);
          expect(typeof answer.body.msg).toBe('string');
          if (path === '/User/getUserInfo') expectRefused(answer, `${path}?${query}`);
        }
      }
      const unknown = await raw('GET', '/No/such/path');
      expect(unknown.status).toBe(404);
      expectRefused(unknown, 'unknown path');
    });

    it('still works for the real user afterwards', async () => {
      const info = await server.call('GET', '/User/getUserInfo', {}, { token });
      expect(info.data.userInfo).toMatchObject({ username: 'victim_1', paypassword: 1 });
    });
  });
});
