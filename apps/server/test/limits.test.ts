import { randomBytes, randomInt } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type LimitStore, type LimitStoreKind, openLimitStore } from '../src/platform/rate-limit.ts';
import {
  type ApiAnswer,
  createPostgresDatabase,
  DIALECTS,
  type DialectName,
  dropPostgresDatabase,
  registerAndLogin,
  startServer,
  type TestServer,
  terminatePostgresBackends,
} from './harness.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function probeRedis(): Promise<string | null> {
  const client = new Redis(REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 1000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    return null;
  } catch (error) {
    return `Redis at ${REDIS_URL} did not answer (${(error as Error).message})`;
  } finally {
    client.disconnect();
  }
}

const redisSkipReason = await probeRedis();
if (redisSkipReason) console.warn(`[skip] Redis limit-store tests skipped: ${redisSkipReason}`);

/** Deletes the Redis keys that match `pattern` and contain every one of `parts`. */
async function deleteRedisKeys(pattern: string, parts: string[] = []): Promise<number> {
  const client = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    let deleted = 0;
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      const mine = keys.filter((key) => parts.every((part) => key.includes(part)));
      if (mine.length > 0) deleted += await client.del(...mine);
    } while (cursor !== '0');
    return deleted;
  } finally {
    client.disconnect();
  }
}

const serverMessages = (locale: string) =>
  JSON.parse(
    fs.readFileSync(
      path.resolve(import.meta.dirname, `../../../packages/i18n/resources/server/${locale}.json`),
      'utf8',
    ),
  ) as { errors: Record<string, string> };

/**
 * Calls `/apiv` + path over real HTTP from the loopback address `localAddress` (127.0.0.0/8 is all
 * loopback), so the server sees a different client address than 127.0.0.1.
 */
