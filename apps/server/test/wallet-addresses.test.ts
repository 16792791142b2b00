import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../src/platform/db.ts';
import { DIALECTS, type TestServer } from './harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';
import {
  ADDRESSES,
  fund,
  newUser,
  STAFF,
  saveAddress,
  startWalletServer,
  walletOf,
  withdrawUsdt,
} from './wallet-harness.ts';

describe.each(DIALECTS)('saved addresses, prices and the audit trail on $name', ({ name, skip }) => {
  describe.skipIf(skip)('', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startWalletServer(name);
    });
    afterAll(async () => {
      await expectLedgerInvariants(server);
      await server?.close();
    });

    it('saves an address once when ten identical requests arrive at once', async () => {
      const user = await newUser(server);
      const fields = { coin: 'USDT', network: 'TRC20', address: ADDRESSES.trx, remark: 'burst' };
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          server.call('POST', '/user/addaddress', fields, { token: user.token, lang: 'en-us' }),
        ),
      );
      expect(answers.filter((a) => a.code === 1000)).toHaveLength(1);
      const refused = answers.filter((a) => a.code !== 1000);
      expect(refused).toHaveLength(9);
      for (const answer of refused) expect(answer.code).toBe(3022);
      const list = await server.call('GET', '/user/addresslist', { coin: 'USDT' }, { token: user.token });
      expect(list.data.map((a: { address: string }) => a.address)).toEqual([ADDRESSES.trx]);
    });

    it('lets the store itself refuse a duplicate, while one address may serve two coins of a network', async () => {
      const user = await newUser(server);
      await saveAddress(server, user.token, { coin: 'ETH', network: 'ERC20', address: ADDRESSES.eth });
      await saveAddress(server, user.token, { coin: 'USDT', network: 'ERC20', address: ADDRESSES.eth });
      const row = {
        user_id: user.userId,
        coin: 'ETH',
        network: 'ERC20',
        address: ADDRESSES.eth,
        remark: '',
        created_at: 0n,
      };
      const error = await server.app.ctx.store.db
        .insertInto('withdraw_addresses')
        .values(row)
        .execute()
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(isUniqueViolation(error)).toBe(true);
    });

    it('answers PRICE_UNAVAILABLE for a conversion into a coin without an index price', async () => {
      // why: a coin listed before its market opens has no index price yet.
      await server.app.ctx.store.db
        .insertInto('coins')
        .values({ symbol: 'NOPX', name: 'No price', display_decimals: 8n })
        .execute();
      await walletOf(server).saveCoinSettings({
        settings: {
          coin: 'NOPX',
          icon: '',
          displayDecimals: 8,
          convertible: true,
          depositEnabled: false,
          withdrawEnabled: false,
        },
        staff: STAFF,
      });
      const user = await newUser(server);
      await fund(server, user, 'USDT', 'TRC20', '100');
      const quote = await server.call(
        'GET',
        '/Finance/zhuanhua',
        { from: 'USDT', to: 'NOPX', amount: '10' },
        { token: user.token, lang: 'en-us' },
      );
      expect(quote.code).toBe(3020);
      const convert = await server.call(
        'POST',
        '/Finance/zhuanhua',
        { from: 'NOPX', to: 'USDT', amount: '10', idempotency_key: randomUUID() },
        { token: user.token, lang: 'en-us' },
      );
      expect(convert.code).toBe(3020);
      const balance = await server.call('GET', '/Finance/getmoney', { coin: 'USDT' }, { token: user.token });
      expect(balance.data.available).toBe('100.00000000');
    });

    it('writes amounts into the audit log as decimal strings', async () => {
      const user = await newUser(server);
      const depositId = await fund(server, user, 'USDT', 'TRC20', '150.5');
      const requested = await withdrawUsdt(server, user, '20');
      expect(requested.code).toBe(1000);
      await walletOf(server).rejectWithdrawal({
        withdrawalId: BigInt(requested.data.id),
        reason: 'screening',
        staff: STAFF,
      });
      const audit = (action: string, target: string) =>
        server.app.ctx.audit.list(server.app.ctx.store.db, { action, target, limit: 5 });
      expect(await audit('deposit.confirm', `deposit:${depositId}`)).toMatchObject([
        {
          before: { status: 'confirming', amount: '150.50000000' },
          after: { status: 'credited', credited_amount: '150.50000000' },
        },
      ]);
      expect(await audit('withdrawal.reject', `withdrawal:${requested.data.id}`)).toMatchObject([
        {
          before: { status: 'review', amount: '20.00000000', fee: '1.00000000' },
          after: { status: 'rejected' },
        },
      ]);
    });
  });
});
