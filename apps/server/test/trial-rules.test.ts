import { randomBytes } from 'node:crypto';
import { MAX_AMOUNT_ATOMS } from '@bourse/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requiredTurnover } from '../src/modules/delivery/service.ts';
import { KeyedHash } from '../src/platform/keyed-hash.ts';
import {
  advance,
  approveIdentity,
  deliveryOf,
  indexTick,
  newTrader,
  page,
  place,
  placeOpen,
  signInOwner,
} from './delivery-harness.ts';
import {
  type ApiAnswer,
  acceptedTerms,
  callAdmin,
  DIALECTS,
  startServer,
  type TestServer,
} from './harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';
import { pngImage, walletOf } from './wallet-harness.ts';

/**
 * Trial money that stays trial (docs/trial-money.md): grants per verified identity, the hedge
 * rule across linked accounts, trial profit locked until real turnover, and the back office's
 * turnover multiple. The demo's periods pay 0.80 to 0.95, so the multiple in force is
 * 2 / (1 − 0.95) = 40.
 */
describe.each(DIALECTS)('trial rules on $name', ({ name, skip }) => {
  describe.skipIf(skip)('', () => {
    let server: TestServer;
    let owner: string;
    // why: known to the test, so it can write identities the way they were hashed before.
    const userSecret = randomBytes(32);
    const documentHash = new KeyedHash(userSecret, 'identity-document');
    beforeAll(async () => {
      server = await startServer(name, {
        env: {
          USER_SECRET_KEY: userSecret.toString('hex'),
          DEMO: 'on',
          ADMIN_USER: 'boss',
          ADMIN_PASSWORD: 'owner-pass-1',
          // why: the registration address is read from X-Forwarded-For (the same-address link).
          TRUST_PROXY: 'on',
          LIMIT_REGISTER_PER_IP: '1000/3600',
          LIMIT_PASSWORD_CHECKS: '1000/900',
          SESSION_IDLE_MINUTES: '100000',
          STAFF_SESSION_IDLE_MINUTES: '100000',
          STAFF_SESSION_MAX_HOURS: '10000',
        },
      });
      owner = await signInOwner(server, 'boss', 'owner-pass-1');
    });
    afterAll(async () => {
      await expectLedgerInvariants(server);
      await server?.close();
    });

    /** Registers and signs in an account, from `ip` when given, invited by `invit` when given. */
    async function join(options: { ip?: string; invit?: string } = {}) {
      const username = `t_${randomBytes(4).toString('hex')}`;
      const headers = options.ip ? { 'X-Forwarded-For': options.ip } : undefined;
      const registered = await server.call(
        'POST',
        '/Login/upregister',
        {
          account: username,
          lpwd: 'secret123',
          ...(options.invit ? { invit: options.invit } : {}),
          ...(await acceptedTerms(server)),
        },
        { headers },
      );
      expect(registered.code, registered.msg).toBe(1000);
      const login = await server.call('POST', '/Login/loginsubmit', { email: username, lpwd: 'secret123' });
      expect(login.code, login.msg).toBe(1000);
      const token = login.data.token as string;
      const team = await server.call('GET', '/user/tgcode', {}, { token });
      return {
        username,
        token,
        uid: login.data.uid as number,
        userId: BigInt(login.data.uid),
        code: team.data.invite_code as string,
      };
    }

    async function credit(userId: bigint) {
      await server.app.ctx.store.db.transaction().execute((trx) => walletOf(server).creditDemo(trx, userId));
    }

    /**
     * Submits the user's identity over HTTP (two images, document `idno` issued by `country`);
     * answers the submission.
     */
    async function submitIdentity(
      user: { token: string; uid: number },
      idno: string,
      country = 'JP',
    ): Promise<ApiAnswer> {
      const upload = async (color: string) => {
        const form = new FormData();
        form.append('token', user.token);
        form.append(
          'image',
          new Blob([new Uint8Array(await pngImage(color))], { type: 'image/png' }),
          'id.png',
        );
        const response = await fetch(`${server.url}/apiv/user/upauthimg`, { method: 'POST', body: form });
        const answer = (await response.json()) as ApiAnswer;
        expect(answer.code).toBe(1000);
        return answer.data.image as string;
      };
      return server.call(
        'POST',
        '/user/upauthrz',
        {
          type: 'passport',
          realname: `Holder ${user.uid}`,
          country,
          mobile: `+8190${String(user.uid).padStart(8, '0')}`,
          idno,
          front: await upload('#102030'),
          back: await upload('#405060'),
        },
        { token: user.token, lang: 'en-us' },
      );
    }

    async function reviewId(uid: number): Promise<string> {
      const queue = await callAdmin(server, 'GET', '/identity', undefined, owner);
      const row = queue.data.list.find((r: { userId: number }) => r.userId === uid);
      expect(row).toBeDefined();
      return row.id as string;
    }

    /**
     * Approves a submission, the reviewer confirming the document number `idno` and the issuing
     * `country` read on its image.
     */
    const approve = (id: string, idno: string, country = 'JP') =>
      callAdmin(server, 'POST', `/identity/${id}/approve`, { idno, country }, owner);

    const db = () => server.app.ctx.store.db;

    async function identitiesOf(userIds: bigint[]) {
      return db()
        .selectFrom('identity_verifications')
        .select(['user_id', 'status', 'country', 'doc_hash', 'number_hash'])
        .where('user_id', 'in', userIds)
        .orderBy('id')
        .execute();
    }

    async function approvalRecord(id: string) {
      const records = await server.app.ctx.audit.list(db(), {
        action: 'identity.approve',
        target: `identity:${id}`,
        limit: 10,
      });
      return records;
    }

    /**
     * Rewrites the user's identity (and its grants) as it was recorded before numbers were hashed
     * alone: the keyed hash of `<country>:<number>`, normalised as it was then, and no number hash.
     */
    async function recordTheOldWay(userId: bigint, country: string, typed: string) {
      const oldHash = documentHash.hash(`${country}:${typed.replace(/[\s\-./]/g, '').toUpperCase()}`);
      await db()
        .updateTable('identity_verifications')
        .set({ doc_hash: oldHash, number_hash: null, country })
        .where('user_id', '=', userId)
        .execute();
      await db()
        .updateTable('trial_grants')
        .set({ identity_hash: oldHash })
        .where('user_id', '=', userId)
        .execute();
      return oldHash;
    }

    async function grantsOf(userId: bigint) {
      return server.app.ctx.store.db
        .selectFrom('trial_grants')
        .selectAll()
        .where('user_id', '=', userId)
        .execute();
    }

    it('gives no trial money before the identity is verified, and the welcome grant once it is', async () => {
      const alice = await join();
      const before = await page(server, alice.token);
      expect(before.balance).toEqual({ usdt: '0.00000000', trial: '0.00000000', trial_profit: '0.00000000' });
      expect(before.trial_grants).toEqual([]);
      await indexTick(server, 'BTCUSDT', '96000');
      expect((await place(server, alice.token, { amount: '10', trial: '1' })).code).toBe(7007);

      // the document number is asked for and checked
      const missing = await server.call('POST', '/user/upauthrz', {}, { token: alice.token });
      expect(missing.code).not.toBe(1000);
      expect((await submitIdentity(alice, '#')).code).toBe(2121);
      expect((await submitIdentity(alice, 'AB-123 456')).code).toBe(1000);
      // under review: still nothing
      expect((await page(server, alice.token)).balance.trial).toBe('0.00000000');
      expect((await approve(await reviewId(alice.uid), 'AB123456')).code).toBe(1000);
      const after = await page(server, alice.token);
      expect(after.balance.trial).toBe('1000.00000000');
      expect(after.trial_grants).toHaveLength(1);
      expect(after.trial_grants[0]).toMatchObject({ signup: true, amount: '1000.00000000' });

      // the number is never stored: only its keyed hash
      const rows = await server.app.ctx.store.db
        .selectFrom('identity_verifications')
        .selectAll()
        .where('user_id', '=', alice.userId)
        .execute();
      expect(rows[0]?.doc_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(rows[0]?.number_hash).toBe(rows[0]?.doc_hash);
      expect(JSON.stringify(rows, (_, v) => (typeof v === 'bigint' ? String(v) : v))).not.toMatch(/123 ?456/);
      const [grant] = await grantsOf(alice.userId);
      expect(grant?.identity_hash).toBe(rows[0]?.doc_hash);
    });

    it('gives a second account with the same document no grant (typed differently, still one identity)', async () => {
      const first = await join();
      const second = await join();
      expect((await submitIdentity(first, 'XY-900 100')).code).toBe(1000);
      expect((await approve(await reviewId(first.uid), 'XY900100')).code).toBe(1000);
      expect((await page(server, first.token)).balance.trial).toBe('1000.00000000');
      expect((await submitIdentity(second, 'xy900100')).code).toBe(1000);
      // the approval itself goes through: the identity is real; it just has had its trial money
      expect((await approve(await reviewId(second.uid), 'XY 900 100')).code).toBe(1000);
      const data = await page(server, second.token);
      expect(data.balance.trial).toBe('0.00000000');
      expect(data.trial_grants).toEqual([]);
      // nor can staff grant it a plan the identity already had
      const plans = await callAdmin(server, 'GET', '/delivery/trial-plans', undefined, owner);
      const signup = plans.data.find((p: { name: string }) => p.name === 'signup');
      const refused = await callAdmin(
        server,
        'POST',
        '/delivery/trial-grants',
        { userId: String(second.uid), planId: signup.id },
        owner,
      );
      expect(refused.code).toBe(7030);
      // and an unverified account cannot be granted anything
      const stranger = await join();
      const unverified = await callAdmin(
        server,
        'POST',
        '/delivery/trial-grants',
        { userId: String(stranger.uid), planId: signup.id },
        owner,
      );
      expect(unverified.code).toBe(2101);
    });

    it('approves only with the number the reviewer reads on the image: one document under invented numbers is refused', async () => {
      const mallory = await join();
      // the customer typed a number that is not the one on the document
      expect((await submitIdentity(mallory, 'FAKE-0042')).code).toBe(1000);
      const id = await reviewId(mallory.uid);
      expect(await approve(id, 'REAL-7777')).toMatchObject({
        code: 6012,
        msg: 'The document number does not match the one the customer entered. Check the image, or reject the submission.',
      });
      expect((await page(server, mallory.token)).balance.trial).toBe('0.00000000');
      const queue = await callAdmin(server, 'GET', '/identity', undefined, owner);
      expect(queue.data.list.find((r: { id: string }) => r.id === id)).toMatchObject({ status: 'pending' });
      expect((await approve(id, '')).code).toBe(1002);
      expect((await approve(id, '#')).code).toBe(2121);
    });

    it('approves only with the issuing country the customer declared, confirmed by the reviewer and audited', async () => {
      const user = await join();
      expect((await submitIdentity(user, 'GB-550 019', 'GB')).code).toBe(1000);
      const id = await reviewId(user.uid);
      // the review shows the declared country
      expect((await callAdmin(server, 'GET', `/identity/${id}`, undefined, owner)).data).toMatchObject({
        country: 'GB',
        status: 'pending',
      });
      // the country must be confirmed: missing, unknown or another one is refused, and nothing changes
      expect(
        (await callAdmin(server, 'POST', `/identity/${id}/approve`, { idno: 'GB550019' }, owner)).code,
      ).toBe(1002);
      expect((await approve(id, 'GB550019', 'ZZ')).code).toBe(2104);
      expect(await approve(id, 'GB550019', 'US')).toMatchObject({
        code: 6013,
        msg: 'The issuing country on the document is not the one the customer declared. Check the image, or reject the submission.',
      });
      // a wrong number is refused whatever the country
      expect((await approve(id, 'GB550018', 'GB')).code).toBe(6012);
      expect((await page(server, user.token)).balance.trial).toBe('0.00000000');
      expect((await identitiesOf([user.userId]))[0]).toMatchObject({ status: 'pending' });
      expect(await approvalRecord(id)).toEqual([]);

      expect((await approve(id, 'gb 550 019', 'GB')).code).toBe(1000);
      expect((await page(server, user.token)).balance.trial).toBe('1000.00000000');
      const [record] = await approvalRecord(id);
      expect(record).toMatchObject({
        actor: expect.stringMatching(/^staff:\d+$/),
        before: { status: 'pending', user: String(user.uid) },
        after: {
          status: 'approved',
          confirmedCountry: 'GB',
          confirmedDocumentNumber: true,
          sameDocumentAs: [],
        },
      });
    });

    it('gives one grant to one document number approved under several countries, however it is typed', async () => {
      const [first, second, third] = [await join(), await join(), await join()];
      expect((await submitIdentity(first, 'cz-4417 0093', 'FR')).code).toBe(1000);
      expect((await approve(await reviewId(first.uid), 'CZ44170093', 'FR')).code).toBe(1000);
      expect((await page(server, first.token)).balance.trial).toBe('1000.00000000');

      // the same passport declared under another country, in lower case with other separators
      expect((await submitIdentity(second, 'cz.4417/0093', 'DE')).code).toBe(1000);
      const secondId = await reviewId(second.uid);
      // the reviewer types it in full-width characters: the same number
      expect((await approve(secondId, 'ＣＺ４４１７－００９３', 'DE')).code).toBe(1000);
      // and under a third country, spaced out
      expect((await submitIdentity(third, 'C Z 4 4 1 7 0 0 9 3', 'US')).code).toBe(1000);
      expect((await approve(await reviewId(third.uid), 'cz 4417 0093', 'US')).code).toBe(1000);

      // approved (the identity is real) without a grant: it has had its trial money
      for (const other of [second, third]) {
        const data = await page(server, other.token);
        expect(data.balance.trial).toBe('0.00000000');
        expect(data.trial_grants).toEqual([]);
      }
      const grants = (await Promise.all([first, second, third].map((a) => grantsOf(a.userId)))).flat();
      expect(grants).toHaveLength(1);

      // one identity: one hash, whatever the country, and the accounts are linked by it
      const rows = await identitiesOf([first.userId, second.userId, third.userId]);
      expect(rows.map((r) => r.country)).toEqual(['FR', 'DE', 'US']);
      expect(new Set(rows.map((r) => r.doc_hash))).toEqual(new Set([grants[0]?.identity_hash]));
      const identity = server.app.ctx.identity;
      expect(await identity?.sameIdentityAccounts(db(), third.userId)).toEqual(
        expect.arrayContaining([first.userId, second.userId]),
      );
      // the audit record names the country confirmed and the account the document already was
      const [record] = await approvalRecord(secondId);
      expect(record?.after).toEqual({
        status: 'approved',
        confirmedCountry: 'DE',
        confirmedDocumentNumber: true,
        sameDocumentAs: [String(first.uid)],
      });
    });

    it('recognises identities hashed with their country before, and keeps refusing them a second grant', async () => {
      // before: one passport approved under the US and, abused, again under GB, each with a grant
      const us = await join();
      await approveIdentity(server, us.userId, 'LEG-77 1200');
      const usHash = await recordTheOldWay(us.userId, 'US', 'LEG-77 1200');
      const gb = await join();
      await approveIdentity(server, gb.userId, `ELSE-${gb.uid}`);
      const gbHash = await recordTheOldWay(gb.userId, 'GB', 'leg771200');
      expect(gbHash).not.toBe(usHash);
      // and one submitted under Italy, still under review
      const italy = await join();
      expect((await submitIdentity(italy, `PEND-${italy.uid}`, 'IT')).code).toBe(1000);
      await recordTheOldWay(italy.userId, 'IT', 'LEG771200');
      const before = (await Promise.all([us, gb, italy].map((a) => grantsOf(a.userId)))).flat();
      expect(before).toHaveLength(2);

      // now the same passport is submitted under France: recognised, and approved without a grant
      const fr = await join();
      expect((await submitIdentity(fr, 'leg 771-200', 'FR')).code).toBe(1000);
      const frId = await reviewId(fr.uid);
      expect((await approve(frId, 'LEG771200', 'FR')).code).toBe(1000);
      expect((await page(server, fr.token)).trial_grants).toEqual([]);
      // the old rows were re-keyed: one identity (the first approval's hash, which its grant is
      // keyed on), each found by its number's hash from now on
      const rows = await identitiesOf([us.userId, gb.userId, italy.userId, fr.userId]);
      expect(rows.map((r) => r.doc_hash)).toEqual([usHash, usHash, usHash, usHash]);
      expect(rows[0]?.number_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(new Set(rows.map((r) => r.number_hash)).size).toBe(1);
      expect(await server.app.ctx.identity?.sameIdentityAccounts(db(), fr.userId)).toEqual(
        expect.arrayContaining([us.userId, gb.userId, italy.userId]),
      );
      expect((await approvalRecord(frId))[0]?.after).toMatchObject({
        sameDocumentAs: [String(us.uid), String(gb.uid)],
      });

      // the submission under review from before: its number is still checked, and it gets no grant
      const itId = await reviewId(italy.uid);
      expect((await approve(itId, 'LEG771201', 'IT')).code).toBe(6012);
      expect((await approve(itId, 'leg-771-200', 'IT')).code).toBe(1000);
      expect((await page(server, italy.token)).trial_grants).toEqual([]);
      const after = (await Promise.all([us, gb, italy, fr].map((a) => grantsOf(a.userId)))).flat();
      expect(after).toHaveLength(2);

      // a submission from before, of a number never seen since, is checked against its old hash
      // and brings its grant
      const kr = await join();
      expect((await submitIdentity(kr, `PEND-${kr.uid}`, 'KR')).code).toBe(1000);
      await recordTheOldWay(kr.userId, 'KR', 'OLD-5151');
      const krId = await reviewId(kr.uid);
      expect((await approve(krId, 'OLD5152', 'KR')).code).toBe(6012);
      expect((await approve(krId, 'old 5151', 'KR')).code).toBe(1000);
      expect((await page(server, kr.token)).balance.trial).toBe('1000.00000000');
    });

    it('gives exactly one grant when accounts with the same document are approved at once', async () => {
      const accounts = await Promise.all([join(), join(), join(), join()]);
      // why: one passport, declared under four countries and typed four ways.
      const countries = ['JP', 'FR', 'US', 'TW'];
      const spellings = ['BURST-0001', 'burst 0001', 'Burst.0001', 'ＢＵＲＳＴ０００１'];
      for (const [i, account] of accounts.entries())
        expect((await submitIdentity(account, spellings[i] ?? '', countries[i])).code).toBe(1000);
      const ids = await Promise.all(accounts.map((a) => reviewId(a.uid)));
      const answers = await Promise.all(ids.map((id, i) => approve(id, 'BURST-0001', countries[i])));
      expect(answers.map((a) => a.code)).toEqual([1000, 1000, 1000, 1000]);
      const grants = (await Promise.all(accounts.map((a) => grantsOf(a.userId)))).flat();
      expect(grants).toHaveLength(1);
      const trial = await Promise.all(accounts.map(async (a) => (await page(server, a.token)).balance.trial));
      expect(trial.filter((t) => t === '1000.00000000')).toHaveLength(1);
      expect(trial.filter((t) => t === '0.00000000')).toHaveLength(3);
    });

    it('refuses the two-account hedge between linked accounts, in either order, and allows it for an unrelated one', async () => {
      for (const symbol of ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'XRPUSDT'])
        await indexTick(server, symbol, '100');

      // linked by a referral edge: A invites B
      const a = await join();
      await approveIdentity(server, a.userId, `REF-A-${a.uid}`);
      const b = await join({ invit: a.code });
      await credit(b.userId);
      expect((await place(server, a.token, { amount: '500', trial: '1', direction: 'up' })).code).toBe(1000);
      const hedge = await place(server, b.token, { amount: '444', direction: 'down' });
      expect(hedge).toMatchObject({
        code: 7032,
        msg: 'An account linked to yours (by invitation, identity or registration address) holds an open contract in the opposite direction on this market: with trial money on either side, this is not allowed.',
      });
      // the other order: B's real contract first, then A's opposite trial one
      expect(
        (await place(server, b.token, { symbol: 'ETHUSDT', amount: '100', direction: 'down' })).code,
      ).toBe(1000);
      expect((await place(server, a.token, { symbol: 'ETHUSDT', amount: '100', trial: '1' })).code).toBe(
        7032,
      );

      // the same identity: C and D verified with one document (D has no grant, but real money)
      const c = await join();
      const d = await join();
      await approveIdentity(server, c.userId, `SAME-${c.uid}`);
      await approveIdentity(server, d.userId, `SAME-${c.uid}`);
      await credit(d.userId);
      expect((await place(server, c.token, { symbol: 'SOLUSDT', amount: '1000', trial: '1' })).code).toBe(
        1000,
      );
      expect(
        (await place(server, d.token, { symbol: 'SOLUSDT', amount: '444', direction: 'down' })).code,
      ).toBe(7032);

      // the same registration address within 24 hours
      const e = await join({ ip: '203.0.113.7' });
      await approveIdentity(server, e.userId, `IP-E-${e.uid}`);
      await server.clock.advance(60 * 60_000);
      const f = await join({ ip: '203.0.113.7' });
      await credit(f.userId);
      for (const symbol of ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'XRPUSDT'])
        await indexTick(server, symbol, '100');
      expect((await place(server, e.token, { symbol: 'XRPUSDT', amount: '1000', trial: '1' })).code).toBe(
        1000,
      );
      expect(
        (await place(server, f.token, { symbol: 'XRPUSDT', amount: '444', direction: 'down' })).code,
      ).toBe(7032);
      // a real contract in the same direction is no hedge
      expect((await place(server, f.token, { symbol: 'XRPUSDT', amount: '100', direction: 'up' })).code).toBe(
        1000,
      );

      // an unrelated account (another address, no referral, another document) may take the other side
      const g = await join({ ip: '198.51.100.9' });
      await approveIdentity(server, g.userId, `OTHER-${g.uid}`);
      await credit(g.userId);
      expect(
        (await place(server, g.token, { symbol: 'XRPUSDT', amount: '444', direction: 'down' })).code,
      ).toBe(1000);
      expect((await place(server, g.token, { amount: '444', direction: 'down' })).code).toBe(1000);

      // let every contract of this test end, so the next ones start from a quiet market
      for (const symbol of ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'XRPUSDT']) {
        await indexTick(server, symbol, '100', server.clock.now() + 1);
      }
      await advance(server, 1);
      await server.clock.advance(61_000);
      for (const symbol of ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'XRPUSDT'])
        await indexTick(server, symbol, '100');
      await deliveryOf(server).service.runSettlement();
    });

    it('never links accounts by a private or loopback address (a proxy the server does not trust)', async () => {
      const first = await join({ ip: '10.0.0.5' });
      await approveIdentity(server, first.userId, `LAN-1-${first.uid}`);
      const second = await join({ ip: '10.0.0.5' });
      await credit(second.userId);
      await indexTick(server, 'DOGEUSDT', '0.4');
      expect((await place(server, first.token, { symbol: 'DOGEUSDT', amount: '20', trial: '1' })).code).toBe(
        1000,
      );
      expect(
        (await place(server, second.token, { symbol: 'DOGEUSDT', amount: '20', direction: 'down' })).code,
      ).toBe(1000);
      await indexTick(server, 'DOGEUSDT', '0.4', server.clock.now() + 1);
      await advance(server, 1);
      await server.clock.advance(61_000);
      await indexTick(server, 'DOGEUSDT', '0.4');
      await deliveryOf(server).service.runSettlement();
    });

    it('allows the same registration address more than 24 hours apart', async () => {
      const first = await join({ ip: '192.0.2.44' });
      await approveIdentity(server, first.userId, `FAR-1-${first.uid}`);
      await server.clock.advance(25 * 60 * 60_000);
      const later = await join({ ip: '192.0.2.44' });
      await credit(later.userId);
      await indexTick(server, 'LTCUSDT', '80');
      expect((await place(server, first.token, { symbol: 'LTCUSDT', amount: '20', trial: '1' })).code).toBe(
        1000,
      );
      expect(
        (await place(server, later.token, { symbol: 'LTCUSDT', amount: '20', direction: 'down' })).code,
      ).toBe(1000);
      await indexTick(server, 'LTCUSDT', '80', server.clock.now() + 1);
      await advance(server, 1);
      await server.clock.advance(61_000);
      await indexTick(server, 'LTCUSDT', '80');
      await deliveryOf(server).service.runSettlement();
    });

    /** Wins a 60-second trial contract of 10 on `symbol` (0.80): 8 of profit, locked. */
    async function winTrial(user: { token: string }, symbol: string) {
      await indexTick(server, symbol, '100');
      const opened = await placeOpen(server, user.token, { symbol, amount: '10', trial: '1' }, '100');
      expect(opened.code).toBe(1000);
      await indexTick(server, symbol, '101', opened.data.open_at + 60_000);
      await advance(server, 61_000);
    }

    /** Places real 60-second contracts of `amount` (up) and opens them; answers their ids. */
    async function placeReal(user: { token: string }, symbol: string, count: number, amount = '100') {
      await indexTick(server, symbol, '100');
      const ids: string[] = [];
      for (let i = 0; i < count; i++) {
        const answer = await place(server, user.token, { symbol, amount });
        expect(answer.code, answer.msg).toBe(1000);
        ids.push(answer.data.id);
      }
      await indexTick(server, symbol, '100', server.clock.now() + 1);
      await deliveryOf(server).service.runSettlement();
      return ids;
    }

    it('locks trial profit until the real turnover, then releases it exactly once under a burst of settlements', async () => {
      const user = await newTrader(server);
      await winTrial(user, 'DOGEUSDT');
      let data = await page(server, user.token);
      // 10 × 0.80 = 8 locked; 40 × 8 = 320 of real turnover releases it
      expect(data.balance).toEqual({
        usdt: '10000.00000000',
        trial: '1000.00000000',
        trial_profit: '8.00000000',
      });
      expect(data.trial_turnover_left).toBe('320.00000000');
      expect(data.trial_grants[0]).toMatchObject({
        profit_locked: '8.00000000',
        turnover_left: '320.00000000',
      });

      // 300 of real turnover, settled one by one (losses: the price falls): not yet
      const first = await placeReal(user, 'DOGEUSDT', 3);
      await indexTick(server, 'DOGEUSDT', '99', server.clock.now() + 61_000);
      await advance(server, 61_000);
      for (const id of first) {
        const detail = await server.call('GET', '/Contract/cbillinfo', { id }, { token: user.token });
        expect(detail.data).toMatchObject({ status: 'settled', result: 'loss' });
      }
      data = await page(server, user.token);
      expect(data.balance).toEqual({
        usdt: '9700.00000000',
        trial: '1000.00000000',
        trial_profit: '8.00000000',
      });
      expect(data.trial_turnover_left).toBe('20.00000000');

      // a draw risked nothing and counts nothing
      const [drawn] = await placeReal(user, 'DOGEUSDT', 1);
      await indexTick(server, 'DOGEUSDT', '100', server.clock.now() + 61_000);
      await advance(server, 61_000);
      expect(
        (await server.call('GET', '/Contract/cbillinfo', { id: drawn }, { token: user.token })).data.result,
      ).toBe('draw');
      expect((await page(server, user.token)).trial_turnover_left).toBe('20.00000000');

      // five contracts settled at once, each enough on its own: one release of 8
      const burst = await placeReal(user, 'DOGEUSDT', 5);
      await indexTick(server, 'DOGEUSDT', '101', server.clock.now() + 61_000);
      await server.clock.advance(61_000);
      const now = server.clock.now();
      const outcomes = await Promise.all(
        burst.map((id) => deliveryOf(server).service.settleContract(BigInt(id), now)),
      );
      expect(outcomes).toEqual(['settled', 'settled', 'settled', 'settled', 'settled']);
      data = await page(server, user.token);
      // 9,700 − 5 × 100 placed + 5 × 180 paid back + 8 released
      expect(data.balance).toEqual({
        usdt: '10108.00000000',
        trial: '1000.00000000',
        trial_profit: '0.00000000',
      });
      expect(data.trial_turnover_left).toBe('0.00000000');
      const [grant] = await grantsOf(user.userId);
      expect(grant).toMatchObject({
        profit_locked: 0n,
        profit_released: 800_000_000n,
        turnover_required: 32_000_000_000n,
        turnover_done: 32_000_000_000n,
      });
      const releases = await server.app.ctx.store.db
        .selectFrom('journal_entries')
        .select(['ref'])
        .where('type', '=', 'trial.release')
        .where('ref', 'like', `grant:${grant?.id}:%`)
        .execute();
      expect(releases).toEqual([{ ref: `grant:${grant?.id}:800000000` }]);

      // a later trial win locks again, with its own turnover
      await winTrial(user, 'DOGEUSDT');
      data = await page(server, user.token);
      expect(data.balance.trial_profit).toBe('8.00000000');
      expect(data.trial_turnover_left).toBe('320.00000000');
    });

    it('returns unreleased trial profit to the house when the grant expires', async () => {
      const user = await newTrader(server, { usdt: false });
      await winTrial(user, 'BNBUSDT');
      expect((await page(server, user.token)).balance.trial_profit).toBe('8.00000000');
      const houseBefore = await server.app.ctx.ledger.balance(
        server.app.ctx.store.db,
        { system: 'house' },
        'USDT',
        'available',
      );
      await advance(server, 7 * 24 * 3600_000);
      const data = await page(server, user.token);
      expect(data.balance).toEqual({ usdt: '0.00000000', trial: '0.00000000', trial_profit: '0.00000000' });
      expect(data.trial_grants[0]).toMatchObject({ status: 'expired', profit_locked: '0.00000000' });
      const [grant] = await grantsOf(user.userId);
      expect(grant).toMatchObject({ profit_locked: 0n, profit_expired: 800_000_000n, profit_released: 0n });
      const entry = await server.app.ctx.store.db
        .selectFrom('journal_entries as e')
        .innerJoin('postings as p', 'p.entry_id', 'e.id')
        .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
        .select(['a.owner', 'a.kind', 'p.amount'])
        .where('e.type', '=', 'trial.profit_expire')
        .where('e.ref', '=', `grant:${grant?.id}`)
        .orderBy('a.owner')
        .execute();
      expect(entry).toEqual([
        { owner: 'system:house', kind: 'available', amount: 800_000_000n },
        { owner: `user:${user.userId}`, kind: 'trial_profit', amount: -800_000_000n },
      ]);
      const houseAfter = await server.app.ctx.ledger.balance(
        server.app.ctx.store.db,
        { system: 'house' },
        'USDT',
        'available',
      );
      expect(houseAfter - houseBefore).toBeGreaterThanOrEqual(800_000_000n);
    });

    it('refuses a turnover multiple below 2 / (1 − the highest payout ratio), and says why', async () => {
      const before = await callAdmin(server, 'GET', '/delivery/trial-settings', undefined, owner);
      expect(before.data).toEqual({
        turnoverMultiple: '10',
        minTurnoverMultiple: '40',
        maxRatio: '0.95',
        effectiveTurnoverMultiple: '40',
      });
      const refused = await callAdmin(
        server,
        'POST',
        '/delivery/trial-settings',
        { turnoverMultiple: '10' },
        owner,
      );
      expect(refused).toMatchObject({
        code: 6009,
        msg: "The turnover multiple 10 is too low. The highest payout ratio offered is 0.95, so a contract's house edge is (1 − 0.95) / 2 = 0.025 per unit staked, and the multiple must be at least 1 / 0.025 = 2 / (1 − 0.95) = 40; below that, trial profit could be released at a positive expected value.",
      });
      expect(
        (await callAdmin(server, 'POST', '/delivery/trial-settings', { turnoverMultiple: '39.99' }, owner))
          .code,
      ).toBe(6009);
      const set = await callAdmin(
        server,
        'POST',
        '/delivery/trial-settings',
        { turnoverMultiple: '50' },
        owner,
      );
      expect(set.data).toMatchObject({ turnoverMultiple: '50', effectiveTurnoverMultiple: '50' });
      const audit = await server.app.ctx.audit.list(server.app.ctx.store.db, {
        action: 'delivery.trial.settings',
        limit: 10,
      });
      expect(audit).toHaveLength(1);
      // the new multiple applies to profit credited from now on
      const user = await newTrader(server, { usdt: false });
      await winTrial(user, 'TRXUSDT');
      expect((await page(server, user.token)).trial_turnover_left).toBe('400.00000000');
    });
  });
});

describe('the turnover a trial profit needs', () => {
  it('rounds up to the atom and never passes what the 64-bit column and any amount allow', () => {
    // 12.34567891 × 40.00 = 493.8271564, rounded up
    expect(requiredTurnover(1_234_567_891n, 4000n)).toBe(49_382_715_640n);
    expect(requiredTurnover(1n, 1050n)).toBe(11n);
    expect(requiredTurnover(MAX_AMOUNT_ATOMS, 4000n)).toBe(MAX_AMOUNT_ATOMS);
  });
});
