import { randomUUID } from 'node:crypto';
import { toAtoms } from '@bourse/shared';
import { generate } from 'otplib';
import { expect } from 'vitest';
import type { DeliveryModule } from '../src/modules/delivery/module.ts';
import type { MarketsService } from '../src/modules/markets/service.ts';
import { type ApiAnswer, callAdmin, registerAndLogin, type TestServer } from './harness.ts';
import { walletOf } from './wallet-harness.ts';

export function deliveryOf(server: TestServer): DeliveryModule {
  const delivery = server.app.ctx.delivery;
  if (!delivery) throw new Error('the delivery module is not registered');
  return delivery;
}

function marketsOf(server: TestServer): MarketsService {
  const markets = server.app.ctx.markets;
  if (!markets) throw new Error('the markets module is not registered');
  return markets;
}

/** Records an index tick (as the feed would) and lets this node see it; `at` defaults to now. */
export async function indexTick(server: TestServer, symbol: string, price: string, at = server.clock.now()) {
  const value = { symbol, price: toAtoms(price), at, source: 'test' };
  const markets = marketsOf(server);
  await markets.recordIndex([value]);
  markets.noteIndex(value);
}

/** A new user with the sign-up trial grant (demo mode) and, unless `usdt` is false, 10,000 USDT. */
export async function newTrader(server: TestServer, options: { usdt?: boolean } = {}) {
  const user = await registerAndLogin(server);
  const userId = BigInt(user.uid);
  if (options.usdt !== false) {
    await server.app.ctx.store.db.transaction().execute((trx) => walletOf(server).creditDemo(trx, userId));
  }
  return { ...user, userId };
}

export function place(
  server: TestServer,
  token: string,
  fields: Record<string, string | number>,
  lang = 'en-us',
): Promise<ApiAnswer> {
  return server.call(
    'POST',
    '/Contract/place',
    {
      symbol: 'BTCUSDT',
      direction: 'up',
      period: 60,
      amount: '100',
      idempotency_key: randomUUID(),
      ...fields,
    },
    { token, lang },
  );
}

export async function page(server: TestServer, token: string) {
  const answer = await server.call('GET', '/Contract/index', {}, { token });
  expect(answer.code).toBe(1000);
  return answer.data;
}

/** Moves the clock, then runs the settlement job once (tests start servers without its schedule). */
export async function advance(server: TestServer, ms: number) {
  await server.clock.advance(ms);
  return deliveryOf(server).service.runSettlement();
}

/** Signs in the first owner (created from ADMIN_USER / ADMIN_PASSWORD), enrolling TOTP. */
/**
 * Signs a staff member in for the first time: TOTP enrolment and, when the account must change
 * its password, the new one. Answers the session token.
 */
/**
 * Creates one staff account per role (named `<role>1`) as the owner, has each choose its password
 * and enrol its TOTP code, and answers their session tokens by role.
 */
export async function signInStaffRoles<R extends string>(
  server: TestServer,
  ownerToken: string,
  roles: readonly R[],
): Promise<Record<R, string>> {
  const tokens = {} as Record<R, string>;
  for (const role of roles) {
    const created = await callAdmin(
      server,
      'POST',
      '/staff',
      { username: `${role}1`, password: 'initial-pass', role },
      ownerToken,
    );
    expect(created.code).toBe(1000);
    tokens[role] = await enrolStaff(server, `${role}1`, 'initial-pass', `${role}-pass-2`);
  }
  return tokens;
}

export async function enrolStaff(
  server: TestServer,
  username: string,
  password: string,
  newPassword?: string,
): Promise<string> {
  const step = await callAdmin(server, 'POST', '/login', { username, password });
  expect(step.data.step).toBe('enrol');
  const done = await callAdmin(server, 'POST', '/totp/enrol', {
    ticket: step.data.ticket,
    code: await generate({ secret: step.data.secret, epoch: Math.floor(server.clock.now() / 1000) }),
    newPassword: step.data.mustChangePassword ? newPassword : undefined,
  });
  expect(done.code).toBe(1000);
  return done.data.token as string;
}

export function signInOwner(server: TestServer, username: string, password: string): Promise<string> {
  return enrolStaff(server, username, password);
}