function callFrom(
  server: TestServer,
  localAddress: string,
  method: 'GET' | 'POST',
  apiPath: string,
  params: Record<string, unknown> = {},
  options: { lang?: string; token?: string } = {},
): Promise<ApiAnswer> {
  const target = new URL(`${server.url}/apiv${apiPath}`);
  const fields: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) fields[k] = String(v);
  if (options.token) fields.token = options.token;
  const headers: Record<string, string> = { Lang: options.lang ?? 'ja-jp' };
  let body: string | undefined;
  if (method === 'GET') target.search = new URLSearchParams(fields).toString();
  else {
    body = new URLSearchParams(fields).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method,
        headers,
        localAddress,
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          try {
            const json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            resolve({ status: response.statusCode ?? 0, ...json });
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** A loopback address no other run uses, so counts in a shared store (Redis) never collide. */
const randomLoopback = () => `127.${1 + randomInt(254)}.${randomInt(256)}.${1 + randomInt(254)}`;

const tally = (answers: ApiAnswer[]) => {
  const counts: Record<number, number> = {};
  for (const answer of answers) counts[answer.code] = (counts[answer.code] ?? 0) + 1;
  return counts;
};

describe.each(DIALECTS)('limits over HTTP on $name', ({ name, skip }) => {
  describe.skipIf(skip)('bursts', () => {
    let server: TestServer;
    afterEach(() => server?.close());

    it('evaluates exactly the limit of 60 concurrent logins to one account, and lets none in', async () => {
      server = await startServer(name, {
        env: { LIMIT_LOGIN_PER_ACCOUNT_IP: '5/900', LIMIT_LOGIN_PER_IP: '1000/900' },
      });
      const account = 'burst_login';
      const registered = await server.call('POST', '/Login/upregister', { account, lpwd: 'secret123' });
      expect(registered.code).toBe(1000);

      const attempts: Promise<ApiAnswer>[] = [];
      for (let i = 0; i < 59; i++) {
        attempts.push(server.call('POST', '/Login/loginsubmit', { email: account, lpwd: `wrong-${i}` }));
      }
      attempts.push(server.call('POST', '/Login/loginsubmit', { email: account, lpwd: 'secret123' }));
      const answers = await Promise.all(attempts);

      expect(tally(answers)).toEqual({ 2004: 5, 1004: 55 });
      expect(answers.filter((a) => a.code === 1004).every((a) => a.status === 429)).toBe(true);
      const db = server.app.ctx.store.db;
      const logs = await db
        .selectFrom('login_logs')
        .select(['success', 'reason'])
        .where('account', '=', account)
        .execute();
      expect(logs).toEqual(
        Array.from({ length: 5 }, () => ({ success: 0n, reason: 'LOGIN_PASSWORD_WRONG' })),
      );
      expect(await db.selectFrom('sessions').select('id').execute()).toEqual([]);
      // the lock holds for the right password afterwards too
      const after = await server.call('POST', '/Login/loginsubmit', { email: account, lpwd: 'secret123' });
      expect(after.code).toBe(1004);
    });

    it('creates exactly the limit of 40 concurrent sign-ups from one address', async () => {
      server = await startServer(name, { env: { LIMIT_REGISTER_PER_IP: '10/3600' } });
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          server.call('POST', '/Login/upregister', { account: `burst_reg_${i}`, lpwd: 'secret123' }),
        ),
      );
      expect(tally(answers)).toEqual({ 1000: 10, 2007: 30 });
      const created = await server.app.ctx.store.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect(created.n).toBe(10n);
      const next = await server.call('POST', '/Login/upregister', {
        account: 'burst_reg_x',
        lpwd: 'secret123',
      });
      expect(next.code).toBe(2007);
    });

    it('evaluates exactly the limit of 12 concurrent old-password checks, then refuses the right one', async () => {
      server = await startServer(name, { env: { LIMIT_PASSWORD_CHECKS: '4/900' } });
      const db = server.app.ctx.store.db;

      // login password
      const owner = await registerAndLogin(server, 'pwcheck_login');
      const hashBefore = await db
        .selectFrom('users')
        .select('password_hash')
        .where('username', '=', owner.username)
        .executeTakeFirstOrThrow();
      const changes = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          server.call(
            'POST',
            '/user/sub_respwd',
            { oldpwd: `wrong-old-${i}`, newpwd: 'brandnew1', renewpwd: 'brandnew1' },
            { token: owner.token },
          ),
        ),
      );
      expect(tally(changes)).toEqual({ 2009: 4, 1004: 8 });
      const right = await server.call(
        'POST',
        '/user/sub_respwd',
        { oldpwd: owner.password, newpwd: 'brandnew1', renewpwd: 'brandnew1' },
        { token: owner.token },
      );
      expect(right.code).toBe(1004);
      expect(
        await db
          .selectFrom('users')
          .select('password_hash')
          .where('username', '=', owner.username)
          .executeTakeFirstOrThrow(),
      ).toEqual(hashBefore);
      expect((await server.call('GET', '/User/getUserInfo', {}, { token: owner.token })).code).toBe(1000);

      // withdrawal password
      const payer = await registerAndLogin(server, 'pwcheck_pay');
      const set = await server.call(
        'POST',
        '/User/sub_withdrawpwd',
        { paypassword: 'paysecret1', repaypassword: 'paysecret1' },
        { token: payer.token },
      );
      expect(set.code).toBe(1000);
      const payHashBefore = await db
        .selectFrom('users')
        .select('pay_password_hash')
        .where('username', '=', payer.username)
        .executeTakeFirstOrThrow();
      const payChanges = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          server.call(
            'POST',
            '/User/sub_withdrawpwd',
            { paypassword: 'paysecret2', repaypassword: 'paysecret2', oldpaypassword: `wrong-pay-${i}` },
            { token: payer.token },
          ),
        ),
      );
      expect(tally(payChanges)).toEqual({ 3001: 4, 1004: 8 });
      const payRight = await server.call(
        'POST',
        '/User/sub_withdrawpwd',
        { paypassword: 'paysecret2', repaypassword: 'paysecret2', oldpaypassword: 'paysecret1' },
        { token: payer.token },
      );
      expect(payRight.code).toBe(1004);
      expect(
        await db
          .selectFrom('users')
          .select('pay_password_hash')
          .where('username', '=', payer.username)
          .executeTakeFirstOrThrow(),
      ).toEqual(payHashBefore);
    });
  });

  describe.skipIf(skip)('failures from other addresses', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startServer(name, {
        env: { LIMIT_LOGIN_PER_ACCOUNT_IP: '5/900', LIMIT_LOGIN_PER_IP: '8/900' },
      });
    });
    afterAll(() => server?.close());

    it("does not lock the owner out because of a stranger's failures from another address", async () => {
      const owner = 'owner_c1';
      await server.call('POST', '/Login/upregister', { account: owner, lpwd: 'secret123' });
      const stranger = '127.0.0.2';
      const login = (email: string, lpwd: string) =>
        callFrom(server, stranger, 'POST', '/Login/loginsubmit', { email, lpwd });
      for (let i = 0; i < 5; i++) expect((await login(owner, `guess-${i}`)).code).toBe(2004);
      // this account from this address is used up, even with the right password
      expect((await login(owner, 'secret123')).code).toBe(1004);
      // and the address itself runs out on other accounts (8 attempts per address)
      for (let i = 0; i < 3; i++) expect((await login(`ghost_c${i}`, 'guess1')).code).toBe(2003);
      expect((await login('ghost_cx', 'guess1')).code).toBe(1004);

      const logs = await server.app.ctx.store.db
        .selectFrom('login_logs')
        .select(['ip', 'reason'])
        .where('account', '=', owner)
        .execute();
      expect(logs).toEqual(
        Array.from({ length: 5 }, () => ({ ip: stranger, reason: 'LOGIN_PASSWORD_WRONG' })),
      );

      const ownerLogin = await server.call('POST', '/Login/loginsubmit', { email: owner, lpwd: 'secret123' });
      expect(ownerLogin.code).toBe(1000);
      expect((await server.call('GET', '/User/getUserInfo', {}, { token: ownerLogin.data.token })).code).toBe(
        1000,
      );
      // and the stranger stays locked out
      expect((await login(owner, 'secret123')).code).toBe(1004);
    });
  });

  describe.skipIf(skip)('an account under attack from many addresses', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startServer(name, {
        env: { LIMIT_LOGIN_CAPTCHA_AFTER: '4' },
        build: { captchaText: () => 'k7mp' },
      });
    });
    afterAll(() => server?.close());

    it('asks for the graphic code after many failures of one account from many addresses', async () => {
      const owner = 'owner_d1';
      await server.call('POST', '/Login/upregister', { account: owner, lpwd: 'secret123' });
      const addresses = ['127.0.0.4', '127.0.0.5', '127.0.0.6'];
      // three failures (below LIMIT_LOGIN_CAPTCHA_AFTER=4) spread over three addresses
      for (const address of addresses) {
        expect(
          (await callFrom(server, address, 'POST', '/Login/loginsubmit', { email: owner, lpwd: 'guess' }))
            .code,
        ).toBe(2004);
      }
      // the fourth is still evaluated without a code
      expect(
        (await callFrom(server, '127.0.0.7', 'POST', '/Login/loginsubmit', { email: owner, lpwd: 'guess' }))
          .code,
      ).toBe(2004);
      expect((await server.call('GET', '/Login/config')).data.captcha).toBe(false);

      const ja = await server.call(
        'POST',
        '/Login/loginsubmit',
        { email: owner, lpwd: 'secret123' },
        { lang: 'ja-jp' },
      );
      expect(ja).toMatchObject({
        code: 2017,
        msg: serverMessages('ja-JP').errors.CAPTCHA_REQUIRED,
        data: null,
      });
      expect(ja.msg).toBe('このアカウントには画像認証コードが必要です。入力してください。');
      const en = await server.call(
        'POST',
        '/Login/loginsubmit',
        { email: owner, lpwd: 'secret123' },
        { lang: 'en-us' },
      );
      expect(en).toMatchObject({ code: 2017, msg: serverMessages('en-US').errors.CAPTCHA_REQUIRED });
      expect(en.msg).toBe('This account needs the graphic code: please enter it.');
      // a stranger's guesses need the code as well
      expect(
        (await callFrom(server, '127.0.0.8', 'POST', '/Login/loginsubmit', { email: owner, lpwd: 'guess' }))
          .code,
      ).toBe(2017);

      let captcha = await server.call('GET', '/Login/captcha');
      expect(captcha.code).toBe(1000);
      const wrongCode = await server.call('POST', '/Login/loginsubmit', {
        email: owner,
        lpwd: 'secret123',
        vcode: 'zzzz',
        key: captcha.data.key,
      });
      expect(wrongCode.code).toBe(2001);
      captcha = await server.call('GET', '/Login/captcha');
      const login = await server.call('POST', '/Login/loginsubmit', {
        email: owner,
        lpwd: 'secret123',
        vcode: 'K7MP',
        key: captcha.data.key,
      });
      expect(login.code).toBe(1000);
      expect((await server.call('GET', '/User/getUserInfo', {}, { token: login.data.token })).code).toBe(
        1000,
      );
    });
  });
});

