import { toAtoms } from '@bourse/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatRatio, outcomeOf, parseRatio, settle } from '../src/modules/delivery/settlement.ts';
import { advance, deliveryOf, indexTick, newTrader, placeOpen } from './delivery-harness.ts';
import { startServer, type TestServer } from './harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';
import { balanceOf } from './wallet-harness.ts';

describe('settlement rules', () => {
  it('decides up and down on close against open; equal is a draw', () => {
    expect(outcomeOf('up', 100n, 101n)).toBe('win');
    expect(outcomeOf('up', 100n, 99n)).toBe('loss');
    expect(outcomeOf('down', 100n, 99n)).toBe('win');
    expect(outcomeOf('down', 100n, 101n)).toBe('loss');
    expect(outcomeOf('up', 100n, 100n)).toBe('draw');
    expect(outcomeOf('down', 100n, 100n)).toBe('draw');
  });

  it('moves real money: a win from the house, a loss to it, a draw or refund back', () => {
    const contract = { userId: 5n, amount: 1000n, ratioBps: 8500n, funding: 'real' as const };
    const win = settle(contract, 'win');
    expect(win).toMatchObject({ payout: 1850n, profit: 850n });
    expect(win.postings).toEqual([
      { owner: { userId: 5n }, asset: 'USDT', kind: 'frozen', amount: -1000n },
      { owner: { userId: 5n }, asset: 'USDT', kind: 'available', amount: 1850n },
      { owner: { system: 'house' }, asset: 'USDT', kind: 'available', amount: -850n },
    ]);
    expect(settle(contract, 'loss')).toMatchObject({ payout: 0n, profit: -1000n });
    expect(settle(contract, 'loss').postings[1]).toEqual({
      owner: { system: 'house' },
      asset: 'USDT',
      kind: 'available',
      amount: 1000n,
    });
    for (const result of ['draw', 'refund'] as const) {
      expect(settle(contract, result)).toMatchObject({ payout: 1000n, profit: 0n });
    }
    // truncation never favours the user
    expect(settle({ ...contract, amount: 3n }, 'win').profit).toBe(2n);
  });

  it('moves trial money: principal back to the grant, profit in locked trial profit up to the cap', () => {
    const contract = { userId: 5n, amount: 1000n, ratioBps: 9000n, funding: 'trial' as const };
    const capped = settle(contract, 'win', { trialPrincipalToUser: true, trialCapLeft: 300n });
    expect(capped).toMatchObject({ payout: 1300n, profit: 300n, trialProfitPaid: 300n });
    expect(capped.postings).toEqual([
      { owner: { userId: 5n }, asset: 'USDT', kind: 'trial_frozen', amount: -1000n },
      { owner: { userId: 5n }, asset: 'USDT', kind: 'trial', amount: 1000n },
      { owner: { system: 'house' }, asset: 'USDT', kind: 'available', amount: -300n },
      // why: real USDT, but locked until the account's real turnover releases it (docs/trial-money.md)
      { owner: { userId: 5n }, asset: 'USDT', kind: 'trial_profit', amount: 300n },
    ]);
    const expired = settle(contract, 'draw', { trialPrincipalToUser: false, trialCapLeft: 0n });
    expect(expired.postings[1]).toEqual({
      owner: { system: 'trial' },
      asset: 'USDT',
      kind: 'available',
      amount: 1000n,
    });
    const lost = settle(contract, 'loss', { trialPrincipalToUser: true, trialCapLeft: 5000n });
    expect(lost).toMatchObject({ payout: 0n, profit: -1000n, trialProfitPaid: 0n });
    expect(lost.postings[1]?.owner).toEqual({ system: 'trial' });
  });

  it('writes ratios as published', () => {
    expect([8000n, 8250n, 8255n, 10_000n, 5n].map(formatRatio)).toEqual([
      '0.80',
      '0.825',
      '0.8255',
      '1.00',
      '0.0005',
    ]);
    expect(['0.8', '0.85', '1', '0.0005'].map(parseRatio)).toEqual([8000n, 8500n, 10_000n, 5n]);
  });
});

describe('settlement on a test clock', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer('sqlite', {
      env: { DEMO: 'on', LIMIT_REGISTER_PER_IP: '1000/3600', DELIVERY_GRACE_SECONDS: '120' },
    });
  });
  afterAll(async () => {
    await expectLedgerInvariants(server);
    await server?.close();
  });

  it('waits in settling while the index is stale, then settles on the first tick at or after expiry', async () => {
    const user = await newTrader(server);
    await indexTick(server, 'BTCUSDT', '100');
    const opened = server.clock.now() + 1;
    const placed = await placeOpen(server, user.token, { amount: '100', direction: 'down' }, '100');
    expect(await advance(server, 70_000)).toEqual({ opened: 0, settled: 0, closed: 0, expired: 0 });
    const waiting = await server.call(
      'GET',
      '/Contract/cbillinfo',
      { id: placed.data.id },
      { token: user.token },
    );
    expect(waiting.data).toMatchObject({ status: 'settling', result: null, close_price: null });
    // the feed comes back: the tick recorded at 61 s is the first at or after the 60 s expiry
    await indexTick(server, 'BTCUSDT', '99', opened + 61_000);
    await indexTick(server, 'BTCUSDT', '200', opened + 62_000);
    expect(await advance(server, 1000)).toEqual({ opened: 0, settled: 1, closed: 0, expired: 0 });
    const done = await server.call(
      'GET',
      '/Contract/cbillinfo',
      { id: placed.data.id },
      { token: user.token },
    );
    expect(done.data).toMatchObject({
      status: 'settled',
      result: 'win',
      close_price: '99.00000000',
      profit: '80.00000000',
    });
    expect(await deliveryOf(server).service.runSettlement()).toEqual({
      opened: 0,
      settled: 0,
      closed: 0,
      expired: 0,
    });
  });

  it('closes with a refund once the index stayed away past the grace period', async () => {
    const user = await newTrader(server);
    await indexTick(server, 'ETHUSDT', '3000');
    const placed = await placeOpen(server, user.token, { symbol: 'ETHUSDT', amount: '250' }, '3000');
    // why: it opened 1 ms after acceptance, so it expires at 60.001 s and the grace ends 120 s later.
    await advance(server, 60_001 + 119_000);
    const waiting = await server.call(
      'GET',
      '/Contract/cbillinfo',
      { id: placed.data.id },
      { token: user.token },
    );
    expect(waiting.data.status).toBe('settling');
    expect(await advance(server, 1000)).toEqual({ opened: 0, settled: 0, closed: 1, expired: 0 });
    const closed = await server.call(
      'GET',
      '/Contract/cbillinfo',
      { id: placed.data.id },
      { token: user.token },
    );
    expect(closed.data).toMatchObject({
      status: 'closed',
      result: 'refund',
      profit: '0.00000000',
      close_price: null,
      close_at: null,
    });
    expect(await balanceOf(server, user.token, 'USDT')).toEqual({
      available: '10000.00000000',
      frozen: '0.00000000',
    });
    // a tick arriving late changes nothing: the outcome is written once
    await indexTick(server, 'ETHUSDT', '1', closed.data.expires_at);
    await advance(server, 1000);
    const after = await server.call(
      'GET',
      '/Contract/cbillinfo',
      { id: placed.data.id },
      { token: user.token },
    );
    expect(after.data).toEqual(closed.data);
    expect(toAtoms(after.data.amount)).toBe(toAtoms('250'));
  });
});
