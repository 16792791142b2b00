import { randomUUID } from 'node:crypto';
import { toAtoms } from '@bourse/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, registerAndLogin, type TestServer } from './harness.ts';
import { expectHistoryPaging } from './history-harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';
import {
  ADDRESSES,
  balanceOf,
  fund,
  newUser,
  pngImage,
  postDeposit,
  STAFF,
  saveAddress,
  startWalletServer,
  walletOf,
  withdraw,
} from './wallet-harness.ts';

describe.each(DIALECTS)('wallet over HTTP on $name', ({ name, skip }) => {
  describe.skipIf(skip)('', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startWalletServer(name);
    });
    afterAll(async () => {
      await expectLedgerInvariants(server);
      await server?.close();
    });

    it('gives the demo accounts their demo credit, visible in the bills', async () => {
      for (const username of ['demo', 'demo2']) {
        const login = await server.call('POST', '/Login/loginsubmit', { email: username, lpwd: 'demo1234' });
        const token = login.data.token as string;
        const assets = await server.call('GET', '/Finance/index', {}, { token });
        expect(assets.code).toBe(1000);
        const byCoin = Object.fromEntries(assets.data.coins.map((c: { coin: string }) => [c.coin, c]));
        expect(byCoin.USDT).toMatchObject({
          available: '10000.00000000',
          frozen: '0.00000000',
          price: '1.00000000',
        });
        expect(byCoin.BTC.available).toBe('0.50000000');
        expect(byCoin.ETH.available).toBe('5.00000000');
        const bills = await server.call('GET', '/user/mybill', {}, { token });
        // why: the demo seed approves demo2's identity after crediting it, and an approved identity
        // gets the sign-up trial grant; demo is left unverified (docs/trial-money.md).
        expect(bills.data.list.map((b: { type: string; kind: string }) => [b.type, b.kind])).toEqual([
          ...(username === 'demo2' ? [['trial.grant', 'trial']] : []),
          ['demo.credit', 'available'],
          ['demo.credit', 'available'],
          ['demo.credit', 'available'],
        ]);
        expect(
          bills.data.list.find(
            (b: { coin: string; type: string }) => b.coin === 'USDT' && b.type === 'demo.credit',
          ),
        ).toMatchObject({
          amount: '10000.00000000',
          balance_after: '10000.00000000',
          kind: 'available',
        });
      }
    });

    it('answers the assets overview, totals and per-coin calls, valued at the index price', async () => {
      const user = await newUser(server);
      await fund(server, user, 'USDT', 'TRC20', '100');
      const overview = await server.call('GET', '/Finance/index', {}, { token: user.token });
      expect(overview.data.total_usdt).toBe('100.00000000');
      const btc = overview.data.coins.find((c: { coin: string }) => c.coin === 'BTC');
      expect(btc).toMatchObject({
        available: '0.00000000',
        can_deposit: true,
        can_withdraw: true,
        can_convert: true,
      });
      expect(Number(btc.price)).toBeGreaterThan(1000);
      const xrp = overview.data.coins.find((c: { coin: string }) => c.coin === 'XRP');
      expect(xrp).toMatchObject({ can_deposit: false, can_withdraw: false });

      expect((await server.call('GET', '/Finance/getallzhehe', {}, { token: user.token })).data).toEqual({
        total_usdt: '100.00000000',
      });
      // the spec's user home: the profile and the same overview in one call
      const home = await server.call('GET', '/user/index', {}, { token: user.token });
      expect(home.code).toBe(1000);
      const profile = await server.call('GET', '/User/getUserInfo', {}, { token: user.token });
      expect(home.data).toEqual({ ...overview.data, userInfo: profile.data.userInfo });
      expect(
        (await server.call('GET', '/Finance/getmoney', { coin: 'usdt' }, { token: user.token })).data,
      ).toEqual({
        coin: 'USDT',
        available: '100.00000000',
        frozen: '0.00000000',
      });
      expect(
        (await server.call('POST', '/Finance/getcoinnum', { coin: 'USDT' }, { token: user.token })).data
          .available,
      ).toBe('100.00000000');
      const info = await server.call('GET', '/Finance/coininfo', { coin: 'USDT' }, { token: user.token });
      expect(info.data).toMatchObject({ coin: 'USDT', total: '100.00000000', usdt_value: '100.00000000' });
      const unknown = await server.call(
        'GET',
        '/Finance/coininfo',
        { coin: 'NOPE' },
        { token: user.token, lang: 'en-us' },
      );
      expect(unknown).toMatchObject({ code: 3010, msg: 'This coin is not available.' });

      const symbol = await server.call('POST', '/Finance/getsymbol', { coin: 'USDT' }, { token: user.token });
      expect(symbol.data.price).toBe('1.00000000');
      expect(symbol.data.deposit_networks.map((n: { network: string }) => n.network)).toEqual([
        'TRC20',
        'ERC20',
      ]);
      expect(symbol.data.withdraw_networks.map((n: { network: string }) => n.network)).toEqual([
        'TRC20',
        'ERC20',
        'BANK',
      ]);

      const depositCoins = await server.call('GET', '/User/czcoin', {}, { token: user.token });
      const depositSymbols = depositCoins.data.map((c: { coin: string }) => c.coin);
      expect(depositSymbols).toContain('USDT');
      expect(depositSymbols).not.toContain('XRP');
      const withdrawCoins = await server.call('GET', '/Finance/txcoin', {}, { token: user.token });
      expect(withdrawCoins.data.find((c: { coin: string }) => c.coin === 'USDT').available).toBe(
        '100.00000000',
      );

      for (const path of [
        '/Finance/index',
        '/Finance/getallzhehe',
        '/user/index',
        '/User/czcoin',
        '/Finance/txcoin',
      ]) {
        expect((await server.call('GET', path)).code).toBe(100);
      }
    });

    it('takes a deposit with a voucher, then staff confirm it once', async () => {
      const user = await newUser(server);
      const page = await server.call('GET', '/Finance/czpage', { coin: 'USDT' }, { token: user.token });
      expect(page.data.networks).toEqual([
        { network: 'TRC20', address: 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb', min_deposit: '10.00000000' },
        {
          network: 'ERC20',
          address: '0x000000000000000000000000000000000000dEaD',
          min_deposit: '20.00000000',
        },
      ]);
      const xrp = await server.call('GET', '/Finance/czpage', { coin: 'XRP' }, { token: user.token });
      expect(xrp.code).toBe(3012);

      const image = { data: await pngImage(), filename: 'proof.png' };
      const below = await postDeposit(
        server,
        user.token,
        { coin: 'USDT', network: 'TRC20', amount: '9.99' },
        image,
      );
      expect(below).toMatchObject({ code: 3006, msg: 'The amount is below the minimum.' });
      const noVoucher = await postDeposit(server, user.token, {
        coin: 'USDT',
        network: 'TRC20',
        amount: '50',
      });
      expect(noVoucher).toMatchObject({ code: 3016, msg: 'Please upload the transfer voucher.' });
      const badNetwork = await postDeposit(
        server,
        user.token,
        { coin: 'USDT', network: 'BANK', amount: '50' },
        image,
      );
      expect(badNetwork.code).toBe(3011);
      const badAmount = await postDeposit(
        server,
        user.token,
        { coin: 'USDT', network: 'TRC20', amount: '1.123456789' },
        image,
      );
      expect(badAmount.code).toBe(3005);
      const noSession = await postDeposit(
        server,
        'not-a-token',
        { coin: 'USDT', network: 'TRC20', amount: '50' },
        image,
      );
      expect(noSession.code).toBe(100);

      const submitted = await postDeposit(
        server,
        user.token,
        { coin: 'USDT', network: 'TRC20', amount: '50', hash: 'abc123' },
        image,
      );
      expect(submitted).toMatchObject({
        code: 1000,
        msg: 'Deposit submitted. It will be credited after review.',
      });
      expect(submitted.data).toMatchObject({
        coin: 'USDT',
        network: 'TRC20',
        address: 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb',
        amount: '50.00000000',
        credited_amount: '0.00000000',
        hash: 'abc123',
        status: 'confirming',
        reviewed_at: null,
      });
      expect(submitted.data.voucher).toMatch(/^\/Upload\/public\/[0-9a-f]{32}\.webp$/);
      const voucher = await fetch(`${server.url}${submitted.data.voucher}`);
      expect(voucher.headers.get('content-type')).toBe('image/webp');

      const list = await server.call('GET', '/Finance/czlist', {}, { token: user.token });
      expect(list.data).toMatchObject({ page: 1, has_more: false });
      expect(list.data.list.map((d: { id: string }) => d.id)).toEqual([submitted.data.id]);
      const detail = await server.call(
        'GET',
        '/Finance/czinfo',
        { id: submitted.data.id },
        { token: user.token },
      );
      expect(detail.data).toEqual(submitted.data);
      expect((await balanceOf(server, user.token, 'USDT')).available).toBe('0.00000000');

      const wallet = walletOf(server);
      const depositId = BigInt(submitted.data.id);
      const confirmed = await wallet.confirmDeposit({
        depositId,
        creditedAmount: toAtoms('49.5'),
        staff: STAFF,
      });
      expect(confirmed).toMatchObject({
        status: 'credited',
        credited_amount: '49.50000000',
        reviewed_by: 'staff:7',
      });
      expect((await balanceOf(server, user.token, 'USDT')).available).toBe('49.50000000');
      await expect(
        wallet.confirmDeposit({ depositId, creditedAmount: 1n, staff: STAFF }),
      ).rejects.toMatchObject({
        key: 'ILLEGAL_OPERATION',
      });
      await expect(wallet.rejectDeposit({ depositId, reason: 'late', staff: STAFF })).rejects.toMatchObject({
        key: 'ILLEGAL_OPERATION',
      });
      expect((await balanceOf(server, user.token, 'USDT')).available).toBe('49.50000000');
      const audit = await server.app.ctx.audit.list(server.app.ctx.store.db, {
        target: `deposit:${depositId}`,
        limit: 10,
      });
      expect(audit.map((a) => a.action)).toEqual(['deposit.confirm']);

      const second = await postDeposit(
        server,
        user.token,
        { coin: 'USDT', network: 'ERC20', amount: '20' },
        image,
      );
      const rejected = await wallet.rejectDeposit({
        depositId: BigInt(second.data.id),
        reason: 'no such transfer',
        staff: STAFF,
      });
      expect(rejected).toMatchObject({
        status: 'rejected',
        reason: 'no such transfer',
        credited_amount: '0.00000000',
      });
      expect((await balanceOf(server, user.token, 'USDT')).available).toBe('49.50000000');
      const bills = await server.call('GET', '/user/mybill', { coin: 'USDT' }, { token: user.token });
      // why: no trial grant: trial money waits for a verified identity (docs/trial-money.md).
      expect(bills.data.list.map((b: { type: string }) => b.type)).toEqual(['deposit.credit']);
      expect(bills.data.list[0]).toMatchObject({
        type: 'deposit.credit',
        ref: `deposit:${depositId}`,
        amount: '49.50000000',
      });
      const bill = await server.call(
        'GET',
        '/user/billinfo',
        { id: bills.data.list[0].id },
        { token: user.token },
      );
      expect(bill.data).toEqual(bills.data.list[0]);

      const queue = await wallet.listDeposits({ status: 'confirming', page: 1 });
      expect(queue.list.every((d) => d.status === 'confirming')).toBe(true);
      expect(queue.list.some((d) => d.id === submitted.data.id)).toBe(false);
    });

    it('saves, lists and deletes withdrawal addresses, checked per network with checksums', async () => {
      const user = await newUser(server);
      const before = await server.call('GET', '/User/getUserInfo', {}, { token: user.token });
      expect(before.data.userInfo.is_address).toBe(0);
      const bad = await server.call(
        'POST',
        '/user/addaddress',
        { coin: 'USDT', network: 'TRC20', address: ADDRESSES.trxBadChecksum },
        { token: user.token, lang: 'en-us' },
      );
      expect(bad).toMatchObject({ code: 3009, msg: 'This address is not valid for the chosen network.' });
      const wrongChain = await server.call(
        'POST',
        '/user/addaddress',
        { coin: 'USDT', network: 'TRC20', address: ADDRESSES.eth },
        { token: user.token },
      );
      expect(wrongChain.code).toBe(3009);
      const bankNetwork = await server.call(
        'POST',
        '/user/addaddress',
        { coin: 'USDT', network: 'BANK', address: ADDRESSES.trx },
        { token: user.token },
      );
      expect(bankNetwork.code).toBe(3011);

      const id = await saveAddress(server, user.token, {
        coin: 'USDT',
        network: 'TRC20',
        address: ADDRESSES.trx,
        remark: 'my wallet',
      });
      const again = await server.call(
        'POST',
        '/user/addaddress',
        { coin: 'USDT', network: 'TRC20', address: ADDRESSES.trx },
        { token: user.token },
      );
      expect(again.code).toBe(3022);
      await saveAddress(server, user.token, { coin: 'ETH', network: 'ERC20', address: ADDRESSES.eth });
      const usdtOnly = await server.call('GET', '/user/addresslist', { coin: 'USDT' }, { token: user.token });
      expect(usdtOnly.data).toEqual([
        {
          id,
          coin: 'USDT',
          network: 'TRC20',
          address: ADDRESSES.trx,
          remark: 'my wallet',
          created_at: server.clock.now(),
        },
      ]);
      expect((await server.call('GET', '/user/addresslist', {}, { token: user.token })).data).toHaveLength(2);
      expect(
        (await server.call('GET', '/User/getUserInfo', {}, { token: user.token })).data.userInfo.is_address,
      ).toBe(1);

      const other = await registerAndLogin(server);
      const foreign = await server.call('POST', '/user/deladdress', { id }, { token: other.token });
      expect(foreign.code).toBe(3008);
      expect((await server.call('GET', '/user/addresslist', {}, { token: other.token })).data).toEqual([]);
      const deleted = await server.call(
        'POST',
        '/user/deladdress',
        { id },
        { token: user.token, lang: 'en-us' },
      );
      expect(deleted).toMatchObject({ code: 1000, msg: 'Address deleted.' });
      expect((await server.call('GET', '/user/addresslist', {}, { token: user.token })).data).toHaveLength(1);
    });

    it('saves bank cards masked, and refuses incomplete ones and other users’ cards', async () => {
      const user = await newUser(server);
      const missing = await server.call(
        'POST',
        '/user/addbank',
        { number: '6222020200112233', name: 'Li Lei', bank: 'ICBC' },
        { token: user.token },
      );
      expect(missing.code).toBe(1002);
      const badNumber = await server.call(
        'POST',
        '/user/addbank',
        { number: 'abc', name: 'Li Lei', bank: 'ICBC', bank_code: 'ICBKCNBJ' },
        { token: user.token },
      );
      expect(badNumber.code).toBe(3017);
      const added = await server.call(
        'POST',
        '/user/addbank',
        { number: '6222 0202 0011 2233', name: 'Li Lei', bank: 'ICBC', bank_code: 'ICBKCNBJ' },
        { token: user.token, lang: 'en-us' },
      );
      expect(added).toMatchObject({ code: 1000, msg: 'Bank card added.' });
      expect(added.data).toMatchObject({
        number: '**** 2233',
        name: 'Li Lei',
        bank: 'ICBC',
        bank_code: 'ICBKCNBJ',
      });
      const list = await server.call('POST', '/user/userbanklist', {}, { token: user.token });
      expect(list.data).toEqual([added.data]);
      const other = await registerAndLogin(server);
      expect((await server.call('POST', '/user/userbanklist', {}, { token: other.token })).data).toEqual([]);
      expect(
        (await server.call('POST', '/user/delbank', { id: added.data.id }, { token: other.token })).code,
      ).toBe(3018);
      expect((await server.call('POST', '/user/userbanklist', {}, { token: user.token })).data).toHaveLength(
        1,
      );
    });

    it('withdraws with the withdrawal password: each listed error, freeze, idempotency, approval', async () => {
      const fresh = await registerAndLogin(server);
      const noPassword = await withdraw(server, fresh.token, {
        coin: 'USDT',
        address_id: '1',
        amount: '10',
        paypassword: 'x',
      });
      // why: the address is checked before the password; a user without either is told the address is missing.
      expect(noPassword.code).toBe(3008);

      const user = await newUser(server);
      await fund(server, user, 'USDT', 'TRC20', '500');
      const addressId = await saveAddress(server, user.token, {
        coin: 'USDT',
        network: 'TRC20',
        address: ADDRESSES.trx,
      });
      const base = { coin: 'USDT', address_id: addressId, paypassword: user.payPassword };

      const page = await server.call('GET', '/Finance/txpage', { coin: 'USDT' }, { token: user.token });
      expect(page.data).toMatchObject({
        coin: 'USDT',
        available: '500.00000000',
        paypassword: 1,
        withdraw_blocked: 0,
        totp: 0,
      });
      expect(page.data.networks[0]).toEqual({
        network: 'TRC20',
        type: 'address',
        min_withdraw: '10.00000000',
        max_withdraw: '100000.00000000',
        fee: '1.00000000',
      });
      expect(page.data.addresses.map((a: { id: string }) => a.id)).toEqual([addressId]);

      expect(await withdraw(server, user.token, { ...base, amount: '9.99' })).toMatchObject({
        code: 3006,
        msg: 'The amount is below the minimum.',
      });
      expect(await withdraw(server, user.token, { ...base, amount: '100000.00000001' })).toMatchObject({
        code: 3007,
        msg: 'The amount is above the maximum.',
      });
      expect(
        await withdraw(server, user.token, { ...base, paypassword: 'wrong-pass', amount: '10' }),
      ).toMatchObject({
        code: 3001,
        msg: 'Wrong withdrawal password.',
      });
      expect(await withdraw(server, user.token, { ...base, amount: '500' })).toMatchObject({
        code: 3004,
        msg: 'Insufficient account balance.',
      });
      expect((await withdraw(server, user.token, { ...base, amount: '-5' })).code).toBe(3005);
      expect((await withdraw(server, user.token, { ...base, address_id: '999999' })).code).toBe(1002);
      expect((await withdraw(server, user.token, { ...base, address_id: '999999', amount: '10' })).code).toBe(
        3008,
      );
      expect(await balanceOf(server, user.token, 'USDT')).toEqual({
        available: '500.00000000',
        frozen: '0.00000000',
      });

      const key = randomUUID();
      const first = await withdraw(server, user.token, { ...base, amount: '100', idempotency_key: key });
      expect(first).toMatchObject({ code: 1000, msg: 'Withdrawal submitted for review.' });
      expect(first.data).toMatchObject({
        coin: 'USDT',
        network: 'TRC20',
        type: 'address',
        destination: ADDRESSES.trx,
        amount: '100.00000000',
        fee: '1.00000000',
        received: '0.00000000',
        status: 'review',
        notified: false,
      });
      expect(await balanceOf(server, user.token, 'USDT')).toEqual({
        available: '399.00000000',
        frozen: '101.00000000',
      });
      const repeated = await withdraw(server, user.token, { ...base, amount: '100', idempotency_key: key });
      expect(repeated.data.id).toBe(first.data.id);
      expect(await balanceOf(server, user.token, 'USDT')).toEqual({
        available: '399.00000000',
        frozen: '101.00000000',
      });
      expect(
        (await withdraw(server, user.token, { ...base, amount: '101', idempotency_key: key })).code,
      ).toBe(3021);

      const list = await server.call('GET', '/Finance/txlist', { coin: 'USDT' }, { token: user.token });
      expect(list.data.list.map((w: { id: string }) => w.id)).toEqual([first.data.id]);
      expect(
        (await server.call('GET', '/Finance/txinfo', { id: first.data.id }, { token: user.token })).data,
      ).toEqual(first.data);

      const wallet = walletOf(server);
      const approved = await wallet.approveWithdrawal({ withdrawalId: BigInt(first.data.id), staff: STAFF });
      expect(approved).toMatchObject({ status: 'passed', received: '100.00000000', notified: true });
      // spec §3 "notified or not": the outcome's notice was written with the review.
      const passedInfo = await server.call(
        'GET',
        '/Finance/txinfo',
        { id: first.data.id },
        { token: user.token },
      );
      expect(passedInfo.data).toMatchObject({ status: 'passed', notified: true });
      expect(await balanceOf(server, user.token, 'USDT')).toEqual({
        available: '399.00000000',
        frozen: '0.00000000',
      });
      await expect(
        wallet.approveWithdrawal({ withdrawalId: BigInt(first.data.id), staff: STAFF }),
      ).rejects.toMatchObject({
        key: 'ILLEGAL_OPERATION',
      });
      await expect(
        wallet.rejectWithdrawal({ withdrawalId: BigInt(first.data.id), reason: 'again', staff: STAFF }),
      ).rejects.toMatchObject({ key: 'ILLEGAL_OPERATION' });
      expect(await balanceOf(server, user.token, 'USDT')).toEqual({
        available: '399.00000000',
        frozen: '0.00000000',
      });

      const second = await withdraw(server, user.token, { ...base, amount: '50' });
      expect(await balanceOf(server, user.token, 'USDT')).toEqual({
        available: '348.00000000',
        frozen: '51.00000000',
      });
      const rejected = await wallet.rejectWithdrawal({
        withdrawalId: BigInt(second.data.id),
        reason: 'risk',
        staff: STAFF,
      });
      expect(rejected).toMatchObject({
        status: 'rejected',
        reason: 'risk',
        received: '0.00000000',
        notified: true,
      });
      const listed = await server.call('GET', '/Finance/txlist', { coin: 'USDT' }, { token: user.token });
      expect(listed.data.list.map((w: { id: string; notified: boolean }) => [w.id, w.notified])).toEqual([
        [second.data.id, true],
        [first.data.id, true],
      ]);
      expect(await balanceOf(server, user.token, 'USDT')).toEqual({
        available: '399.00000000',
        frozen: '0.00000000',
      });

      const bills = await server.call('GET', '/user/mybill', { coin: 'USDT' }, { token: user.token });
      expect(
        bills.data.list.map((b: { type: string; kind: string; amount: string }) => [
          b.type,
          b.kind,
          b.amount,
        ]),
      ).toEqual([
        ['withdrawal.reject', 'frozen', '-51.00000000'],
        ['withdrawal.reject', 'available', '51.00000000'],
        ['withdrawal.freeze', 'frozen', '51.00000000'],
        ['withdrawal.freeze', 'available', '-51.00000000'],
        ['withdrawal.complete', 'frozen', '-101.00000000'],
        ['withdrawal.freeze', 'frozen', '101.00000000'],
        ['withdrawal.freeze', 'available', '-101.00000000'],
        ['deposit.credit', 'available', '500.00000000'],
      ]);
    });

    it('withdraws to a bank card on the coin’s bank network', async () => {
      const user = await newUser(server);
      await fund(server, user, 'USDT', 'TRC20', '200');
      const card = await server.call(
        'POST',
        '/user/addbank',
        { number: '6222020200119876', name: 'Han Meimei', bank: 'BOC', bank_code: 'BKCHCNBJ' },
        { token: user.token },
      );
      const base = { coin: 'USDT', type: 'bank', bank_id: card.data.id, paypassword: user.payPassword };
      expect((await withdraw(server, user.token, { ...base, amount: '49' })).code).toBe(3006);
      expect((await withdraw(server, user.token, { ...base, bank_id: '999999', amount: '60' })).code).toBe(
        3018,
      );
      const done = await withdraw(server, user.token, { ...base, amount: '60' });
      expect(done.data).toMatchObject({
        network: 'BANK',
        type: 'bank',
        destination: 'BOC (BKCHCNBJ) **** 9876 Han Meimei',
        fee: '2.00000000',
      });
      expect(await balanceOf(server, user.token, 'USDT')).toEqual({
        available: '138.00000000',
        frozen: '62.00000000',
      });
      await walletOf(server).rejectWithdrawal({
        withdrawalId: BigInt(done.data.id),
        reason: 'card closed',
        staff: STAFF,
      });
      expect(await balanceOf(server, user.token, 'USDT')).toEqual({
        available: '200.00000000',
        frozen: '0.00000000',
      });
    });

    it('refuses withdrawals for 24 hours after a login-password change, and without a withdrawal password', async () => {
      const noPay = await registerAndLogin(server);
      const id = await saveAddress(server, noPay.token, {
        coin: 'USDT',
        network: 'TRC20',
        address: ADDRESSES.trx,
      });
      expect(
        await withdraw(server, noPay.token, {
          coin: 'USDT',
          address_id: id,
          amount: '10',
          paypassword: 'whatever',
        }),
      ).toMatchObject({ code: 3002, msg: 'Please set a withdrawal password first.' });

      const user = await newUser(server);
      await fund(server, user, 'USDT', 'TRC20', '100');
      const addressId = await saveAddress(server, user.token, {
        coin: 'USDT',
        network: 'TRC20',
        address: ADDRESSES.trx,
      });
      const changed = await server.call(
        'POST',
        '/user/sub_respwd',
        { oldpwd: user.password, newpwd: 'changed-1', renewpwd: 'changed-1' },
        { token: user.token },
      );
      expect(changed.code).toBe(1000);
      const blocked = await withdraw(server, user.token, {
        coin: 'USDT',
        address_id: addressId,
        amount: '10',
        paypassword: user.payPassword,
      });
      expect(blocked).toMatchObject({
        code: 3015,
        msg: 'Withdrawals are blocked for 24 hours after a login password change.',
      });
      expect(
        (await server.call('GET', '/Finance/txpage', { coin: 'USDT' }, { token: user.token })).data
          .withdraw_blocked,
      ).toBe(1);
      server.clock.advance(24 * 60 * 60_000 + 1);
      const allowed = await withdraw(server, user.token, {
        coin: 'USDT',
        address_id: addressId,
        amount: '10',
        paypassword: user.payPassword,
      });
      expect(allowed.code).toBe(1000);
      await walletOf(server).approveWithdrawal({ withdrawalId: BigInt(allowed.data.id), staff: STAFF });
    });

    it('converts at the index price less the published fee, once per idempotency key', async () => {
      const user = await newUser(server);
      await fund(server, user, 'USDT', 'TRC20', '1000');
      const page = await server.call(
        'GET',
        '/Finance/zhuanhua',
        { from: 'USDT', to: 'BTC', amount: '100' },
        { token: user.token },
      );
      expect(page.code).toBe(1000);
      expect(page.data.fee_percent).toBe('0.20');
      const btcPrice = toAtoms(page.data.coins.find((c: { coin: string }) => c.coin === 'BTC').price);
      const gross = (toAtoms('100') * 100_000_000n) / btcPrice;
      const fee = (gross * 20n + 9_999n) / 10_000n;
      expect(page.data.quote).toMatchObject({ from: 'USDT', to: 'BTC', amount: '100.00000000' });
      expect(toAtoms(page.data.quote.fee)).toBe(fee);
      expect(toAtoms(page.data.quote.received)).toBe(gross - fee);

      const key = randomUUID();
      const done = await server.call(
        'POST',
        '/Finance/zhuanhua',
        { from: 'USDT', to: 'BTC', amount: '100', idempotency_key: key },
        { token: user.token, lang: 'en-us' },
      );
      expect(done).toMatchObject({ code: 1000, msg: 'Conversion complete.' });
      expect(toAtoms(done.data.received)).toBe(gross - fee);
      const again = await server.call(
        'POST',
        '/Finance/zhuanhua',
        { from: 'USDT', to: 'BTC', amount: '100', idempotency_key: key },
        { token: user.token },
      );
      expect(again.data).toEqual(done.data);
      expect((await balanceOf(server, user.token, 'USDT')).available).toBe('900.00000000');
      expect((await balanceOf(server, user.token, 'BTC')).available).toBe(done.data.received);
      const reused = await server.call(
        'POST',
        '/Finance/zhuanhua',
        { from: 'USDT', to: 'ETH', amount: '100', idempotency_key: key },
        { token: user.token },
      );
      expect(reused.code).toBe(3021);

      const same = await server.call(
        'POST',
        '/Finance/zhuanhua',
        { from: 'USDT', to: 'USDT', amount: '1', idempotency_key: randomUUID() },
        { token: user.token },
      );
      expect(same.code).toBe(3019);
      const tooMuch = await server.call(
        'POST',
        '/Finance/zhuanhua',
        { from: 'USDT', to: 'ETH', amount: '900.00000001', idempotency_key: randomUUID() },
        { token: user.token },
      );
      expect(tooMuch.code).toBe(3004);

      await walletOf(server).saveCoinSettings({
        settings: {
          coin: 'LTC',
          icon: '',
          displayDecimals: 8,
          convertible: false,
          depositEnabled: false,
          withdrawEnabled: false,
        },
        staff: STAFF,
      });
      const disabled = await server.call(
        'POST',
        '/Finance/zhuanhua',
        { from: 'USDT', to: 'LTC', amount: '1', idempotency_key: randomUUID() },
        { token: user.token, lang: 'en-us' },
      );
      expect(disabled).toMatchObject({ code: 3014, msg: 'This coin cannot be converted.' });
      const bills = await server.call('GET', '/user/mybill', {}, { token: user.token });
      expect(
        bills.data.list.slice(0, 2).map((b: { type: string; coin: string }) => [b.type, b.coin]),
      ).toEqual([
        ['conversion', 'USDT'],
        ['conversion', 'BTC'],
      ]);
    });

    it("refuses access to someone else's deposit, withdrawal and bill", async () => {
      const owner = await newUser(server);
      await fund(server, owner, 'USDT', 'TRC20', '100');
      const addressId = await saveAddress(server, owner.token, {
        coin: 'USDT',
        network: 'TRC20',
        address: ADDRESSES.trx,
      });
      const card = await server.call(
        'POST',
        '/user/addbank',
        { number: '6222020200115555', name: 'Owner', bank: 'ICBC', bank_code: 'ICBKCNBJ' },
        { token: owner.token },
      );
      const withdrawal = await withdraw(server, owner.token, {
        coin: 'USDT',
        address_id: addressId,
        amount: '10',
        paypassword: owner.payPassword,
      });
      const deposits = await server.call('GET', '/Finance/czlist', {}, { token: owner.token });
      const bills = await server.call('GET', '/user/mybill', {}, { token: owner.token });

      const intruder = await newUser(server);
      await fund(server, intruder, 'USDT', 'TRC20', '100');
      const asIntruder = { token: intruder.token, lang: 'en-us' };
      expect(
        await server.call('GET', '/Finance/czinfo', { id: deposits.data.list[0].id }, asIntruder),
      ).toMatchObject({
        code: 3024,
        msg: 'The record does not exist.',
      });
      expect((await server.call('GET', '/Finance/txinfo', { id: withdrawal.data.id }, asIntruder)).code).toBe(
        3024,
      );
      expect(
        (await server.call('GET', '/user/billinfo', { id: bills.data.list[0].id }, asIntruder)).code,
      ).toBe(3024);
      expect(
        (
          await withdraw(server, intruder.token, {
            coin: 'USDT',
            address_id: addressId,
            amount: '10',
            paypassword: intruder.payPassword,
          })
        ).code,
      ).toBe(3008);
      expect(
        (
          await withdraw(server, intruder.token, {
            coin: 'USDT',
            type: 'bank',
            bank_id: card.data.id,
            amount: '60',
            paypassword: intruder.payPassword,
          })
        ).code,
      ).toBe(3018);
      expect((await server.call('GET', '/Finance/czlist', {}, asIntruder)).data.list).toHaveLength(1);
      expect((await server.call('GET', '/Finance/txlist', {}, asIntruder)).data.list).toEqual([]);
      expect(await balanceOf(server, owner.token, 'USDT')).toEqual({
        available: '89.00000000',
        frozen: '11.00000000',
      });
      expect(await balanceOf(server, intruder.token, 'USDT')).toEqual({
        available: '100.00000000',
        frozen: '0.00000000',
      });
      await walletOf(server).rejectWithdrawal({
        withdrawalId: BigInt(withdrawal.data.id),
        reason: 'test',
        staff: STAFF,
      });
    });

    it('pages deposits and withdrawals by `before` as by page number, and shows no one else’s', async () => {
      const [mine, other] = [await newUser(server), await newUser(server)];
      const db = server.app.ctx.store.db;
      const at = BigInt(server.clock.now());
      // why: reviewed records written straight to the store: the lists are what is tested, and a
      // reviewed deposit or withdrawal holds no money.
      const deposit = async (userId: bigint, coin: string) =>
        String(
          (
            await db
              .insertInto('deposits')
              .values({
                user_id: userId,
                coin,
                network: 'TRC20',
                address: ADDRESSES.trx,
                amount: 100_000_000n,
                voucher: 'voucher.png',
                status: 'rejected',
                created_at: at,
                reviewed_at: at,
              })
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id,
        );
      const withdrawal = async (userId: bigint) =>
        String(
          (
            await db
              .insertInto('withdrawals')
              .values({
                user_id: userId,
                coin: 'USDT',
                network: 'TRC20',
                type: 'address',
                destination: ADDRESSES.trx,
                amount: 100_000_000n,
                fee: 1_000_000n,
                status: 'rejected',
                idempotency_key: randomUUID(),
                created_at: at,
                reviewed_at: at,
              })
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id,
        );
      const deposits = { mine: [] as string[], theirs: [] as string[] };
      const withdrawals = { mine: [] as string[], theirs: [] as string[] };
      for (let i = 0; i < 45; i++) {
        deposits.mine.push(await deposit(mine.userId, 'USDT'));
        // why: the caller's deposits of another coin stay out of the list of one coin.
        if (i % 10 === 7) await deposit(mine.userId, 'BTC');
        withdrawals.mine.push(await withdrawal(mine.userId));
        if (i % 10 === 3) {
          deposits.theirs.push(await deposit(other.userId, 'USDT'));
          withdrawals.theirs.push(await withdrawal(other.userId));
        }
      }
      const list =
        (path: string, fields: Record<string, string> = {}) =>
        (paging: Record<string, string | number>) =>
          server.call('GET', path, { ...fields, ...paging }, { token: mine.token, lang: 'en-us' });
      await expectHistoryPaging(list('/Finance/czlist', { coin: 'USDT' }), deposits);
      await expectHistoryPaging(list('/Finance/txlist'), withdrawals);
    });

    it('accepts exactly one of 50 concurrent withdrawals of the whole balance', async () => {
      const user = await newUser(server);
      await fund(server, user, 'USDT', 'TRC20', '101');
      const addressId = await saveAddress(server, user.token, {
        coin: 'USDT',
        network: 'TRC20',
        address: ADDRESSES.trx,
      });
      const answers = await Promise.all(
        Array.from({ length: 50 }, () =>
          withdraw(server, user.token, {
            coin: 'USDT',
            address_id: addressId,
            amount: '100',
            paypassword: user.payPassword,
          }),
        ),
      );
      const codes = answers.map((a) => a.code);
      expect(codes.filter((c) => c === 1000)).toHaveLength(1);
      expect(codes.filter((c) => c !== 1000).every((c) => c === 3004)).toBe(true);
      expect(await balanceOf(server, user.token, 'USDT')).toEqual({
        available: '0.00000000',
        frozen: '101.00000000',
      });
      const list = await server.call('GET', '/Finance/txlist', {}, { token: user.token });
      expect(list.data.list).toHaveLength(1);
      await expectLedgerInvariants(server);
    });

    it('never overdraws under 50 concurrent conversions', async () => {
      const user = await newUser(server);
      await fund(server, user, 'USDT', 'TRC20', '100');
      const answers = await Promise.all(
        Array.from({ length: 50 }, () =>
          server.call(
            'POST',
            '/Finance/zhuanhua',
            { from: 'USDT', to: 'ETH', amount: '30', idempotency_key: randomUUID() },
            { token: user.token },
          ),
        ),
      );
      const accepted = answers.filter((a) => a.code === 1000);
      expect(accepted).toHaveLength(3);
      expect(answers.filter((a) => a.code !== 1000).every((a) => a.code === 3004)).toBe(true);
      expect((await balanceOf(server, user.token, 'USDT')).available).toBe('10.00000000');
      const eth = accepted.reduce((sum, a) => sum + toAtoms(a.data.received), 0n);
      expect(toAtoms((await balanceOf(server, user.token, 'ETH')).available)).toBe(eth);
      await expectLedgerInvariants(server);
    });

    it('lists every wallet route in the OpenAPI document', async () => {
      const doc = (await (await fetch(`${server.url}/docs/json`)).json()) as {
        paths: Record<string, unknown>;
      };
      for (const path of [
        '/apiv/Finance/index',
        '/apiv/Finance/getallzhehe',
        '/apiv/Finance/getmoney',
        '/apiv/User/czcoin',
        '/apiv/Finance/coininfo',
        '/apiv/Finance/zhuanhua',
        '/apiv/Finance/czpage',
        '/apiv/Finance/czhandle',
        '/apiv/Finance/czlist',
        '/apiv/Finance/czinfo',
        '/apiv/Finance/txpage',
        '/apiv/Finance/txlist',
        '/apiv/Finance/txcoin',
        '/apiv/Finance/txinfo',
        '/apiv/Finance/tbhandle',
        '/apiv/Finance/getsymbol',
        '/apiv/Finance/getcoinnum',
        '/apiv/user/addbank',
        '/apiv/user/userbanklist',
        '/apiv/user/mybill',
        '/apiv/user/addresslist',
        '/apiv/user/addaddress',
        '/apiv/user/deladdress',
      ]) {
        expect(doc.paths, path).toHaveProperty([path]);
      }
    });
  });
});
