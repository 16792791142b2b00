import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { resolveSecretKey, SecretBox } from '../src/platform/secret-box.ts';
import { DIALECTS, startServer, type TestServer } from './harness.ts';

interface Answer {
  code: number;
  msg: string;
  data: any;
}

async function admin(server: TestServer, apiPath: string, body: Record<string, unknown>): Promise<Answer> {
  const response = await fetch(`${server.url}/admin-api${apiPath}`, {
    method: 'POST',
    headers: { Lang: 'en-us', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await response.json()) as Answer;
}

const codeAt = (server: TestServer, secret: string) =>
  generate({ secret, epoch: Math.floor(server.clock.now() / 1000) });

async function storedSecret(server: TestServer): Promise<string | null> {
  const row = await server.app.ctx.store.db
    .selectFrom('staff')
    .select('totp_secret')
    .where('username_key', '=', 'boss')
    .executeTakeFirstOrThrow();
  return row.totp_secret;
}

/** A later login: password, then the current code (a new 30-second step each time). */
async function signInAgain(server: TestServer, secret: string): Promise<Answer> {
  const step = await admin(server, '/login', { username: 'boss', password: 'owner-pass-1' });
  expect(step.data.step).toBe('totp');
  await server.clock.advance(30_000);
  return admin(server, '/totp/verify', { ticket: step.data.ticket, code: await codeAt(server, secret) });
}

const ENV = { ADMIN_USER: 'boss', ADMIN_PASSWORD: 'owner-pass-1' };

describe.each(DIALECTS)('staff TOTP secrets at rest on $name', ({ name, skip }) => {
  describe.skipIf(skip)('sealed with STAFF_SECRET_KEY or the key file beside the store', () => {
    let server: TestServer;
    let secret = '';

    beforeAll(async () => {
      server = await startServer(name, { env: ENV });
    });
    afterAll(async () => {
      await server?.close();
    });

    it('stores the enrolled secret encrypted, in a key file of mode 0600, and still signs in', async () => {
      const step = await admin(server, '/login', { username: 'boss', password: 'owner-pass-1' });
      expect(step.data.step).toBe('enrol');
      secret = step.data.secret;
      expect(secret).toMatch(/^[A-Z2-7]{16,}$/);

      const stored = (await storedSecret(server)) as string;
      expect(stored.startsWith('v1:')).toBe(true);
      expect(stored).not.toContain(secret);
      const keyFile = path.join(server.store.dataDir, 'staff-secret.key');
      expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
      expect(new SecretBox(Buffer.from(fs.readFileSync(keyFile, 'utf8').trim(), 'base64')).open(stored)).toBe(
        secret,
      );

      const enrolled = await admin(server, '/totp/enrol', {
        ticket: step.data.ticket,
        code: await codeAt(server, secret),
      });
      expect(enrolled.code).toBe(1000);
      expect((await signInAgain(server, secret)).code).toBe(1000);
    });

    it('seals a secret still in plain text at the next start, and the code still works', async () => {
      await server.app.ctx.store.db.updateTable('staff').set({ totp_secret: secret }).execute();
      const store = server.store;
      await server.close({ keepStore: true });
      server = await startServer(name, { env: ENV, reuse: store });
      // why: the new server's clock starts where the first one did; codes already used stay used.
      await server.clock.advance(10 * 60_000);

      const stored = (await storedSecret(server)) as string;
      expect(stored.startsWith('v1:')).toBe(true);
      expect(stored).not.toContain(secret);
      expect((await signInAgain(server, secret)).code).toBe(1000);
    });

    it('fails closed under another key: the right code is refused', async () => {
      const store = server.store;
      await server.close({ keepStore: true });
      server = await startServer(name, {
        env: { ...ENV, STAFF_SECRET_KEY: randomBytes(32).toString('hex') },
        reuse: store,
      });
      await server.clock.advance(20 * 60_000);
      const answer = await signInAgain(server, secret);
      expect(answer.code).toBe(6001);
      expect(await storedSecret(server)).toMatch(/^v1:/);
    });

    it('describes the back office’s answers in the OpenAPI document', async () => {
      const doc = (await (await fetch(`${server.url}/docs/json`)).json()) as {
        paths: Record<string, Record<string, { responses: Record<string, any> }>>;
      };
      const answer = (route: string, method: string) =>
        doc.paths[route]?.[method]?.responses['200']?.content?.['application/json']?.schema;
      const dashboard = answer('/admin-api/dashboard', 'get');
      expect(
        Object.keys(dashboard.properties.data.anyOf?.[0]?.properties ?? dashboard.properties.data.properties),
      ).toEqual(expect.arrayContaining(['usersTotal', 'pendingDeposits', 'ledger']));
      expect(JSON.stringify(answer('/admin-api/deposits', 'get'))).toContain('credited_amount');
      expect(JSON.stringify(answer('/admin-api/login', 'post'))).toContain('otpauthUrl');
    });
  });
});

describe('the staff secret key', () => {
  it('reads 32 bytes in hex or base64 from STAFF_SECRET_KEY and refuses anything else', () => {
    const key = randomBytes(32);
    expect(loadConfig({ STAFF_SECRET_KEY: key.toString('hex') }).staffSecretKey).toEqual(key);
    expect(loadConfig({ STAFF_SECRET_KEY: key.toString('base64') }).staffSecretKey).toEqual(key);
    expect(loadConfig({}).staffSecretKey).toBeUndefined();
    expect(() => loadConfig({ STAFF_SECRET_KEY: 'too-short' })).toThrow(/STAFF_SECRET_KEY/);
    expect(() => loadConfig({ STAFF_SECRET_KEY: randomBytes(16).toString('hex') })).toThrow(
      /STAFF_SECRET_KEY/,
    );
  });

  it('refuses a start that may not create the key file and has none, naming the setting', () => {
    const file = path.join(fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'bourse-key-')), 'k.key');
    const options = { setting: undefined, settingName: 'STAFF_SECRET_KEY', file };
    expect(() => resolveSecretKey({ ...options, mayCreate: false })).toThrow(/STAFF_SECRET_KEY is not set/);
    const created = resolveSecretKey({ ...options, mayCreate: true });
    expect(resolveSecretKey({ ...options, mayCreate: false })).toEqual(created);
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });

  it('opens only what it sealed, with its own key, unchanged', () => {
    const box = new SecretBox(randomBytes(32));
    const sealed = box.seal('JBSWY3DPEHPK3PXP');
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.seal('JBSWY3DPEHPK3PXP')).not.toBe(sealed);
    expect(box.open(sealed)).toBe('JBSWY3DPEHPK3PXP');
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow();
    const [prefix, iv, tag, data] = sealed.split(':');
    const flipped = Buffer.from(data as string, 'base64');
    flipped[0] = (flipped[0] as number) ^ 1;
    expect(() => box.open([prefix, iv, tag, flipped.toString('base64')].join(':'))).toThrow();
    expect(() => box.open('JBSWY3DPEHPK3PXP')).toThrow();
  });
});
