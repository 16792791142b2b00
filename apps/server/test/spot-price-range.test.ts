import { toAtoms } from '@bourse/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexTick, newTrader } from './delivery-harness.ts';
import { DIALECTS, startServer, type TestServer } from './harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';
import { bal, depth, placed, SPOT_ENV, tape } from './spot-harness.ts';
import { balanceOf } from './wallet-harness.ts';

// Issue 34, point 11: a book took no price above 2^24 − 1 ticks (167,772.15 with a 0.01 tick,
// 0.16777215 with a 10^-8 tick). A market takes any price its quote asset can express, up to the
// engine's 2^53 − 1 ticks (reached first only by ticks under 112 atoms).

describe.each(DIALECTS)('spot prices above 2^24 ticks on $name', ({ name, skip }) => {
  describe.skipIf(skip)('', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startServer(name, { env: SPOT_ENV });
    });
    afterAll(async () => {
      await expectLedgerInvariants(server);
      await server?.close();
    });

    it('trades BTCUSDT at 2,000,000.00 (200,000,000 ticks of 0.01): trade written, balances exact', async () => {
      await indexTick(server, 'BTCUSDT', '2000000');
      const maker = await newTrader(server);
      const taker = await newTrader(server);
      const sell = await placed(server, maker, {
        symbol: 'BTCUSDT',
        side: 'sell',
        price: '2000000',
        qty: '0.003',
      });
      expect(sell).toMatchObject({ status: 'entrusted', price: '2000000.00000000' });
      const buy = await placed(server, taker, {
        symbol: 'BTCUSDT',
        side: 'buy',
        price: '2000000.00',
        qty: '0.002',
      });
      expect(buy).toMatchObject({
        status: 'completed',
        filled_qty: '0.00200000',
        turnover: '4000.00000000',
        avg_price: '2000000.00000000',
        fee: '0.00000200',
        fee_coin: 'BTC',
      });
      expect(await tape(server, 'BTCUSDT')).toEqual([
        { price: '2000000.00000000', qty: '0.00200000', side: 'buy' },
      ]);
      expect(await depth(server, 'BTCUSDT')).toEqual({
        bids: [],
        asks: [['2000000.00000000', '0.00100000']],
      });
      // taker: 4,000 USDT paid, 0.002 BTC less the 0.1 % fee in BTC; maker: 0.1 % of 4,000 USDT
      expect(await balanceOf(server, taker.token, 'USDT')).toEqual(bal('6000.00000000'));
      expect(await balanceOf(server, taker.token, 'BTC')).toEqual(bal('0.50199800'));
      expect(await balanceOf(server, maker.token, 'USDT')).toEqual(bal('13996.00000000'));
      expect(await balanceOf(server, maker.token, 'BTC')).toEqual(bal('0.49700000', '0.00100000'));
      await server.call('POST', '/Trade/cancel', { id: sell.id }, { token: maker.token, lang: 'en-us' });
    });

    it('trades BTCUSDT at 500,000,000.00 (50,000,000,000 ticks, past 2^31) and takes up to 9,999,999,999.99', async () => {
      await indexTick(server, 'BTCUSDT', '500000000');
      const maker = await newTrader(server);
      const taker = await newTrader(server);
      const sell = await placed(server, maker, {
        symbol: 'BTCUSDT',
        side: 'sell',
        price: '500000000',
        qty: '0.00001',
      });
      expect(sell).toMatchObject({ status: 'entrusted', price: '500000000.00000000' });
      const buy = await placed(server, taker, {
        symbol: 'BTCUSDT',
        side: 'buy',
        price: '500000000.00',
        qty: '0.00001',
      });
      expect(buy).toMatchObject({ status: 'completed', turnover: '5000.00000000', fee: '0.00000001' });
      expect((await tape(server, 'BTCUSDT'))[0]).toEqual({
        price: '500000000.00000000',
        qty: '0.00001000',
        side: 'buy',
      });
      expect(await balanceOf(server, taker.token, 'USDT')).toEqual(bal('5000.00000000'));
      expect(await balanceOf(server, maker.token, 'USDT')).toEqual(bal('14995.00000000'));
      // The highest price a USDT amount can express is a price too (the band decides whether it trades).
      await indexTick(server, 'BTCUSDT', '9999999999.99');
      const top = await placed(server, maker, {
        symbol: 'BTCUSDT',
        side: 'sell',
        price: '9999999999.99',
        qty: '0.00001',
      });
      expect(top).toMatchObject({ status: 'entrusted', price: '9999999999.99000000' });
      await server.call('POST', '/Trade/cancel', { id: top.id }, { token: maker.token, lang: 'en-us' });
    });

    it('trades a market with a 0.00000001 tick at 0.5 (50,000,000 ticks): trade written, balances exact', async () => {
      await server.app.ctx.store.db.transaction().execute(async (trx) => {
        await server.app.ctx.markets!.addListings(trx, {
          coins: [],
          markets: [{ symbol: 'ETHBTC', base: 'ETH', quote: 'BTC', priceDecimals: 8 }],
        });
        await server.app.ctx.spot!.addMissingMarkets(trx, [
          {
            symbol: 'ETHBTC',
            base: 'ETH',
            quote: 'BTC',
            tickSize: 1n, // 0.00000001 BTC
            lotSize: toAtoms('1'), // a whole ETH, so a tick·lot is a whole atom
            minNotional: toAtoms('0.0001'),
            makerFeeBps: 10n,
            takerFeeBps: 10n,
            bandBps: 1000n,
            priceDecimals: 8,
            qtyDecimals: 0,
            status: 'open',
          },
        ]);
      });
      await indexTick(server, 'ETHBTC', '0.5');
      const maker = await newTrader(server);
      const taker = await newTrader(server);
      await placed(server, maker, { symbol: 'ETHBTC', side: 'sell', price: '0.5', qty: '2' });
      const buy = await placed(server, taker, {
        symbol: 'ETHBTC',
        side: 'buy',
        price: '0.50000000',
        qty: '1',
      });
      expect(buy).toMatchObject({
        status: 'completed',
        filled_qty: '1.00000000',
        turnover: '0.50000000',
        avg_price: '0.50000000',
        fee: '0.00100000',
        fee_coin: 'ETH',
      });
      expect(await tape(server, 'ETHBTC')).toEqual([{ price: '0.50000000', qty: '1.00000000', side: 'buy' }]);
      expect(await depth(server, 'ETHBTC')).toEqual({ bids: [], asks: [['0.50000000', '1.00000000']] });
      // taker: all of its 0.5 BTC for 1 ETH less 0.001 ETH; maker: 0.5 BTC less 0.0005 BTC
      expect(await balanceOf(server, taker.token, 'BTC')).toEqual(bal('0.00000000'));
      expect(await balanceOf(server, taker.token, 'ETH')).toEqual(bal('5.99900000'));
      expect(await balanceOf(server, maker.token, 'BTC')).toEqual(bal('0.99950000'));
      expect(await balanceOf(server, maker.token, 'ETH')).toEqual(bal('3.00000000', '1.00000000'));
    });
  });
});
