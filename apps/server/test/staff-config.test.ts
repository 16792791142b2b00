import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAdmin, DIALECTS, startServer, type TestServer } from './harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';
import { ADDRESSES, balanceOf, fund, newUser, withdrawUsdt } from './wallet-harness.ts';

/** Signs a staff member in for the first time (TOTP enrolment, and a new password when asked). */
async function enrol(server: TestServer, username: string, password: string, newPassword?: string) {
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

/** The USDT TRC20 network as the demo seeds it, in the wire shape of `POST /config/networks`. */
const TRC20 = {
  coin: 'USDT',
  network: 'TRC20',
  addressFormat: 'trx',
  depositAddress: ADDRESSES.trx,
  minDeposit: '10',
  minWithdraw: '10',
  maxWithdraw: '100000',
  withdrawFee: '1',
  enabled: true,
};

describe.each(DIALECTS)('back-office configuration on $name', ({ name, skip }) => {
  describe.skipIf(skip)('coins, networks, deposit addresses, limits and fees', () => {
    let server: TestServer;
    let owner = '';
    let support = '';
    let finance = '';

    const auditOf = (action: string) =>
      server.app.ctx.audit.list(server.app.ctx.store.db, { action, limit: 200 });
    const usdtTrc20 = async () => {
      const config = await callAdmin(server, 'GET', '/config/coins', undefined, owner);
      const usdt = config.data.coins.find((c: { coin: string }) => c.coin === 'USDT');
      return usdt.networks.find((n: { network: string }) => n.network === 'TRC20');
    };

    beforeAll(async () => {
      server = await startServer(name, {
        env: { ADMIN_USER: 'boss', ADMIN_PASSWORD: 'owner-pass-1', DEMO: 'on' },
      });
      owner = await enrol(server, 'boss', 'owner-pass-1');
      for (const role of ['support', 'finance']) {
        const created = await callAdmin(
          server,
          'POST',
          '/staff',
          { username: `${role}1`, password: 'initial-pass', role },
          owner,
        );
        expect(created.code).toBe(1000);
      }
      support = await enrol(server, 'support1', 'initial-pass', 'support-pass-2');
      finance = await enrol(server, 'finance1', 'initial-pass', 'finance-pass-2');
    });
    afterAll(async () => {
      await expectLedgerInvariants(server);
      await server?.close();
    });

    it('lists every coin with its switches and its networks, amounts as decimal strings', async () => {
      const answer = await callAdmin(server, 'GET', '/config/coins', undefined, owner);
      expect(answer.code).toBe(1000);
      expect(answer.data.addressFormats).toEqual(['btc', 'eth', 'trx', 'ltc', 'doge', 'xrp', 'sol', 'bank']);
      expect(answer.data.coins.map((c: { coin: string }) => c.coin)).toEqual(
        expect.arrayContaining(['USDT', 'BTC', 'ETH', 'XRP']),
      );
      const usdt = answer.data.coins.find((c: { coin: string }) => c.coin === 'USDT');
      expect(usdt).toMatchObject({
        coin: 'USDT',
        displayDecimals: 8,
        convertible: true,
        depositEnabled: true,
        withdrawEnabled: true,
      });
      expect(usdt.networks.map((n: { network: string }) => n.network)).toEqual(['TRC20', 'ERC20', 'BANK']);
      expect(usdt.networks[0]).toEqual({
        coin: 'USDT',
        network: 'TRC20',
        addressFormat: 'trx',
        depositAddress: 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb',
        minDeposit: '10.00000000',
        minWithdraw: '10.00000000',
        maxWithdraw: '100000.00000000',
        withdrawFee: '1.00000000',
        enabled: true,
        sort: 1,
      });
      // finance may read the configuration, not change it
      expect((await callAdmin(server, 'GET', '/config/coins', undefined, finance)).code).toBe(1000);
    });

    it('saves a new fee that the customer’s withdrawal page shows and a withdrawal freezes', async () => {
      const saved = await callAdmin(
        server,
        'POST',
        '/config/networks',
        { ...TRC20, withdrawFee: '2.5', maxWithdraw: '5000' },
        owner,
      );
      expect(saved).toMatchObject({ code: 1000, data: null });

      const user = await newUser(server);
      await fund(server, user, 'USDT', 'TRC20', '100');
      const page = await server.call('GET', '/Finance/txpage', { coin: 'USDT' }, { token: user.token });
      expect(page.code).toBe(1000);
      expect(page.data.networks[0]).toEqual({
        network: 'TRC20',
        type: 'address',
        min_withdraw: '10.00000000',
        max_withdraw: '5000.00000000',
        fee: '2.50000000',
      });
      const requested = await withdrawUsdt(server, user, '20');
      expect(requested.data).toMatchObject({ amount: '20.00000000', fee: '2.50000000', status: 'review' });
      expect(await balanceOf(server, user.token, 'USDT')).toEqual({
        available: '77.50000000',
        frozen: '22.50000000',
      });

      const rows = await auditOf('wallet.network.save');
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        actor: expect.stringMatching(/^staff:\d+$/),
        target: 'network:USDT:TRC20',
        // the audit log shows amounts as decimal strings, not atoms
        before: {
          withdraw_fee: '1.00000000',
          max_withdraw: '100000.00000000',
          deposit_address: 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb',
        },
        after: {
          withdraw_fee: '2.50000000',
          max_withdraw: '5000.00000000',
          deposit_address: ADDRESSES.trx,
          sort: '1',
        },
      });
    });

    it('refuses a deposit address with a bad checksum, and changes nothing', async () => {
      const before = await usdtTrc20();
      const answer = await callAdmin(
        server,
        'POST',
        '/config/networks',
        { ...TRC20, depositAddress: ADDRESSES.trxBadChecksum },
        owner,
      );
      expect(answer).toMatchObject({ code: 3009, msg: 'This address is not valid for the chosen network.' });
      // an address of another chain is no TRON address either
      const eth = await callAdmin(
        server,
        'POST',
        '/config/networks',
        { ...TRC20, depositAddress: ADDRESSES.eth },
        owner,
      );
      expect(eth.code).toBe(3009);
      expect(await usdtTrc20()).toEqual(before);
      expect(await auditOf('wallet.network.save')).toHaveLength(1);
    });

    it('refuses min > max, negative or over-precise amounts, and unknown coins or formats', async () => {
      const before = await usdtTrc20();
      const cases: [Record<string, unknown>, number][] = [
        [{ minWithdraw: '600', maxWithdraw: '500' }, 6008],
        [{ withdrawFee: '-1' }, 6007],
        [{ minDeposit: '0.000000001' }, 6007],
        [{ withdrawFee: '1e3' }, 6007],
        [{ maxWithdraw: 100 }, 6007],
        [{ coin: 'NOPE' }, 3010],
        [{ addressFormat: 'xyz' }, 1001],
        [{ withdrawFee: undefined }, 1002],
      ];
      for (const [change, code] of cases) {
        const answer = await callAdmin(server, 'POST', '/config/networks', { ...TRC20, ...change }, owner);
        expect({ change, code: answer.code }).toEqual({ change, code });
      }
      const limits = await callAdmin(
        server,
        'POST',
        '/config/networks',
        { ...TRC20, minWithdraw: '600', maxWithdraw: '500' },
        owner,
      );
      expect(limits.msg).toBe('The minimum withdrawal must not be above the maximum.');
      expect(await usdtTrc20()).toEqual(before);
      expect(await auditOf('wallet.network.save')).toHaveLength(1);
    });

    it('creates a network (maximum 0 = none) and saves a coin’s switches, audited with before/after', async () => {
      const created = await callAdmin(
        server,
        'POST',
        '/config/networks',
        {
          coin: 'USDT',
          network: 'BEP20',
          addressFormat: 'eth',
          depositAddress: ADDRESSES.eth,
          minDeposit: '1',
          minWithdraw: '5',
          maxWithdraw: '0',
          withdrawFee: '0.12345678',
          enabled: 'false',
          sort: 4,
        },
        owner,
      );
      expect(created.code).toBe(1000);
      const config = await callAdmin(server, 'GET', '/config/coins', undefined, owner);
      const usdt = config.data.coins.find((c: { coin: string }) => c.coin === 'USDT');
      expect(usdt.networks.at(-1)).toEqual({
        coin: 'USDT',
        network: 'BEP20',
        addressFormat: 'eth',
        depositAddress: ADDRESSES.eth,
        minDeposit: '1.00000000',
        minWithdraw: '5.00000000',
        maxWithdraw: '0.00000000',
        withdrawFee: '0.12345678',
        enabled: false,
        sort: 4,
      });
      const rows = await auditOf('wallet.network.save');
      expect(rows[0]).toMatchObject({ target: 'network:USDT:BEP20', before: null });

      const coin = await callAdmin(
        server,
        'POST',
        '/config/coins/BTC',
        { convertible: false, depositEnabled: true, withdrawEnabled: false, displayDecimals: 6 },
        owner,
      );
      expect(coin.code).toBe(1000);
      const after = await callAdmin(server, 'GET', '/config/coins', undefined, owner);
      expect(after.data.coins.find((c: { coin: string }) => c.coin === 'BTC')).toMatchObject({
        convertible: false,
        depositEnabled: true,
        withdrawEnabled: false,
        displayDecimals: 6,
      });
      const coinRows = await auditOf('wallet.coin.save');
      expect(coinRows).toHaveLength(1);
      expect(coinRows[0]).toMatchObject({
        target: 'coin:BTC',
        before: { convertible: '1', withdraw_enabled: '1', display_decimals: '8' },
        after: { convertible: '0', withdraw_enabled: '0', display_decimals: '6' },
      });
      // the customer can no longer withdraw BTC
      const user = await newUser(server);
      const page = await server.call(
        'GET',
        '/Finance/txpage',
        { coin: 'BTC' },
        { token: user.token, lang: 'en-us' },
      );
      expect(page.code).toBe(3013);

      expect(
        (
          await callAdmin(
            server,
            'POST',
            '/config/coins/NOPE',
            { ...{ convertible: true, depositEnabled: true, withdrawEnabled: true, displayDecimals: 8 } },
            owner,
          )
        ).code,
      ).toBe(3010);
      expect(
        (
          await callAdmin(
            server,
            'POST',
            '/config/coins/BTC',
            { convertible: true, depositEnabled: true, withdrawEnabled: true, displayDecimals: 9 },
            owner,
          )
        ).code,
      ).toBe(1001);
    });

    it('refuses every change to support and finance with the exact forbidden code', async () => {
      const before = await callAdmin(server, 'GET', '/config/coins', undefined, owner);
      for (const token of [support, finance]) {
        expect(
          await callAdmin(server, 'POST', '/config/networks', { ...TRC20, withdrawFee: '0' }, token),
        ).toMatchObject({
          status: 200,
          code: 6002,
          msg: 'Your role does not allow this action.',
          data: null,
        });
        expect(
          (
            await callAdmin(
              server,
              'POST',
              '/config/coins/USDT',
              { convertible: false, depositEnabled: false, withdrawEnabled: false, displayDecimals: 2 },
              token,
            )
          ).code,
        ).toBe(6002);
      }
      expect((await callAdmin(server, 'GET', '/config/coins', undefined, support)).code).toBe(6002);
      expect((await callAdmin(server, 'GET', '/config/coins')).code).toBe(100);
      expect(await callAdmin(server, 'GET', '/config/coins', undefined, owner)).toEqual(before);
    });
  });
});
