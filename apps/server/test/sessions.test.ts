import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../src/platform/crypto.ts';
import { DIALECTS, registerAndLogin, startServer, type TestServer } from './harness.ts';

const MINUTE = 60_000;
const IDLE_MINUTES = 6 * 60;
const MAX_DAYS = 1;
const IDLE_MS = IDLE_MINUTES * MINUTE;
const MAX_AGE_MS = MAX_DAYS * 24 * 60 * MINUTE;

describe.each(DIALECTS)('session lifetime on $name', ({ name, skip }) => {
  describe.skipIf(skip)(`idle ${IDLE_MINUTES} minutes, at most ${MAX_DAYS} day`, () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startServer(name, {
        env: { SESSION_IDLE_MINUTES: String(IDLE_MINUTES), SESSION_MAX_DAYS: String(MAX_DAYS) },
      });
    });
    afterAll(() => server?.close());

    const codeOf = async (token: string) =>
      (await server.call('GET', '/User/getUserInfo', {}, { token })).code;
    const sessionRow = (token: string) =>
      server.app.ctx.store.db
        .selectFrom('sessions')
        .select(['created_at', 'last_used_at', 'revoked_at'])
        .where('token_hash', '=', sha256(token))
        .executeTakeFirstOrThrow();

    it('ends a session unused for longer than the idle timeout, for good', async () => {
      const { token, username, password } = await registerAndLogin(server, 'idle_user');
      const loginAt = server.clock.now();

      await server.clock.advance(IDLE_MS - 1);
      expect(await codeOf(token)).toBe(1000);
      // that use counts: the idle time starts again from it
      await server.clock.advance(IDLE_MS - 1);
      expect(await codeOf(token)).toBe(1000);
      const usedAt = server.clock.now();
      expect((await sessionRow(token)).last_used_at).toBe(BigInt(usedAt));

      await server.clock.advance(IDLE_MS);
      const ended = await server.call('GET', '/User/getUserInfo', {}, { token, lang: 'en-us' });
      expect(ended).toMatchObject({ code: 100, msg: 'Your session has expired. Please log in again.' });
      expect(await sessionRow(token)).toEqual({
        created_at: BigInt(loginAt),
        last_used_at: BigInt(usedAt),
        revoked_at: BigInt(server.clock.now()),
      });

      // it stays ended: on every endpoint, also right after and after a new login elsewhere
      expect(await codeOf(token)).toBe(100);
      expect((await server.call('POST', '/user/online', {}, { token })).code).toBe(100);
      const again = await server.call('POST', '/Login/loginsubmit', { email: username, lpwd: password });
      expect(again.code).toBe(1000);
      await server.clock.advance(MINUTE);
      expect(await codeOf(token)).toBe(100);
      expect(await codeOf(again.data.token)).toBe(1000);
    });

    it('ends a session used regularly at the absolute lifetime after login', async () => {
      const { token } = await registerAndLogin(server, 'busy_user');
      const loginAt = server.clock.now();
      // a use every 5 hours keeps it from ever being idle
      const step = IDLE_MS - 60 * MINUTE;
      while (server.clock.now() + step < loginAt + MAX_AGE_MS) {
        await server.clock.advance(step);
        expect(await codeOf(token)).toBe(1000);
      }
      await server.clock.advance(loginAt + MAX_AGE_MS - 1 - server.clock.now());
      expect(server.clock.now() - loginAt).toBe(MAX_AGE_MS - 1);
      expect(await codeOf(token)).toBe(1000);

      await server.clock.advance(1);
      expect(await codeOf(token)).toBe(100);
      expect((await sessionRow(token)).revoked_at).toBe(BigInt(loginAt + MAX_AGE_MS));
      await server.clock.advance(MINUTE);
      expect(await codeOf(token)).toBe(100);
    });
  });
});