/** Persistent stores per dialect: the SQL one beside the ledger, and Redis (shared). */
const RESTART_CASES: { dialect: DialectName; skip: boolean; kind: LimitStoreKind; survives: boolean }[] =
  DIALECTS.flatMap(({ name, skip }) => [
    { dialect: name, skip, kind: 'memory' as const, survives: false },
    { dialect: name, skip, kind: name, survives: true },
    { dialect: name, skip: skip || redisSkipReason !== null, kind: 'redis' as const, survives: true },
  ]);

describe.each(RESTART_CASES)(
  'lockouts across a restart on $dialect with the $kind limit store',
  ({ dialect, skip, kind, survives }) => {
    const address = randomLoopback();
    const account = `rs_${randomBytes(4).toString('hex')}`;
    const env = {
      RATE_LIMIT_STORE: kind,
      REDIS_URL,
      LIMIT_LOGIN_PER_ACCOUNT_IP: '3/600',
    };
    let first: TestServer | undefined;
    let second: TestServer | undefined;
    let kept = false;
    afterAll(async () => {
      if (second) await second.close();
      else if (first && !kept) await first.close();
      else if (first) {
        // the restart failed between the two servers: remove the store the first one kept
        if (first.store.databaseUrl) await dropPostgresDatabase(first.store.databaseUrl);
        fs.rmSync(first.store.dataDir, { recursive: true, force: true });
      }
      if (kind === 'redis' && !skip) {
        await deleteRedisKeys('rl_*', [address]);
        await deleteRedisKeys('rl_*', [account]);
      }
    });

    it.skipIf(skip)(survives ? 'keeps the lockout' : 'forgets the lockout (per process only)', async () => {
      first = await startServer(dialect, { env });
      expect(first.app.ctx.limitStore.kind).toBe(kind);
      expect(
        (await callFrom(first, address, 'POST', '/Login/upregister', { account, lpwd: 'secret123' })).code,
      ).toBe(1000);
      for (let i = 0; i < 3; i++) {
        expect(
          (await callFrom(first, address, 'POST', '/Login/loginsubmit', { email: account, lpwd: 'bad-pass' }))
            .code,
        ).toBe(2004);
      }
      expect(
        (await callFrom(first, address, 'POST', '/Login/loginsubmit', { email: account, lpwd: 'secret123' }))
          .code,
      ).toBe(1004);
      await first.close({ keepStore: true });
      kept = true;

      second = await startServer(dialect, { env, reuse: first.store });
      const afterRestart = await callFrom(second, address, 'POST', '/Login/loginsubmit', {
        email: account,
        lpwd: 'secret123',
      });
      expect(afterRestart.code).toBe(survives ? 1004 : 1000);
    });
  },
);

