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
  const atoms = toAtoms(price);
  const value = {
    symbol,
    price: atoms,
    at,
    source: 'test',
    constituents: [{ source: 'test', price: atoms, at, used: true, reason: null }],
  };
  const markets = marketsOf(server);
  await markets.recordIndex([value]);
  markets.noteIndex(value);
}

/**
 * A new user and, unless `usdt` is false, 10,000 USDT. Unless `verified` is false its identity is
 * approved (a document of its own), which gives it the sign-up trial grant (demo mode).
 */
export async function newTrader(server: TestServer, options: { usdt?: boolean; verified?: boolean } = {}) {
  const user = await registerAndLogin(server);
  const userId = BigInt(user.uid);
  if (options.usdt !== false) {
    await server.app.ctx.store.db.transaction().execute((trx) => walletOf(server).creditDemo(trx, userId));
  }
  if (options.verified !== false)
    await approveIdentity(server, userId, `P${user.uid}X${randomUUID().slice(0, 8)}`);
  return { ...user, userId };
}

/**
 * Approves `userId`'s identity with document `documentNumber` through the identity service's
 * seed path (an approved verification, audited), running the approval hook: the trial grant.
 */
export async function approveIdentity(server: TestServer, userId: bigint, documentNumber: string) {
  const identity = server.app.ctx.identity;
  if (!identity) throw new Error('the identity module is not registered');
  await server.app.ctx.store.db.transaction().execute((trx) =>
    identity.approveDemoIdentity(trx, {
      userId,
      realName: `Holder ${userId}`,
      country: 'JP',
      mobile: `+8190${String(userId).padStart(8, '0')}`,
      documentNumber,
    }),
  );
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

/**
 * Places a contract and opens it: the next index tick (at `price`, 1 ms after acceptance) is
 * recorded and the settlement job run, as the feed and the job would. Answers the placement's
 * answer with the contract as it stands once open.
 */
export async function placeOpen(
  server: TestServer,
  token: string,
  fields: Record<string, string | number>,
  price: string,
  lang = 'en-us',
): Promise<ApiAnswer> {
  const answer = await place(server, token, fields, lang);
  if (answer.code !== 1000) return answer;
  await indexTick(server, answer.data.symbol, price, answer.data.created_at + 1);
  await deliveryOf(server).service.runSettlement();
  const detail = await server.call('GET', '/Contract/cbillinfo', { id: answer.data.id }, { token });
  expect(detail.data.status).not.toBe('opening');
  return { ...answer, data: detail.data };
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
