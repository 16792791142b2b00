import { randomUUID } from 'node:crypto';
import { toAtoms } from '@bourse/shared';
import { expect } from 'vitest';
import type { LaunchpadService } from '../src/modules/launchpad/service.ts';
import type { AccountKind, Owner } from '../src/modules/ledger/service.ts';
import { enrolStaff, signInStaffRoles } from './delivery-harness.ts';
import {
  type ApiAnswer,
  acceptedTerms,
  callAdmin,
  type DialectName,
  startServer,
  type TestServer,
} from './harness.ts';
import { fund, pngImage } from './wallet-harness.ts';

export const DAY_MS = 86_400_000;

/** A server for the launchpad suites: demo data, an owner, sessions that outlive the test clock's days. */
export async function startLaunchpadServer(name: DialectName) {
  const server = await startServer(name, {
    env: {
      DEMO: 'on',
      ADMIN_USER: 'boss',
      ADMIN_PASSWORD: 'owner-pass-1',
      LIMIT_REGISTER_PER_IP: '100000/3600',
      LIMIT_PASSWORD_CHECKS: '100000/900',
      // why: the clock moves weeks forward (locks, pending rewards); sessions must outlive it.
      SESSION_IDLE_MINUTES: '1000000',
      SESSION_MAX_DAYS: '3650',
      STAFF_SESSION_IDLE_MINUTES: '1000000',
      STAFF_SESSION_MAX_HOURS: '100000',
    },
  });
  const owner = await enrolStaff(server, 'boss', 'owner-pass-1');
  const staff = await signInStaffRoles(server, owner, [
    'finance',
    'content',
    'compliance',
    'support',
  ] as const);
  return { server, staff: { owner, ...staff } };
}

export function launchpadOf(server: TestServer): LaunchpadService {
  const service = server.app.ctx.launchpad;
  if (!service) throw new Error('the launchpad module is not registered');
  return service;
}

export interface Terms {
  name?: string;
  coin: string;
  quote?: string;
  startAt?: number;
  endAt: number;
  totalIssue: string;
  price: string;
  lockDays?: number;
  perMin?: string;
  perMax?: string;
  individualLimit?: string;
  maxPurchases?: number;
  softCap?: string;
  mode: 'pro_rata' | 'fcfs';
  referralBudgetBp?: number;
}

/** Creates a project as content staff, has finance record the issuer's tokens, and publishes it. */
export async function openProject(
  server: TestServer,
  staff: { content: string; finance: string },
  terms: Terms,
): Promise<string> {
  const created = await callAdmin(
    server,
    'POST',
    '/launchpad/projects',
    {
      name: terms.name ?? `${terms.coin} launch`,
      coinName: `${terms.coin} token`,
      coinDecimals: 4,
      quote: 'USDT',
      startAt: server.clock.now(),
      lockDays: 30,
      perMin: '1',
      perMax: terms.totalIssue,
      individualLimit: terms.totalIssue,
      maxPurchases: 1,
      softCap: '0',
      ...terms,
    },
    staff.content,
  );
  expect(created.code, created.msg).toBe(1000);
  const id = created.data.id as string;
  expect(
    (await callAdmin(server, 'POST', `/launchpad/projects/${id}/inventory`, undefined, staff.finance)).code,
  ).toBe(1000);
  expect(
    (await callAdmin(server, 'POST', `/launchpad/projects/${id}/schedule`, undefined, staff.content)).code,
  ).toBe(1000);
  return id;
}

export function subscribe(
  server: TestServer,
  token: string,
  id: string,
  num: string,
  key: string = randomUUID(),
): Promise<ApiAnswer> {
  return server.call('POST', '/Issue/buy', { id, num, idempotency_key: key }, { token, lang: 'en-us' });
}

/** Verifies a user's identity the way a customer and compliance staff do (upload, submit, approve). */
export async function verifyUser(
  server: TestServer,
  user: { token: string; uid: number; username: string },
  complianceToken: string,
): Promise<void> {
  const upload = async (color: string) => {
    const form = new FormData();
    form.append('token', user.token);
    form.append('image', new Blob([new Uint8Array(await pngImage(color))], { type: 'image/png' }), 'id.png');
    const response = await fetch(`${server.url}/apiv/user/upauthimg`, { method: 'POST', body: form });
    const answer = (await response.json()) as ApiAnswer;
    expect(answer.code).toBe(1000);
    return answer.data.image as string;
  };
  const submitted = await server.call(
    'POST',
    '/user/upauthrz',
    {
      type: 'passport',
      realname: `Holder ${user.username}`,
      country: 'JP',
      mobile: `+8190${String(user.uid).padStart(8, '0')}`,
      idno: `TK${String(user.uid).padStart(8, '0')}`,
      front: await upload('#102030'),
      back: await upload('#405060'),
    },
    { token: user.token },
  );
  expect(submitted.code, submitted.msg).toBe(1000);
  const queue = await callAdmin(server, 'GET', '/identity', undefined, complianceToken);
  const mine = queue.data.list.find((row: { userId: number }) => row.userId === user.uid);
  const approved = await callAdmin(
    server,
    'POST',
    `/identity/${mine.id}/approve`,
    { idno: `TK${String(user.uid).padStart(8, '0')}`, country: 'JP' },
    complianceToken,
  );
  expect(approved.code).toBe(1000);
}

/** Registers a user, optionally invited by `code`; returns its session, uid and invitation code. */
export async function join(server: TestServer, username: string, invit?: string) {
  const registered = await server.call('POST', '/Login/upregister', {
    account: username,
    lpwd: 'secret123',
    ...(invit ? { invit } : {}),
    ...(await acceptedTerms(server)),
  });
  expect(registered.code, registered.msg).toBe(1000);
  const login = await server.call('POST', '/Login/loginsubmit', { email: username, lpwd: 'secret123' });
  const team = await server.call('GET', '/user/tgcode', {}, { token: login.data.token });
  return {
    username,
    token: login.data.token as string,
    uid: login.data.uid as number,
    userId: BigInt(login.data.uid),
    code: team.data.invite_code as string,
  };
}

export type Member = Awaited<ReturnType<typeof join>>;

/** A referral chain: each user invited by the one before; verified unless listed in `unverified`. */
export async function chain(
  server: TestServer,
  compliance: string,
  names: string[],
  unverified: string[] = [],
): Promise<Member[]> {
  const members: Member[] = [];
  for (const name of names) {
    const member = await join(server, name, members.at(-1)?.code);
    if (!unverified.includes(name)) await verifyUser(server, member, compliance);
    members.push(member);
  }
  return members;
}

export function fundUsdt(server: TestServer, user: { token: string }, amount: string) {
  return fund(server, user, 'USDT', 'TRC20', amount);
}

/** A ledger balance in atoms (users by id, or a system account). */
export function atoms(server: TestServer, owner: Owner, asset: string, kind: AccountKind = 'available') {
  const { ledger, store } = server.app.ctx;
  return ledger.balance(store.db, owner, asset, kind);
}

export const units = (value: string) => toAtoms(value);

/** Moves the test clock to `at` and runs the launchpad's job once. */
export async function runJobsAt(server: TestServer, at: number) {
  if (at > server.clock.now()) await server.clock.advance(at - server.clock.now());
  return launchpadOf(server).runJobs();
}