/** Opens a store of each kind on its own prefix and cleans up what it made. */
async function openContractStore(
  kind: LimitStoreKind,
  prefix: string,
  place: { dataDir: string; databaseUrl?: string },
): Promise<LimitStore> {
  return openLimitStore({
    kind,
    prefix,
    dataDir: place.dataDir,
    databaseUrl: place.databaseUrl,
    redisUrl: REDIS_URL,
  });
}

const pgSkip = DIALECTS.find((d) => d.name === 'postgres')?.skip ?? true;
const CONTRACT_CASES: { kind: LimitStoreKind; skip: boolean }[] = [
  { kind: 'memory', skip: false },
  { kind: 'sqlite', skip: false },
  { kind: 'postgres', skip: pgSkip },
  { kind: 'redis', skip: redisSkipReason !== null },
];

describe.each(CONTRACT_CASES)('the Limit port on the $kind store', ({ kind, skip }) => {
  describe.skipIf(skip)('contract', () => {
    const run = `t${process.pid}_${randomBytes(4).toString('hex')}`;
    const place: { dataDir: string; databaseUrl?: string } = { dataDir: '' };
    let drop: (() => Promise<void>) | undefined;
    const stores: LimitStore[] = [];
    const open = async (prefix: string) => {
      const store = await openContractStore(kind, `${run}_${prefix}`, place);
      stores.push(store);
      return store;
    };

    beforeAll(async () => {
      place.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-limits-'));
      if (kind === 'postgres') {
        const database = await createPostgresDatabase();
        place.databaseUrl = database.url;
        drop = database.drop;
      }
    });
    afterAll(async () => {
      await Promise.all(stores.map((store) => store.close()));
      await drop?.();
      if (kind === 'redis') await deleteRedisKeys(`${run}_*`);
      fs.rmSync(place.dataDir, { recursive: true, force: true });
    });

    it('grants exactly `points` of 50 concurrent takes', async () => {
      const store = await open('a');
      expect(store.kind).toBe(kind);
      const limit = store.limit('burst', { points: 10, durationSec: 60 });
      const taken = await Promise.all(Array.from({ length: 50 }, () => limit.take('k1')));
      expect(taken.filter(Boolean)).toHaveLength(10);
      expect(await limit.take('k1')).toBe(false);
      // another key of the same limit has its own count
      expect(await limit.take('k2')).toBe(true);
      expect(await limit.used('k2')).toBe(1);
    });

    it('gives a slot back, and clear starts the key afresh', async () => {
      const store = await open('b');
      const limit = store.limit('slots', { points: 3, durationSec: 60 });
      expect(await limit.used('k')).toBe(0);
      for (let i = 0; i < 3; i++) expect(await limit.take('k')).toBe(true);
      expect(await limit.used('k')).toBe(3);
      await limit.giveBack('k');
      expect(await limit.used('k')).toBe(2);
      expect(await limit.take('k')).toBe(true);
      expect(await limit.take('k')).toBe(false);
      await limit.clear('k');
      expect(await limit.used('k')).toBe(0);
      const again = await Promise.all(Array.from({ length: 8 }, () => limit.take('k')));
      expect(again.filter(Boolean)).toHaveLength(3);
      await limit.clear('k');
      expect(await limit.take('k')).toBe(true);
    });

    it.runIf(kind === 'postgres')('outlives a PostgreSQL backend that goes away while idle', async () => {
      const store = await open('d');
      const limit = store.limit('restart', { points: 2, durationSec: 60 });
      expect(await limit.take('k')).toBe(true);
      expect(await terminatePostgresBackends(place.databaseUrl as string)).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await limit.take('k')).toBe(true);
      expect(await limit.take('k')).toBe(false);
    });

    it('does not share counts between prefixes or between limit names', async () => {
      const one = await open('c1');
      const two = await open('c2');
      const rule = { points: 2, durationSec: 60 };
      const a = one.limit('shared_name', rule);
      const b = two.limit('shared_name', rule);
      const c = one.limit('other_name', rule);
      expect(await a.take('same')).toBe(true);
      expect(await a.take('same')).toBe(true);
      expect(await a.take('same')).toBe(false);
      expect(await b.used('same')).toBe(0);
      expect(await b.take('same')).toBe(true);
      expect(await c.used('same')).toBe(0);
      expect(await c.take('same')).toBe(true);
      await b.clear('same');
      expect(await a.take('same')).toBe(false);
    });
  });
});
