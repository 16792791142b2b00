import { randomUUID } from 'node:crypto';
import { toAtoms } from '@bourse/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  advance,
  deliveryOf,
  indexTick,
  newTrader,
  page,
  place,
  placeOpen,
  signInOwner,
} from './delivery-harness.ts';
import { callAdmin, DIALECTS, startServer, type TestServer } from './harness.ts';
import { expectHistoryPaging } from './history-harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';
import { balanceOf, withdraw } from './wallet-harness.ts';

const STAFF = { staffId: 1n, username: 'boss', actor: 'staff:1', ip: '127.0.0.1' };

describe.each(DIALECTS)('delivery contracts over HTTP on $name', ({ name, skip }) => {
  describe.skipIf(skip)('', () => {
    let server: TestServer;
    let owner: string;
    beforeAll(async () => {
      server = await startServer(name, {
        env: {
          DEMO: 'on',
          ADMIN_USER: 'boss',
          ADMIN_PASSWORD: 'owner-pass-1',
          LIMIT_REGISTER_PER_IP: '1000/3600',
          LIMIT_PASSWORD_CHECKS: '1000/900',
          // why: the clock moves days forward (settlements, trial expiry); sessions must outlive it.
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

    it('refuses a contract while the index is unknown or stale, then answers the trade page', async () => {
      const user = await newTrader(server);
      const stale = await place(server, user.token, {});
      expect(stale).toMatchObject({
        code: 7005,
        msg: 'The index price is unavailable right now. Please try again shortly.',
      });
      await indexTick(server, 'BTCUSDT', '96000');
      const data = await page(server, user.token);
      expect(data.balance).toEqual({
        usdt: '10000.00000000',
        trial: '1000.00000000',
        trial_profit: '0.00000000',
      });
      expect(data.trial_turnover_left).toBe('0.00000000');
      // why: the demo's highest payout ratio, 0.95, raises the configured 10× to 2 / (1 − 0.95) = 40×.
      expect(data.trial_turnover_multiple).toBe('40');
      expect(data.grace_seconds).toBe(300);
      expect(data.stale_after_ms).toBe(5000);
      expect(data.server_time).toBe(server.clock.now());
      expect(data.trial_grants).toEqual([
        {
          id: expect.any(String),
          name: 'signup',
          signup: true,
          amount: '1000.00000000',
          remaining: '1000.00000000',
          profit_cap: '1000.00000000',
          profit_paid: '0.00000000',
          profit_locked: '0.00000000',
          turnover_left: '0.00000000',
          expires_at: server.clock.now() + 7 * 24 * 3600_000,
          status: 'active',
        },
      ]);
      const btc = data.markets.find((m: { symbol: string }) => m.symbol === 'BTCUSDT');
      expect(btc).toMatchObject({
        base: 'BTC',
        quote: 'USDT',
        status: 'open',
        stale: false,
        index: { symbol: 'BTCUSDT', price: '96000.00000000', at: server.clock.now(), source: 'test' },
      });
      expect(btc.periods).toEqual([
        { seconds: 60, ratio: '0.80', min: '10.00000000', max: '10000.00000000' },
        { seconds: 180, ratio: '0.85', min: '10.00000000', max: '10000.00000000' },
        { seconds: 300, ratio: '0.90', min: '10.00000000', max: '10000.00000000' },
        { seconds: 900, ratio: '0.95', min: '10.00000000', max: '10000.00000000' },
      ]);
      const eth = data.markets.find((m: { symbol: string }) => m.symbol === 'ETHUSDT');
      expect(eth).toMatchObject({ index: null, stale: true });
    });

    it('places a real contract, freezes the amount, opens it on the next tick and settles a win on the first tick at or after expiry', async () => {
      const user = await newTrader(server);
      await indexTick(server, 'BTCUSDT', '96000');
      const accepted = server.clock.now();
      const answer = await place(server, user.token, { amount: '100', direction: 'up' }, 'ja-jp');
      expect(answer).toMatchObject({ code: 1000, msg: '契約を注文しました。' });
      const opening = {
        id: expect.any(String),
        symbol: 'BTCUSDT',
        direction: 'up',
        period: 60,
        amount: '100.00000000',
        funding: 'real',
        ratio: '0.80',
        status: 'opening',
        result: null,
        open_price: null,
        open_at: null,
        open_source: null,
        open_constituents: null,
        expires_at: accepted + 60_000,
        close_price: null,
        close_at: null,
        close_source: null,
        close_constituents: null,
        profit: null,
        settled_at: null,
        created_at: accepted,
      };
      expect(answer.data).toEqual(opening);
      expect(await balanceOf(server, user.token, 'USDT')).toEqual({
        available: '9900.00000000',
        frozen: '100.00000000',
      });
      // the tick it was placed after is not its opening one: the next recorded tick is
      await deliveryOf(server).service.runSettlement();
      const read = () =>
        server.call('GET', '/Contract/cbillinfo', { id: answer.data.id }, { token: user.token });
      expect((await read()).data).toEqual(opening);
      const opened = accepted + 700;
      await indexTick(server, 'BTCUSDT', '96010', opened);
      await indexTick(server, 'BTCUSDT', '96020', opened + 1000);
      await advance(server, 1000);
      expect((await read()).data).toEqual({
        ...opening,
        status: 'open',
        open_price: '96010.00000000',
        open_at: opened,
        open_source: 'test',
        open_constituents: [
          { source: 'test', price: '96010.00000000', at: opened, used: true, reason: null },
        ],
        expires_at: opened + 60_000,
      });
      // a tick before expiry is not the closing one; the first at or after it is
      await indexTick(server, 'BTCUSDT', '90000', opened + 59_000);
      await indexTick(server, 'BTCUSDT', '96010.5', opened + 60_500);
      await indexTick(server, 'BTCUSDT', '80000', opened + 61_000);
      await advance(server, 62_000);
      const detail = await server.call(
        'GET',
        '/Contract/cbillinfo',
        { id: answer.data.id },
        { token: user.token },
      );
      expect(detail.data).toMatchObject({
        status: 'settled',
        result: 'win',
        close_price: '96010.50000000',
        close_at: opened + 60_500,
        close_source: 'test',
        close_constituents: [
          { source: 'test', price: '96010.50000000', at: opened + 60_500, used: true, reason: null },
        ],
        profit: '80.00000000',
      });
      expect(await balanceOf(server, user.token, 'USDT')).toEqual({
        available: '10080.00000000',
        frozen: '0.00000000',
      });
      const settled = await server.call(
        'GET',
        '/Contract/ctbill',
        { status: 'settled' },
        { token: user.token },
      );
      expect(settled.data).toMatchObject({ page: 1, has_more: false });
      expect(settled.data.list.map((c: { id: string }) => c.id)).toEqual([answer.data.id]);
      const open = await server.call('GET', '/Contract/ctbill', {}, { token: user.token });
      expect(open.data.list).toEqual([]);
    });

    it('refunds a contract that no index tick opens within the grace period', async () => {
      const user = await newTrader(server);
      await indexTick(server, 'BTCUSDT', '96000');
      const placed = await place(server, user.token, { amount: '100', direction: 'down', period: 180 });
      expect(placed.data).toMatchObject({ status: 'opening', open_price: null });
      const read = () =>
        server.call('GET', '/Contract/cbillinfo', { id: placed.data.id }, { token: user.token });
      // still waiting a second before the grace period ends, its amount held all along
      expect(await advance(server, 299_000)).toMatchObject({ opened: 0, closed: 0 });
      expect((await read()).data.status).toBe('opening');
      expect(await balanceOf(server, user.token, 'USDT')).toEqual({
        available: '9900.00000000',
        frozen: '100.00000000',
      });
      expect(await advance(server, 1_000)).toMatchObject({ opened: 0, closed: 1 });
      expect((await read()).data).toMatchObject({
        status: 'closed',
        result: 'refund',
        open_price: null,
        close_price: null,
        close_constituents: null,
        profit: '0.00000000',
      });
      expect(await balanceOf(server, user.token, 'USDT')).toEqual({
        available: '10000.00000000',
        frozen: '0.00000000',
      });
      // a tick that comes after the refund opens nothing
      await indexTick(server, 'BTCUSDT', '96001');
      expect(await advance(server, 1_000)).toMatchObject({ opened: 0 });
      expect((await read()).data.status).toBe('closed');
    });

    it('opens a contract once, and refunds one once, when settlement runs race', async () => {
      const user = await newTrader(server);
      await indexTick(server, 'ETHUSDT', '3000');
      const opening = await place(server, user.token, { symbol: 'ETHUSDT', amount: '100' });
      const second = await place(server, user.token, { symbol: 'ETHUSDT', amount: '50', period: 180 });
      await indexTick(server, 'ETHUSDT', '3001', opening.data.created_at + 1);
      const runs = () =>
        Promise.all(Array.from({ length: 4 }, () => deliveryOf(server).service.runSettlement()));
      const opened = await runs();
      expect(opened.reduce((sum, run) => sum + run.opened, 0)).toBe(2);
      const read = async (id: string) =>
        (await server.call('GET', '/Contract/cbillinfo', { id }, { token: user.token })).data;
      expect(await read(opening.data.id)).toMatchObject({ status: 'open', open_price: '3001.00000000' });
      // a third contract no tick opens: past the grace period, four racing runs refund it once
      await server.clock.advance(1);
      const late = await place(server, user.token, { symbol: 'ETHUSDT', amount: '30', period: 300 });
      await server.clock.advance(301_000);
      const closed = await runs();
      expect(closed.reduce((sum, run) => sum + run.closed, 0)).toBe(1);
      expect(await read(late.data.id)).toMatchObject({ status: 'closed', result: 'refund' });
      const entries = await server.app.ctx.store.db
        .selectFrom('journal_entries')
        .select('id')
        .where('ref', '=', `contract:${late.data.id}`)
        .execute();
      // its placement and its one refund
      expect(entries).toHaveLength(2);
      // the other, opened at the same tick, ran out with no closing tick yet: it waits
      expect(await read(second.data.id)).toMatchObject({ status: 'settling' });
    });

    it('settles a loss to the house and a draw as a refund', async () => {
      const user = await newTrader(server);
      await indexTick(server, 'BTCUSDT', '50000');
      const opened = server.clock.now() + 1;
      const up = await placeOpen(server, user.token, { amount: '200', direction: 'up' }, '50000');
      const down = await placeOpen(
        server,
        user.token,
        { amount: '300', direction: 'down', period: 180 },
        '50000',
      );
      expect([up.code, down.code]).toEqual([1000, 1000]);
      await indexTick(server, 'BTCUSDT', '49999.99', opened + 60_000);
      await indexTick(server, 'BTCUSDT', '50000', opened + 180_000);
      await advance(server, 181_000);
      const lost = await server.call('GET', '/Contract/cbillinfo', { id: up.data.id }, { token: user.token });
      expect(lost.data).toMatchObject({ status: 'settled', result: 'loss', profit: '-200.00000000' });
      const drawn = await server.call(
        'GET',
        '/Contract/cbillinfo',
        { id: down.data.id },
        { token: user.token },
      );
      expect(drawn.data).toMatchObject({
        status: 'settled',
        result: 'draw',
        profit: '0.00000000',
        ratio: '0.85',
      });
      expect(await balanceOf(server, user.token, 'USDT')).toEqual({
        available: '9800.00000000',
        frozen: '0.00000000',
      });
    });

    it('pays a trial win: principal back to trial money, profit locked in trial profit; neither is withdrawable', async () => {
      const user = await newTrader(server, { usdt: false });
      await indexTick(server, 'ETHUSDT', '3000');
      const opened = server.clock.now() + 1;
      const answer = await placeOpen(
        server,
        user.token,
        { symbol: 'ETHUSDT', amount: '500', period: 300, trial: '1' },
        '3000',
      );
      expect(answer.data).toMatchObject({ funding: 'trial', ratio: '0.90', status: 'open' });
      expect((await page(server, user.token)).balance).toEqual({
        usdt: '0.00000000',
        trial: '500.00000000',
        trial_profit: '0.00000000',
      });
      await indexTick(server, 'ETHUSDT', '3001', opened + 300_000);
      await advance(server, 301_000);
      const data = await page(server, user.token);
      // the profit, 500 × 0.90, is locked until 40 × 450 of real turnover (docs/trial-money.md)
      expect(data.balance).toEqual({
        usdt: '0.00000000',
        trial: '1000.00000000',
        trial_profit: '450.00000000',
      });
      expect(data.trial_turnover_left).toBe('18000.00000000');
      expect(data.trial_grants[0]).toMatchObject({
        remaining: '1000.00000000',
        profit_paid: '450.00000000',
        profit_locked: '450.00000000',
        turnover_left: '18000.00000000',
      });
      expect(await balanceOf(server, user.token, 'USDT')).toEqual({
        available: '0.00000000',
        frozen: '0.00000000',
      });
      // the wallet sees only released real money: a withdrawal of trial money or profit is refused
      const refused = await withdraw(server, user.token, { coin: 'USDT', amount: '400', paypassword: 'x' });
      expect(refused.code).not.toBe(1000);
      const overview = await server.call('GET', '/Finance/index', {}, { token: user.token });
      expect(overview.data.coins.find((c: { coin: string }) => c.coin === 'USDT').total).toBe('0.00000000');
    });

    it('caps a trial grant’s profit and then refuses it', async () => {
      const user = await newTrader(server, { usdt: false });
      await indexTick(server, 'BTCUSDT', '100');
      const opened = server.clock.now() + 1;
      // 1000 × 0.95 = 950, then 1000 × 0.95 more would pass the cap of 1000: only 50 is paid
      const first = await placeOpen(server, user.token, { amount: '1000', period: 900, trial: '1' }, '100');
      expect(first.code).toBe(1000);
      await indexTick(server, 'BTCUSDT', '101', opened + 900_000);
      await advance(server, 901_000);
      await indexTick(server, 'BTCUSDT', '101');
      const again = server.clock.now() + 1;
      const second = await placeOpen(server, user.token, { amount: '1000', period: 900, trial: '1' }, '101');
      expect(second.code).toBe(1000);
      await indexTick(server, 'BTCUSDT', '102', again + 900_000);
      await advance(server, 901_000);
      const detail = await server.call(
        'GET',
        '/Contract/cbillinfo',
        { id: second.data.id },
        { token: user.token },
      );
      expect(detail.data).toMatchObject({ result: 'win', profit: '50.00000000' });
      const data = await page(server, user.token);
      expect(data.balance).toEqual({
        usdt: '0.00000000',
        trial: '1000.00000000',
        trial_profit: '1000.00000000',
      });
      await indexTick(server, 'BTCUSDT', '102');
      const capped = await place(server, user.token, { amount: '10', trial: '1' }, 'zh-cn');
      expect(capped).toMatchObject({ code: 7009, msg: '体验金收益已达上限。' });
    });

    it('answers every refusal with its message and changes nothing', async () => {
      const user = await newTrader(server);
      const other = await newTrader(server);
      await indexTick(server, 'BTCUSDT', '96000');
      const cases: [Record<string, string | number>, number][] = [
        [{ symbol: 'NOPEUSDT' }, 7001],
        [{ period: 120 }, 7003],
        [{ amount: '9.99' }, 3006],
        [{ amount: '10000.01' }, 3007],
        [{ amount: 'abc' }, 3005],
        [{ direction: 'sideways' }, 1001],
      ];
      for (const [fields, code] of cases) expect((await place(server, user.token, fields)).code).toBe(code);
      const poor = await newTrader(server, { usdt: false });
      expect(await place(server, poor.token, { amount: '10' })).toMatchObject({
        code: 7006,
        msg: 'Insufficient USDT balance.',
      });
      expect((await place(server, poor.token, { amount: '1000.01', trial: '1' })).code).toBe(7007);
      // a trial contract may not be hedged by an opposite one, in either order
      expect((await place(server, user.token, { amount: '10', trial: '1' })).code).toBe(1000);
      // each case says what is in the way: the user's own trial contract, or a real one
      expect(await place(server, user.token, { amount: '10', direction: 'down' })).toMatchObject({
        code: 7010,
        msg: 'You hold an open trial contract in the opposite direction on this market.',
      });
      expect((await place(server, other.token, { amount: '10', direction: 'down' })).code).toBe(1000);
      expect(await place(server, other.token, { amount: '10', trial: '1' }, 'fr-fr')).toMatchObject({
        code: 7031,
        msg: 'Vous détenez un contrat ouvert dans le sens opposé sur ce marché : l’argent d’essai ne peut pas être placé contre lui.',
      });
      // the same key with other details
      const key = randomUUID();
      const first = await place(server, user.token, { amount: '11', idempotency_key: key });
      expect(first.code).toBe(1000);
      const repeat = await place(server, user.token, { amount: '11', idempotency_key: key });
      expect(repeat.data.id).toBe(first.data.id);
      expect((await place(server, user.token, { amount: '12', idempotency_key: key })).code).toBe(3021);
      // someone else's contract is not found
      const foreign = await server.call(
        'GET',
        '/Contract/cbillinfo',
        { id: first.data.id },
        { token: other.token },
      );
      expect(foreign.code).toBe(3024);
      // a closed product and a trading ban
      await deliveryOf(server).backOffice.saveProduct(STAFF, {
        symbol: 'LTCUSDT',
        status: 'closed',
        maxExposure: toAtoms('1000'),
        periods: [{ seconds: 60, ratioBps: 8000n, min: toAtoms('10'), max: toAtoms('100') }],
      });
      await indexTick(server, 'LTCUSDT', '80');
      expect((await place(server, user.token, { symbol: 'LTCUSDT', amount: '10' })).code).toBe(7001);
      const ban = await callAdmin(server, 'POST', `/users/${other.uid}/trade-ban`, { banned: true }, owner);
      expect(ban.code).toBe(1000);
      expect(await place(server, other.token, { amount: '10' }, 'de-de')).toMatchObject({
        code: 7002,
        msg: 'Für dieses Konto ist der Handel gesperrt.',
      });
      expect(await balanceOf(server, poor.token, 'USDT')).toEqual({
        available: '0.00000000',
        frozen: '0.00000000',
      });
    });

    it('never lets a burst pass the exposure cap of a market and direction', async () => {
      await deliveryOf(server).backOffice.saveProduct(STAFF, {
        symbol: 'SOLUSDT',
        status: 'open',
        maxExposure: toAtoms('100'),
        periods: [{ seconds: 60, ratioBps: 8000n, min: toAtoms('10'), max: toAtoms('100') }],
      });
      await indexTick(server, 'SOLUSDT', '150');
      const users = await Promise.all([0, 1, 2, 3, 4].map(() => newTrader(server)));
      const answers = await Promise.all(
        users.map((u) => place(server, u.token, { symbol: 'SOLUSDT', amount: '30' })),
      );
      const codes = answers.map((a) => a.code).sort();
      expect(codes).toEqual([1000, 1000, 1000, 7004, 7004]);
      // the other direction has its own cap
      expect(
        (await place(server, users[0]!.token, { symbol: 'SOLUSDT', amount: '100', direction: 'down' })).code,
      ).toBe(1000);
      const exposure = await callAdmin(server, 'GET', '/delivery/exposure', undefined, owner);
      expect(exposure.data.filter((e: { symbol: string }) => e.symbol === 'SOLUSDT')).toEqual([
        {
          symbol: 'SOLUSDT',
          direction: 'up',
          openCount: 3,
          open: '90.00000000',
          potentialPayout: '162.00000000',
          maxExposure: '100.00000000',
        },
        {
          symbol: 'SOLUSDT',
          direction: 'down',
          openCount: 1,
          open: '100.00000000',
          potentialPayout: '180.00000000',
          maxExposure: '100.00000000',
        },
      ]);
    });

    it('applies a changed ratio to later contracts only, audited', async () => {
      const user = await newTrader(server);
      await indexTick(server, 'XRPUSDT', '2');
      const before = await placeOpen(server, user.token, { symbol: 'XRPUSDT', amount: '100' }, '2');
      expect(before.data.ratio).toBe('0.80');
      const saved = await callAdmin(
        server,
        'POST',
        '/delivery/products/XRPUSDT',
        {
          status: 'open',
          maxExposure: '100000',
          periods: [{ seconds: 60, ratio: '0.5', min: '10', max: '10000' }],
        },
        owner,
      );
      expect(saved.code).toBe(1000);
      const after = await placeOpen(server, user.token, { symbol: 'XRPUSDT', amount: '100' }, '2');
      expect(after.data.ratio).toBe('0.50');
      await indexTick(server, 'XRPUSDT', '2.1', after.data.expires_at);
      await advance(server, 61_000);
      const first = await server.call(
        'GET',
        '/Contract/cbillinfo',
        { id: before.data.id },
        { token: user.token },
      );
      const second = await server.call(
        'GET',
        '/Contract/cbillinfo',
        { id: after.data.id },
        { token: user.token },
      );
      expect([first.data.profit, second.data.profit]).toEqual(['80.00000000', '50.00000000']);
      const audit = await server.app.ctx.audit.list(server.app.ctx.store.db, {
        action: 'delivery.product.save',
        target: 'delivery:XRPUSDT',
        limit: 10,
      });
      expect(audit).toHaveLength(1);
      expect(audit[0]?.actor).toMatch(/^staff:\d+$/);
      const products = await callAdmin(server, 'GET', '/delivery/products', undefined, owner);
      expect(products.data.find((p: { symbol: string }) => p.symbol === 'XRPUSDT')).toMatchObject({
        configured: true,
        periods: [{ seconds: 60, ratio: '0.50', min: '10.00000000', max: '10000.00000000' }],
      });
    });

    it('has no staff path that edits a contract, and lists contracts with their settlement data', async () => {
      const user = await newTrader(server);
      await indexTick(server, 'BTCUSDT', '70000');
      const placed = await placeOpen(server, user.token, { amount: '50' }, '70000');
      const id = placed.data.id as string;
      const before = await callAdmin(server, 'GET', `/delivery/contracts/${id}`, undefined, owner);
      expect(before.data).toMatchObject({
        id,
        userId: String(user.uid),
        openPrice: '70000.00000000',
        status: 'open',
      });
      const edit = {
        status: 'settled',
        result: 'win',
        openPrice: '1',
        closePrice: '2',
        expiresAt: 0,
        ratio: '9',
      };
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
        for (const path of [
          `/delivery/contracts/${id}`,
          `/delivery/contracts/${id}/settle`,
          `/delivery/contracts/${id}/close`,
          '/delivery/contracts',
        ]) {
          const answer = await callAdmin(server, method, path, edit, owner);
          expect(answer.status === 404 || answer.code === 1005).toBe(true);
        }
      }
      const after = await callAdmin(server, 'GET', `/delivery/contracts/${id}`, undefined, owner);
      expect(after.data).toEqual(before.data);
      const list = await callAdmin(server, 'GET', '/delivery/contracts', { userId: String(user.uid) }, owner);
      expect(list.data.list.map((c: { id: string }) => c.id)).toEqual([id]);
      const pnl = await callAdmin(server, 'GET', '/delivery/pnl', undefined, owner);
      expect(pnl.code).toBe(1000);
      expect(pnl.data.total.contracts).toBeGreaterThan(0);
    });

    it('grants campaign trial money from a plan, audited and once per key', async () => {
      const user = await newTrader(server, { usdt: false });
      const plan = await callAdmin(
        server,
        'POST',
        '/delivery/trial-plans',
        {
          name: 'autumn',
          amount: '250',
          validityDays: 3,
          profitCapPercent: 50,
          trigger: 'campaign',
          active: true,
        },
        owner,
      );
      expect(plan.code).toBe(1000);
      const key = randomUUID();
      const body = { userId: String(user.uid), planId: plan.data.id, key };
      const granted = await callAdmin(server, 'POST', '/delivery/trial-grants', body, owner);
      expect(granted.data).toMatchObject({
        name: 'autumn',
        amount: '250.00000000',
        profitCap: '125.00000000',
        status: 'active',
      });
      const again = await callAdmin(server, 'POST', '/delivery/trial-grants', body, owner);
      expect(again.data.id).toBe(granted.data.id);
      expect((await page(server, user.token)).balance.trial).toBe('1250.00000000');
      // a double click: the same submission four times at once is the one grant, answered to each
      const other = await newTrader(server, { usdt: false });
      const burst = { userId: String(other.uid), planId: plan.data.id, key: randomUUID() };
      const answers = await Promise.all(
        Array.from({ length: 4 }, () => callAdmin(server, 'POST', '/delivery/trial-grants', burst, owner)),
      );
      expect(answers.map((a) => a.code)).toEqual([1000, 1000, 1000, 1000]);
      expect(new Set(answers.map((a) => a.data.id)).size).toBe(1);
      expect((await page(server, other.token)).balance.trial).toBe('1250.00000000');
      const plans = await callAdmin(server, 'GET', '/delivery/trial-plans', undefined, owner);
      expect(plans.data.map((p: { name: string }) => p.name)).toEqual(['signup', 'autumn']);
      const audit = await server.app.ctx.audit.list(server.app.ctx.store.db, {
        action: 'delivery.trial.grant',
        limit: 10,
      });
      expect(audit).toHaveLength(2);
    });

    it('expires trial money: what is left returns to the trial account and the grant refuses', async () => {
      const user = await newTrader(server, { usdt: false });
      await advance(server, 7 * 24 * 3600_000 + 1000);
      const data = await page(server, user.token);
      expect(data.balance.trial).toBe('0.00000000');
      expect(data.trial_grants[0]).toMatchObject({ status: 'expired', remaining: '0.00000000' });
      await indexTick(server, 'BTCUSDT', '96000');
      expect(await place(server, user.token, { amount: '10', trial: '1' })).toMatchObject({
        code: 7008,
        msg: 'Your trial money has expired.',
      });
    });

    it('pages the settled tab by `before` as by page number, and shows no one else’s contracts', async () => {
      const [mine, other] = [
        await newTrader(server, { usdt: false }),
        await newTrader(server, { usdt: false }),
      ];
      const db = server.app.ctx.store.db;
      const at = BigInt(server.clock.now());
      // why: settled contracts written straight to the store: the list is what is tested, and a
      // settled contract holds no money.
      const contract = async (userId: bigint, status: 'settled' | 'closed') =>
        String(
          (
            await db
              .insertInto('delivery_contracts')
              .values({
                user_id: userId,
                symbol: 'BTCUSDT',
                direction: 'up',
                period: 60n,
                amount: 10n * 100_000_000n,
                funding: 'real',
                grant_id: null,
                ratio_bps: 8000n,
                open_price: 96_000n * 100_000_000n,
                open_price_at: at,
                open_source: 'test',
                open_constituents: null,
                opened_at: at,
                expires_at: at + 60_000n,
                status,
                result: status === 'settled' ? 'loss' : 'refund',
                close_price: 95_000n * 100_000_000n,
                close_at: at + 60_000n,
                close_source: 'test',
                close_constituents: null,
                payout: status === 'settled' ? 0n : 10n * 100_000_000n,
                profit: status === 'settled' ? -10n * 100_000_000n : 0n,
                settled_at: at + 60_000n,
                idempotency_key: randomUUID(),
              })
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id,
        );
      const contracts = { mine: [] as string[], theirs: [] as string[] };
      for (let i = 0; i < 45; i++) {
        // why: the tab merges two statuses, each read by its own seek.
        contracts.mine.push(await contract(mine.userId, i % 3 === 0 ? 'closed' : 'settled'));
        if (i % 10 === 3) contracts.theirs.push(await contract(other.userId, 'settled'));
      }
      await expectHistoryPaging(
        (paging) =>
          server.call(
            'GET',
            '/Contract/ctbill',
            { status: 'settled', ...paging },
            { token: mine.token, lang: 'en-us' },
          ),
        contracts,
      );
      const open = await server.call(
        'GET',
        '/Contract/ctbill',
        { before: contracts.mine[44] },
        { token: mine.token },
      );
      expect(open.data).toEqual({ list: [], page: 1, has_more: false });
    });
  });
});
