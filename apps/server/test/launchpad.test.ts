import { randomUUID } from 'node:crypto';
import { fromAtoms } from '@bourse/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAdmin, DIALECTS, type TestServer } from './harness.ts';
import { expectHistoryPaging, newestFirst } from './history-harness.ts';
import {
  atoms,
  chain,
  DAY_MS,
  fundUsdt,
  join,
  launchpadOf,
  type Member,
  openProject,
  runJobsAt,
  startLaunchpadServer,
  subscribe,
  units,
  verifyUser,
} from './launchpad-harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';
import { saveAddress } from './wallet-harness.ts';

const HOUR_MS = 3_600_000;
/** products §1 scenarios: end 2026-12-01T12:00Z, lock 30 days. */
const SCENARIO_END = Date.UTC(2026, 11, 1, 12, 0, 0);
const SCENARIO_RELEASE = Date.UTC(2026, 11, 31, 12, 0, 0);
const SCENARIO = {
  totalIssue: '1000000',
  price: '0.1',
  individualLimit: '300000',
  lockDays: 30,
  endAt: SCENARIO_END,
};

describe.each(DIALECTS)('launchpad and referral rewards on $name', ({ name, skip }) => {
  describe.skipIf(skip)('', () => {
    let server: TestServer;
    let staff: Awaited<ReturnType<typeof startLaunchpadServer>>['staff'];
    let serial = 0;
    const coin = () => {
      serial += 1;
      return `T${name === 'sqlite' ? 'S' : 'P'}${serial}`;
    };
    const issuer = (id: string) => ({ system: `lp_issuer:${id}` as const });
    const user = (m: { userId: bigint }) => ({ userId: m.userId });

    async function buyer(username: string, usdt: string, verified = true): Promise<Member> {
      const member = await join(server, `${username}_${name}`);
      if (verified) await verifyUser(server, member, staff.compliance);
      await fundUsdt(server, member, usdt);
      return member;
    }

    async function rewardsOf(projectId: string) {
      const answer = await callAdmin(
        server,
        'GET',
        '/launchpad/rewards',
        { project: projectId },
        staff.finance,
      );
      expect(answer.code).toBe(1000);
      return answer.data.list as {
        beneficiary_id: string;
        generation: number;
        amount: string;
        capped: string;
        status: string;
        reason: string;
      }[];
    }

    beforeAll(async () => {
      ({ server, staff } = await startLaunchpadServer(name));
      // generations 2 and 3: the owner only, and only with the legal warning acknowledged
      const config = {
        ratesBp: [300, 100, 50],
        generations: 3,
        capPerProject: '1000',
        capPerMonth: '5000',
        budgetBp: 500,
        blockedCountries: [],
      };
      // demo mode turned generations 2-3 on (acknowledged as the demo); back to one generation first
      expect(
        (await callAdmin(server, 'GET', '/launchpad/referral', undefined, staff.finance)).data,
      ).toMatchObject({
        generations: 3,
        acknowledgedBy: 'system:demo',
      });
      expect(
        (await callAdmin(server, 'POST', '/launchpad/referral', { ...config, generations: 1 }, staff.owner))
          .code,
      ).toBe(1000);
      expect((await callAdmin(server, 'POST', '/launchpad/referral', config, staff.finance)).code).toBe(6002);
      const unacknowledged = await callAdmin(server, 'POST', '/launchpad/referral', config, staff.owner);
      expect([unacknowledged.code, unacknowledged.msg]).toEqual([
        7612,
        'Generations 2 and 3 need the owner’s acknowledgement of the legal warning.',
      ]);
      const saved = await callAdmin(
        server,
        'POST',
        '/launchpad/referral',
        { ...config, acknowledge: true },
        staff.owner,
      );
      expect(saved.data).toMatchObject({ generations: 3, acknowledgedBy: 'staff:1' });
    }, 120_000);

    afterAll(async () => {
      await expectLedgerInvariants(server);
      await server?.close();
    });

    it('demo mode shows every state at once: closed with allocations released, open pro-rata, upcoming', async () => {
      const login = await server.call('POST', '/Login/loginsubmit', { email: 'demo', lpwd: 'demo1234' });
      const token = login.data.token as string;
      const list = (await server.call('GET', '/Issue/index', {}, { token, lang: 'en-us' })).data.list as {
        coin: string;
        state: string;
        mode: string;
        progress: string;
        description: string;
      }[];
      const demo = Object.fromEntries(
        list.filter((p) => ['NOVA', 'ORBT', 'LUMA'].includes(p.coin)).map((p) => [p.coin, p]),
      );
      expect(demo.NOVA).toMatchObject({ state: 'closed', mode: 'pro_rata', progress: '100.00' });
      expect(demo.ORBT).toMatchObject({ state: 'open', mode: 'pro_rata', progress: '20.00' });
      expect(demo.LUMA).toMatchObject({ state: 'not_started', mode: 'fcfs', progress: '0.00' });
      expect(demo.LUMA?.description).toMatch(/^Lumen Pay is a first-come/);
      // two demo subscribers asked 7,500 NOVA each (1,500 USDT at 0.2) of 10,000: 5,000 each, 500 USDT back
      const nova = list.find((p) => p.coin === 'NOVA') as unknown as { id: string };
      const records = await callAdmin(
        server,
        'GET',
        `/launchpad/projects/${nova.id}/records`,
        undefined,
        staff.finance,
      );
      expect(records.data.list).toHaveLength(2);
      for (const record of records.data.list)
        expect(record).toMatchObject({
          name: 'Nova Network',
          status: 'thawed',
          committed: '1500.00000000',
          quantity: '5000.00000000',
          paid: '1000.00000000',
          refunded: '500.00000000',
        });
      // the demo users' own money is untouched
      expect((await server.call('GET', '/Issue/issuelog', {}, { token })).data.list).toEqual([]);
    });

    it('opens a project only when its inventory holds the total issue, and no staff write sets progress', async () => {
      const symbol = coin();
      const created = await callAdmin(
        server,
        'POST',
        '/launchpad/projects',
        {
          name: 'Short',
          coin: symbol,
          coinName: 'Short',
          coinDecimals: 4,
          quote: 'USDT',
          startAt: server.clock.now(),
          endAt: server.clock.now() + HOUR_MS,
          totalIssue: '1000',
          price: '1',
          lockDays: 1,
          perMin: '1',
          perMax: '1000',
          individualLimit: '1000',
          mode: 'fcfs',
        },
        staff.content,
      );
      const id = created.data.id as string;
      const early = await callAdmin(
        server,
        'POST',
        `/launchpad/projects/${id}/schedule`,
        undefined,
        staff.content,
      );
      expect(early.code).toBe(7609);
      expect(
        (await callAdmin(server, 'POST', `/launchpad/projects/${id}/inventory`, undefined, staff.support))
          .code,
      ).toBe(6002);
      expect(
        (await callAdmin(server, 'POST', `/launchpad/projects/${id}/inventory`, undefined, staff.finance))
          .code,
      ).toBe(1000);
      // the issuer's tokens arrive once
      expect(
        (await callAdmin(server, 'POST', `/launchpad/projects/${id}/inventory`, undefined, staff.finance))
          .code,
      ).toBe(1003);
      expect(await atoms(server, { system: `lp_inventory:${id}` }, symbol)).toBe(units('1000'));
      expect(await atoms(server, issuer(id), symbol)).toBe(-units('1000'));
      expect(
        (await callAdmin(server, 'POST', `/launchpad/projects/${id}/schedule`, undefined, staff.content))
          .code,
      ).toBe(1000);
    });

    it('L1: first come, first served: 20,000 TKN for 2,000 USDT, locked until end + 30 days', async () => {
      const id = await openProject(server, staff, { ...SCENARIO, coin: coin(), mode: 'fcfs' });
      const alice = await buyer('l1_alice', '5000');
      const bought = await subscribe(server, alice.token, id, '20000', 'l1-first-key');
      expect([bought.code, bought.msg]).toEqual([1000, 'Subscription recorded.']);
      expect(bought.data).toMatchObject({
        quantity: '20000.00000000',
        paid: '2000.00000000',
        committed: '2000.00000000',
        status: 'frozen',
        stage: 'locked',
        lock_days: 30,
        release_at: SCENARIO_RELEASE,
      });
      const project = (await server.call('GET', '/Issue/details', { id }, { token: alice.token })).data
        .project;
      expect(await atoms(server, user(alice), 'USDT')).toBe(units('3000'));
      expect(await atoms(server, user(alice), project.coin, 'locked')).toBe(units('20000'));
      expect(await atoms(server, { system: `lp_escrow:${id}` }, 'USDT')).toBe(units('2000'));
      expect(project).toMatchObject({
        subscribed: '20000.00000000',
        progress: '2.00',
        participants: 1,
        state: 'open',
      });
      // the same key answers the first record again; a second purchase is "no repeated purchase"
      const again = await subscribe(server, alice.token, id, '20000', 'l1-first-key');
      expect([again.code, again.data.id]).toEqual([1000, bought.data.id]);
      const second = await subscribe(server, alice.token, id, '20000');
      expect([second.code, second.msg]).toEqual([7608, 'Purchase limit reached: no repeated purchase.']);
      expect(await atoms(server, user(alice), 'USDT')).toBe(units('3000'));
    });

    it('L2: 5,000 left: a request for 6,000 is refused and posts nothing; 5,000 fills', async () => {
      const id = await openProject(server, staff, { ...SCENARIO, coin: coin(), mode: 'fcfs' });
      for (const [i, quantity] of ['300000', '300000', '300000', '95000'].entries()) {
        const early = await buyer(`l2_early${i}`, '30000');
        expect((await subscribe(server, early.token, id, quantity)).code).toBe(1000);
      }
      const late = await buyer('l2_late', '1000');
      const refused = await subscribe(server, late.token, id, '6000');
      expect([refused.code, refused.msg]).toEqual([7607, 'Exceeds total issue: 5000.00000000 left.']);
      expect(await atoms(server, user(late), 'USDT')).toBe(units('1000'));
      const filled = await subscribe(server, late.token, id, '5000');
      expect(filled.data).toMatchObject({ quantity: '5000.00000000', paid: '500.00000000' });
      expect(await atoms(server, user(late), 'USDT')).toBe(units('500'));
      const project = (await server.call('GET', '/Issue/details', { id }, { token: late.token })).data
        .project;
      expect([project.subscribed, project.progress]).toEqual(['1000000.00000000', '100.00']);
      const soldOut = await buyer('l2_after', '1000');
      expect((await subscribe(server, soldOut.token, id, '1')).code).toBe(7607);
    });

    it('L3: pro-rata 60,000 / 30,000 / 10,000 / 100,000 USDT allocates 300k / 300k / 100k / 300k with exact refunds', async () => {
      const id = await openProject(server, staff, { ...SCENARIO, coin: coin(), mode: 'pro_rata' });
      const a = await buyer('l3_a', '60000');
      const b = await buyer('l3_b', '30000');
      const c = await buyer('l3_c', '10000');
      const d = await buyer('l3_d', '100000');
      for (const [member, quantity] of [
        [a, '600000'],
        [b, '300000'],
        [c, '100000'],
        [d, '1000000'],
      ] as const) {
        const committed = await subscribe(server, member.token, id, quantity);
        expect(committed.data).toMatchObject({
          stage: 'committed',
          status: 'frozen',
          quantity: '0.00000000',
        });
      }
      expect(await atoms(server, user(d), 'USDT', 'frozen')).toBe(units('100000'));
      const detail = (await server.call('GET', '/Issue/details', { id, num: '1000' }, { token: a.token }))
        .data;
      expect(detail.project).toMatchObject({
        subscribed: '2000000.00000000',
        progress: '200.00',
        raised: '200000.00000000',
      });
      expect(detail.quote).toMatchObject({ cost: '100.00000000', oversubscribed: true });

      await runJobsAt(server, SCENARIO_END);
      const coinOf = detail.project.coin as string;
      const expected: [Member, string, string, string][] = [
        [a, '300000', '30000', '30000'],
        [b, '300000', '30000', '0'],
        [c, '100000', '10000', '0'],
        [d, '300000', '30000', '70000'],
      ];
      for (const [member, quantity, paid, refund] of expected) {
        expect(await atoms(server, user(member), coinOf, 'locked')).toBe(units(quantity));
        expect(await atoms(server, user(member), 'USDT', 'frozen')).toBe(0n);
        expect(await atoms(server, user(member), 'USDT')).toBe(units(refund));
        const log = (await server.call('GET', '/Issue/issuelog', {}, { token: member.token })).data.list[0];
        expect(log).toMatchObject({
          quantity: `${quantity}.00000000`,
          paid: `${paid}.00000000`,
          refunded: `${refund}.00000000`,
        });
      }
      // raise 100,000: all of it to the issuer (no referrer here, the budget returns); Σq = S
      expect(await atoms(server, issuer(id), 'USDT')).toBe(units('100000'));
      expect(await atoms(server, issuer(id), coinOf)).toBe(-units('1000000'));
      expect(await atoms(server, { system: `lp_inventory:${id}` }, coinOf)).toBe(0n);
      const closed = (await server.call('GET', '/Issue/details', { id }, { token: a.token })).data.project;
      expect([closed.state, closed.subscribed, closed.progress]).toEqual([
        'closed',
        '1000000.00000000',
        '100.00',
      ]);
      expect((await subscribe(server, a.token, id, '10')).msg).toBe(
        'Subscription closed: no subscription project is open.',
      );
    });

    it('L4: 40,000 committed gets full demand and 600,000 TKN go back to the issuer; with a 50,000 soft cap all is refunded', async () => {
      const end = server.clock.now() + HOUR_MS;
      const plain = await openProject(server, staff, {
        ...SCENARIO,
        endAt: end,
        coin: coin(),
        mode: 'pro_rata',
      });
      const capped = await openProject(server, staff, {
        ...SCENARIO,
        endAt: end,
        coin: coin(),
        mode: 'pro_rata',
        softCap: '50000',
        maxPurchases: 1,
      });
      const x = await buyer('l4_x', '80000');
      expect((await subscribe(server, x.token, plain, '400000')).code).toBe(1000);
      expect((await subscribe(server, x.token, capped, '400000')).code).toBe(1000);
      expect(await atoms(server, user(x), 'USDT')).toBe(0n);
      await runJobsAt(server, end);
      const plainCoin = (await server.call('GET', '/Issue/details', { id: plain }, { token: x.token })).data
        .project.coin;
      const cappedView = (await server.call('GET', '/Issue/details', { id: capped }, { token: x.token })).data
        .project;
      expect(await atoms(server, user(x), plainCoin, 'locked')).toBe(units('300000'));
      expect(await atoms(server, issuer(plain), plainCoin)).toBe(-units('1000000') + units('700000'));
      // 300,000 of 400,000 asked (the individual limit); 10,000 refunded from the plain one, all 40,000 from the other
      expect(await atoms(server, user(x), 'USDT')).toBe(units('10000') + units('40000'));
      expect(cappedView.state).toBe('cancelled');
      expect(await atoms(server, issuer(capped), cappedView.coin)).toBe(0n);
      const records = (await server.call('GET', '/Issue/issuelog', {}, { token: x.token })).data.list;
      expect(records.find((r: { project_id: string }) => r.project_id === capped)).toMatchObject({
        status: 'refunded',
        refunded: '40000.00000000',
      });
    });

    it('L5: the release job moves the lock once, however often it runs', async () => {
      const end = server.clock.now() + HOUR_MS;
      const id = await openProject(server, staff, {
        ...SCENARIO,
        endAt: end,
        lockDays: 2,
        coin: coin(),
        mode: 'fcfs',
      });
      const holder = await buyer('l5_holder', '100');
      const bought = await subscribe(server, holder.token, id, '1000');
      const coinOf = (await server.call('GET', '/Issue/details', { id }, { token: holder.token })).data
        .project.coin;
      await runJobsAt(server, end);
      await runJobsAt(server, end + 2 * DAY_MS - 1);
      expect(await atoms(server, user(holder), coinOf, 'locked')).toBe(units('1000'));
      await runJobsAt(server, end + 2 * DAY_MS);
      await launchpadOf(server).runJobs();
      await launchpadOf(server).releaseDue();
      expect(await atoms(server, user(holder), coinOf, 'locked')).toBe(0n);
      expect(await atoms(server, user(holder), coinOf)).toBe(units('1000'));
      const entries = await sql<{ n: bigint }>`select count(*) as n from journal_entries
        where type = 'lp.release' and ref = ${`lp-release:${bought.data.id}`}`.execute(
        server.app.ctx.store.db,
      );
      expect(BigInt(entries.rows[0]?.n ?? 0)).toBe(1n);
      const log = (await server.call('GET', '/Issue/issuelog', {}, { token: holder.token })).data.list[0];
      expect(log).toMatchObject({ status: 'thawed', released_at: end + 2 * DAY_MS });
    });

    it('refuses with the spec’s messages: not started, below minimum, above maximum, individual limit, balance, forbidden', async () => {
      const start = server.clock.now() + HOUR_MS;
      const later = await openProject(server, staff, {
        coin: coin(),
        mode: 'fcfs',
        startAt: start,
        endAt: start + HOUR_MS,
        totalIssue: '1000',
        price: '1',
        perMin: '10',
        perMax: '100',
        individualLimit: '150',
        maxPurchases: 3,
      });
      const u = await buyer('refusals', '120');
      const msg = async (num: string) => (await subscribe(server, u.token, later, num)).msg;
      expect(await msg('10')).toBe('Subscription not started.');
      await server.clock.advance(HOUR_MS);
      expect(await msg('9')).toBe('Cannot be less than the minimum subscription amount.');
      expect(await msg('101')).toBe('Above the maximum per purchase.');
      expect(await msg('100')).toBe('Subscription recorded.');
      expect(await msg('60')).toBe('Individual limit exceeded.');
      expect(await msg('30')).toBe('Insufficient account balance.');
      expect(await atoms(server, user(u), 'USDT')).toBe(units('20'));
      expect(
        (
          await callAdmin(
            server,
            'POST',
            `/launchpad/projects/${later}/disabled`,
            { disabled: true, reason: 'issuer review' },
            staff.content,
          )
        ).code,
      ).toBe(1000);
      expect(await msg('10')).toBe('Subscription forbidden.');
      const unknown = await subscribe(server, u.token, '999999', '10');
      expect(unknown.code).toBe(7602);
      const japanese = await server.call(
        'POST',
        '/Issue/buy',
        { id: later, num: '10', idempotency_key: 'ja-forbidden-1' },
        { token: u.token },
      );
      expect(japanese.msg).toBe('この申込は禁止されています。');
    });

    it('R1: D pays 1,000 → C 30, B 10, A 5', async () => {
      const [a, b, c, d] = await chain(
        server,
        staff.compliance,
        ['r1a', 'r1b', 'r1c', 'r1d'].map((n) => `${n}_${name}`),
      );
      const id = await referralSale(d!, '1000');
      expect(await atoms(server, user(c!), 'USDT')).toBe(units('30'));
      expect(await atoms(server, user(b!), 'USDT')).toBe(units('10'));
      expect(await atoms(server, user(a!), 'USDT')).toBe(units('5'));
      // budget 50, 45 paid, 5 back: the issuer has the whole raise less the rewards
      expect(await atoms(server, issuer(id), 'USDT')).toBe(units('955'));
      const rows = await rewardsOf(id);
      expect(rows.map((r) => [r.generation, r.amount, r.status]).sort()).toEqual([
        [1, '30.00000000', 'paid'],
        [2, '10.00000000', 'paid'],
        [3, '5.00000000', 'paid'],
      ]);
      const mine = (await server.call('GET', '/Issue/rewards', {}, { token: c!.token })).data;
      expect(mine.list[0]).toMatchObject({
        amount: '30.00000000',
        generation: 1,
        status: 'paid',
        buyer: `r1***${d!.username.slice(-1)}`,
      });
    });

    it('R2: E pays 1,000 → D 30, C 10, B 5; A nothing (a fourth generation)', async () => {
      const [a, b, c, d, e] = await chain(
        server,
        staff.compliance,
        ['r2a', 'r2b', 'r2c', 'r2d', 'r2e'].map((n) => `${n}_${name}`),
      );
      await referralSale(e!, '1000');
      expect(await atoms(server, user(d!), 'USDT')).toBe(units('30'));
      expect(await atoms(server, user(c!), 'USDT')).toBe(units('10'));
      expect(await atoms(server, user(b!), 'USDT')).toBe(units('5'));
      expect(await atoms(server, user(a!), 'USDT')).toBe(0n);
    });

    it('R3: 4,998 earned this month and 5 due → 2 paid, 3 capped', async () => {
      const [a, b] = await chain(
        server,
        staff.compliance,
        ['r3a', 'r3b'].map((n) => `${n}_${name}`),
      );
      await fundUsdt(server, b!, '200000');
      // four projects at the 1,000 project cap, then 998: 4,998 in the month
      for (const paid of ['40000', '40000', '40000', '40000', '33266.66666667'])
        await referralSale(b!, paid, '1', false);
      expect(await atoms(server, user(a!), 'USDT')).toBe(units('4998'));
      const last = await referralSale(b!, '166.66666667', '1', false);
      expect(await atoms(server, user(a!), 'USDT')).toBe(units('5000'));
      expect((await rewardsOf(last)).map((r) => [r.amount, r.capped, r.status])).toEqual([
        ['2.00000000', '3.00000000', 'paid'],
      ]);
    });

    it('R4: C and D share a withdrawal address → R1’s rewards are void and the budget goes back to the issuer', async () => {
      const [a, b, c, d] = await chain(
        server,
        staff.compliance,
        ['r4a', 'r4b', 'r4c', 'r4d'].map((n) => `${n}_${name}`),
      );
      const address = 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW';
      await saveAddress(server, c!.token, { coin: 'USDT', network: 'TRC20', address });
      await saveAddress(server, d!.token, { coin: 'USDT', network: 'TRC20', address });
      const id = await referralSale(d!, '1000');
      for (const m of [a, b, c]) expect(await atoms(server, user(m!), 'USDT')).toBe(0n);
      expect(await atoms(server, issuer(id), 'USDT')).toBe(units('1000'));
      const rows = await rewardsOf(id);
      expect(rows.map((r) => r.status)).toEqual(['void', 'void', 'void']);
      expect(rows[0]?.reason).toBe(`buyer shares withdraw_address with user ${c!.uid}`);
    });

    it('R5: D commits 10,000 and pays 2,500 → C 75, B 25, A 12.5', async () => {
      const [a, b, c, d] = await chain(
        server,
        staff.compliance,
        ['r5a', 'r5b', 'r5c', 'r5d'].map((n) => `${n}_${name}`),
      );
      await fundUsdt(server, d!, '10000');
      const end = server.clock.now() + HOUR_MS;
      const id = await openProject(server, staff, {
        coin: coin(),
        mode: 'pro_rata',
        endAt: end,
        totalIssue: '10000',
        price: '1',
        individualLimit: '10000',
      });
      expect((await subscribe(server, d!.token, id, '10000')).code).toBe(1000);
      for (const i of [1, 2, 3]) {
        const other = await buyer(`r5_other${i}`, '10000');
        expect((await subscribe(server, other.token, id, '10000')).code).toBe(1000);
      }
      await runJobsAt(server, end);
      expect(await atoms(server, user(d!), 'USDT')).toBe(units('7500'));
      expect(await atoms(server, user(c!), 'USDT')).toBe(units('75'));
      expect(await atoms(server, user(b!), 'USDT')).toBe(units('25'));
      expect(await atoms(server, user(a!), 'USDT')).toBe(units('12.5'));
    });

    it('R6: an unverified B holds 10 pending: paid when B verifies within 30 days, void after', async () => {
      const names = (p: string) => ['a', 'b', 'c', 'd'].map((n) => `${p}${n}_${name}`);
      const [, b1, c1, d1] = await chain(server, staff.compliance, names('r6x'), [`r6xb_${name}`]);
      const [, b2, , d2] = await chain(server, staff.compliance, names('r6y'), [`r6yb_${name}`]);
      const first = await referralSale(d1!, '1000');
      const second = await referralSale(d2!, '1000');
      expect(await atoms(server, user(c1!), 'USDT')).toBe(units('30'));
      expect(await atoms(server, user(b1!), 'USDT')).toBe(0n);
      expect((await rewardsOf(first)).find((r) => r.generation === 2)).toMatchObject({
        amount: '10.00000000',
        status: 'pending',
      });
      await server.clock.advance(20 * DAY_MS);
      await verifyUser(server, b1!, staff.compliance);
      await launchpadOf(server).runJobs();
      expect(await atoms(server, user(b1!), 'USDT')).toBe(units('10'));
      expect((await rewardsOf(first)).find((r) => r.generation === 2)?.status).toBe('paid');
      const issuerBefore = await atoms(server, issuer(second), 'USDT');
      await server.clock.advance(10 * DAY_MS);
      await launchpadOf(server).runJobs();
      expect(await atoms(server, user(b2!), 'USDT')).toBe(0n);
      expect((await rewardsOf(second)).find((r) => r.generation === 2)).toMatchObject({
        status: 'void',
        reason: 'not verified within 30 days',
      });
      expect(await atoms(server, issuer(second), 'USDT')).toBe(issuerBefore + units('10'));
    });

    it('pages subscription records and referral rewards (an agent’s too) by `before`, and shows no one else’s', async () => {
      const [mine, other] = [await join(server, `pg_mine_${name}`), await join(server, `pg_other_${name}`)];
      const project = BigInt(
        await openProject(server, staff, {
          coin: coin(),
          mode: 'fcfs',
          endAt: server.clock.now() + HOUR_MS,
          totalIssue: '1000',
          price: '1',
        }),
      );
      const db = server.app.ctx.store.db;
      const at = BigInt(server.clock.now());
      // why: refunded records and void rewards written straight to the store: the lists are what
      // is tested, and none of these rows holds money.
      const record = async (m: Member) =>
        (
          await db
            .insertInto('lp_records')
            .values({
              project_id: project,
              user_id: m.userId,
              requested: 0n,
              committed: 0n,
              quantity: 0n,
              paid: 0n,
              refunded: 0n,
              status: 'refunded',
              idempotency_key: randomUUID(),
              created_at: at,
              release_at: at,
              released_at: null,
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      const reward = async (beneficiary: Member, source: bigint) =>
        String(
          (
            await db
              .insertInto('lp_rewards')
              .values({
                project_id: project,
                source_id: source,
                buyer_id: other.userId,
                beneficiary_id: beneficiary.userId,
                generation: 1n,
                asset: 'USDT',
                base: 0n,
                rate_bp: 0n,
                amount: 0n,
                capped: 0n,
                status: 'void',
                month: new Date(Number(at)).toISOString().slice(0, 7),
                created_at: at,
                settled_at: at,
              })
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id,
        );
      const records = { mine: [] as string[], theirs: [] as string[] };
      const rewards = { mine: [] as string[], theirs: [] as string[] };
      for (let i = 0; i < 45; i++) {
        const source = await record(mine);
        records.mine.push(String(source));
        rewards.mine.push(await reward(mine, source));
        if (i % 10 === 3) {
          const theirs = await record(other);
          records.theirs.push(String(theirs));
          rewards.theirs.push(await reward(other, theirs));
        }
      }
      await db
        .insertInto('agents')
        .values({
          user_id: mine.userId,
          status: 'approved',
          rates_override: null,
          applied_at: at,
          decided_at: at,
          decided_by: 'test',
        })
        .execute();
      const list = (path: string) => (paging: Record<string, string | number>) =>
        server.call('GET', path, paging, { token: mine.token, lang: 'en-us' });
      const shape = { numbered: false };
      await expectHistoryPaging(list('/Issue/issuelog'), records, shape);
      await expectHistoryPaging(list('/Issue/rewards'), rewards, shape);
      await expectHistoryPaging(list('/Agent/rewards'), rewards, shape);

      // page 1, then below its last id: exactly the next 20 records, newest first
      const first = await list('/Issue/issuelog')({});
      const ids = first.data.list.map((r: { id: string }) => r.id);
      expect(ids).toEqual(newestFirst(records.mine).slice(0, 20));
      const second = await list('/Issue/issuelog')({ before: ids.at(-1) });
      expect(second.data).toEqual({
        list: expect.any(Array),
        has_more: true,
      });
      expect(second.data.list.map((r: { id: string }) => r.id)).toEqual(
        newestFirst(records.mine).slice(20, 40),
      );
      const paid = await list('/Issue/rewards')({ before: rewards.mine.at(-1) as string });
      expect(paid.data).toMatchObject({ month_total: '0.00000000' });
    });

    /** A first-come-first-served sale of one hour where `member` pays `paid` USDT; distributed. */
    async function referralSale(member: Member, paid: string, price = '0.1', fundIt = true): Promise<string> {
      if (fundIt) await fundUsdt(server, member, paid);
      const end = server.clock.now() + HOUR_MS;
      const quantity = price === '1' ? paid : String(Number(paid) * 10);
      const id = await openProject(server, staff, {
        coin: coin(),
        mode: 'fcfs',
        endAt: end,
        totalIssue: '100000000',
        price,
        perMax: '100000000',
        individualLimit: '100000000',
      });
      const bought = await subscribe(server, member.token, id, quantity);
      expect(bought.code, bought.msg).toBe(1000);
      expect(bought.data.paid).toBe(fromAtoms(units(paid)));
      await runJobsAt(server, end);
      return id;
    }
  });
});
