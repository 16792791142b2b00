import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { propertyRuns, propertyTimeout } from '../../../packages/shared/test/property-runs.ts';
import { callAdmin, DIALECTS, type TestServer } from './harness.ts';
import {
  atoms,
  fundUsdt,
  join,
  type Member,
  openProject,
  runJobsAt,
  startLaunchpadServer,
  subscribe,
  units,
  verifyUser,
} from './launchpad-harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

describe.each(DIALECTS)(
  'launchpad under concurrency, random histories and staff on $name',
  ({ name, skip }) => {
    describe.skipIf(skip)('', () => {
      let server: TestServer;
      let staff: Awaited<ReturnType<typeof startLaunchpadServer>>['staff'];
      let serial = 0;
      const coin = () => {
        serial += 1;
        return `R${name === 'sqlite' ? 'S' : 'P'}${serial}`;
      };

      async function funded(username: string, usdt: string): Promise<Member> {
        const member = await join(server, `${username}_${name}`);
        await fundUsdt(server, member, usdt);
        return member;
      }

      beforeAll(async () => {
        ({ server, staff } = await startLaunchpadServer(name));
      }, 120_000);

      afterAll(async () => {
        await expectLedgerInvariants(server);
        await server?.close();
      });

      it('50 buyers of 100 tokens each race for the last 1,000: exactly 10 fill, never more than the supply', async () => {
        const id = await openProject(server, staff, {
          coin: coin(),
          mode: 'fcfs',
          endAt: server.clock.now() + HOUR_MS,
          totalIssue: '1000',
          price: '1',
        });
        const buyers: Member[] = [];
        for (let i = 0; i < 50; i++) buyers.push(await funded(`race${i}`, '100'));
        const answers = await Promise.all(buyers.map((b) => subscribe(server, b.token, id, '100')));
        const codes = answers.map((a) => a.code);
        expect(codes.filter((c) => c === 1000)).toHaveLength(10);
        expect(codes.filter((c) => c === 7607)).toHaveLength(40);
        const detail = (await server.call('GET', '/Issue/details', { id }, { token: buyers[0]!.token })).data
          .project;
        expect([detail.subscribed, detail.participants]).toEqual(['1000.00000000', 10]);
        expect(await atoms(server, { system: `lp_inventory:${id}` }, detail.coin)).toBe(0n);
        let paid = 0n;
        for (const b of buyers) paid += units('100') - (await atoms(server, { userId: b.userId }, 'USDT'));
        expect(paid).toBe(units('1000'));
      });

      it('one user’s purchase sent 50 times at once takes effect once', async () => {
        const id = await openProject(server, staff, {
          coin: coin(),
          mode: 'fcfs',
          endAt: server.clock.now() + HOUR_MS,
          totalIssue: '100000',
          price: '1',
        });
        const eager = await funded('eager', '100000');
        const answers = await Promise.all(
          Array.from({ length: 50 }, () => subscribe(server, eager.token, id, '500')),
        );
        expect(answers.filter((a) => a.code === 1000)).toHaveLength(1);
        expect(answers.filter((a) => a.code === 7608)).toHaveLength(49);
        expect(await atoms(server, { userId: eager.userId }, 'USDT')).toBe(units('99500'));
        // and one key sent 20 times at once answers one record
        const other = await openProject(server, staff, {
          coin: coin(),
          mode: 'pro_rata',
          endAt: server.clock.now() + HOUR_MS,
          totalIssue: '100000',
          price: '1',
          maxPurchases: 5,
        });
        const key = randomUUID();
        const same = await Promise.all(
          Array.from({ length: 20 }, () => subscribe(server, eager.token, other, '100', key)),
        );
        expect(new Set(same.map((a) => `${a.code}:${a.data?.id}`)).size).toBe(1);
        expect(await atoms(server, { userId: eager.userId }, 'USDT', 'frozen')).toBe(units('100'));
      });

      it(
        'random commitments, cancellations, distributions and releases keep every invariant',
        async () => {
          const users: Member[] = [];
          for (let i = 0; i < 4; i++) users.push(await funded(`prop${i}`, '1000000'));
          await fc.assert(
            fc.asyncProperty(
              fc.record({
                supply: fc.integer({ min: 1, max: 5000 }),
                price: fc.constantFrom('0.1', '1', '0.33333333', '7'),
                limit: fc.integer({ min: 1, max: 5000 }),
                mode: fc.constantFrom('pro_rata' as const, 'fcfs' as const),
                softCap: fc.constantFrom('0', '100', '5000'),
                orders: fc.array(
                  fc.record({ user: fc.nat({ max: 3 }), quantity: fc.integer({ min: 1, max: 3000 }) }),
                  {
                    maxLength: 8,
                  },
                ),
                cancel: fc.boolean(),
              }),
              async (c) => {
                const limit = Math.max(c.limit, 1);
                const id = await openProject(server, staff, {
                  coin: coin(),
                  mode: c.mode,
                  endAt: server.clock.now() + HOUR_MS,
                  totalIssue: String(c.supply),
                  price: c.price,
                  individualLimit: String(limit),
                  perMax: String(c.supply),
                  maxPurchases: 3,
                  softCap: c.softCap,
                  lockDays: 1,
                });
                const before = await Promise.all(
                  users.map((u) => atoms(server, { userId: u.userId }, 'USDT')),
                );
                for (const order of c.orders) {
                  const answer = await subscribe(
                    server,
                    users[order.user]!.token,
                    id,
                    String(order.quantity),
                  );
                  expect([1000, 7605, 7606, 7607, 7608]).toContain(answer.code);
                }
                if (c.cancel) {
                  expect(
                    (
                      await callAdmin(
                        server,
                        'POST',
                        `/launchpad/projects/${id}/cancel`,
                        { reason: 'property' },
                        staff.content,
                      )
                    ).code,
                  ).toBe(1000);
                }
                await runJobsAt(server, server.clock.now() + HOUR_MS);
                await runJobsAt(server, server.clock.now() + DAY_MS);
                const records = (
                  await callAdmin(
                    server,
                    'GET',
                    `/launchpad/projects/${id}/records`,
                    undefined,
                    staff.finance,
                  )
                ).data.list as {
                  user_id: string;
                  committed: string;
                  quantity: string;
                  paid: string;
                  refunded: string;
                  status: string;
                }[];
                let allocated = 0n;
                const perUser = new Map<string, bigint>();
                for (const r of records) {
                  if (r.status === 'refunded') {
                    expect(units(r.refunded)).toBe(units(r.committed));
                    continue;
                  }
                  expect(units(r.paid) + units(r.refunded)).toBe(units(r.committed));
                  allocated += units(r.quantity);
                  perUser.set(r.user_id, (perUser.get(r.user_id) ?? 0n) + units(r.quantity));
                }
                expect(allocated <= units(String(c.supply))).toBe(true);
                for (const q of perUser.values()) expect(q <= units(String(limit))).toBe(true);
                // every user's money is back or became tokens: nothing is left frozen or locked
                for (const [i, u] of users.entries()) {
                  expect(await atoms(server, { userId: u.userId }, 'USDT', 'frozen')).toBe(0n);
                  const paid = records
                    .filter((r) => r.user_id === String(u.userId) && r.status !== 'refunded')
                    .reduce((s, r) => s + units(r.paid), 0n);
                  expect(await atoms(server, { userId: u.userId }, 'USDT')).toBe(before[i]! - paid);
                }
                const check = await server.app.ctx.ledger.checkInvariants();
                expect(check.problems).toEqual([]);
              },
            ),
            { numRuns: propertyRuns(name === 'sqlite' ? 12 : 6) },
          );
        },
        propertyTimeout(240_000),
      );

      it('no staff role can set progress, sold amounts or allocations', async () => {
        const id = await openProject(server, staff, {
          coin: coin(),
          mode: 'pro_rata',
          endAt: server.clock.now() + HOUR_MS,
          totalIssue: '1000',
          price: '1',
        });
        const holder = await funded('staff_probe', '1000');
        await verifyUser(server, holder, staff.compliance);
        expect((await subscribe(server, holder.token, id, '400')).code).toBe(1000);
        const snapshot = async () => {
          const detail = (await server.call('GET', '/Issue/details', { id }, { token: holder.token })).data;
          return {
            project: { ...detail.project, server_time: 0 },
            mine: detail.mine,
            log: (await server.call('GET', '/Issue/issuelog', {}, { token: holder.token })).data,
          };
        };
        const before = await snapshot();
        const forged = {
          name: 'Forged',
          coin: before.project.coin,
          coinName: 'x',
          coinDecimals: 4,
          quote: 'USDT',
          startAt: server.clock.now(),
          endAt: server.clock.now() + HOUR_MS,
          totalIssue: '1000',
          price: '1',
          lockDays: 30,
          perMin: '1',
          perMax: '1000',
          individualLimit: '1000',
          progress: '100',
          sold: '1000',
          subscribed: '1000',
          quantity: '1000',
          allocation: '1000',
        };
        for (const role of ['owner', 'finance', 'content', 'compliance', 'support'] as const) {
          const token = staff[role];
          const update = await callAdmin(server, 'POST', `/launchpad/projects/${id}`, forged, token);
          expect([7610, 6002]).toContain(update.code);
          expect([1003, 7610, 6002]).toContain(
            (await callAdmin(server, 'POST', `/launchpad/projects/${id}/inventory`, undefined, token)).code,
          );
          expect([7610, 6002]).toContain(
            (await callAdmin(server, 'POST', `/launchpad/projects/${id}/schedule`, undefined, token)).code,
          );
        }
        expect(await snapshot()).toEqual(before);
        // and the API itself has no field that would: every staff launchpad write is listed here
        const document = server.app.swagger() as {
          paths: Record<string, Record<string, { requestBody?: unknown }>>;
        };
        const writes = Object.entries(document.paths)
          .filter(([path]) => /\/admin-api\/(launchpad|agents)/.test(path))
          .flatMap(([path, ops]) =>
            Object.entries(ops)
              .filter(([method]) => method !== 'get')
              .map(([method, op]) => ({
                route: `${method.toUpperCase()} ${path}`,
                body: JSON.stringify(op.requestBody ?? {}),
              })),
          );
        expect(writes.map((w) => w.route).sort()).toEqual([
          'POST /admin-api/agents/{id}/decision',
          'POST /admin-api/launchpad/projects',
          'POST /admin-api/launchpad/projects/{id}',
          'POST /admin-api/launchpad/projects/{id}/cancel',
          'POST /admin-api/launchpad/projects/{id}/disabled',
          'POST /admin-api/launchpad/projects/{id}/inventory',
          'POST /admin-api/launchpad/projects/{id}/schedule',
          'POST /admin-api/launchpad/referral',
          'POST /admin-api/launchpad/rewards/{id}/void',
        ]);
        for (const write of writes)
          expect(write.body).not.toMatch(/"(progress|sold|subscribed|quantity|allocation|paid)"/);
      });

      it('agents: apply, review, suspend; others see "the account is not an agent"; the centre masks members', async () => {
        const agent = await join(server, `agent_${name}`);
        const member = await join(server, `member_${name}`, agent.code);
        const outsider = await join(server, `outsider_${name}`);
        const centre = (m: Member) =>
          server.call('GET', '/Agent/index', {}, { token: m.token, lang: 'en-us' });
        expect((await centre(outsider)).msg).toBe('The account is not an agent.');
        expect((await server.call('POST', '/Agent/apply', {}, { token: agent.token })).code).toBe(1000);
        expect((await server.call('POST', '/Agent/apply', {}, { token: agent.token })).code).toBe(7704);
        expect((await centre(agent)).msg).toBe('Agent application under review.');
        const list = await callAdmin(server, 'GET', '/agents', { status: 'pending' }, staff.compliance);
        expect(list.data.list.map((a: { username: string }) => a.username)).toContain(agent.username);
        expect(
          (
            await callAdmin(
              server,
              'POST',
              `/agents/${agent.uid}/decision`,
              { decision: 'approve' },
              staff.content,
            )
          ).code,
        ).toBe(6002);
        expect(
          (
            await callAdmin(
              server,
              'POST',
              `/agents/${agent.uid}/decision`,
              { decision: 'approve', note: 'known partner' },
              staff.compliance,
            )
          ).code,
        ).toBe(1000);
        const open = await centre(agent);
        expect(open.data.counts).toEqual([1, 0, 0]);
        expect(open.data.members).toEqual([
          {
            name: `${member.username.slice(0, 2)}***${member.username.slice(-1)}`,
            joined_at: expect.any(Number),
            generation: 1,
            verified: false,
            total_paid: '0.00000000',
          },
        ]);
        expect(open.data.daily).toHaveLength(30);
        const csv = await fetch(`${server.url}/apiv/Agent/export?token=${agent.token}`);
        expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
        expect((await csv.text()).split('\r\n')[0]).toBe(
          'id,created_at,project,buyer,generation,base,rate_bp,amount,capped,asset,status,reason',
        );
        expect(
          (
            await callAdmin(
              server,
              'POST',
              `/agents/${agent.uid}/decision`,
              { decision: 'suspend', note: 'complaint' },
              staff.compliance,
            )
          ).code,
        ).toBe(1000);
        expect((await centre(agent)).msg).toBe('Agent account suspended.');
        const audit = await callAdmin(server, 'GET', '/audit', { action: 'agent.suspend' }, staff.owner);
        expect(audit.code).toBe(1000);
        expect(JSON.stringify(audit.data)).toContain(`user:${agent.uid}`);
      });
    });
  },
);
