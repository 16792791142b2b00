import { randomUUID } from 'node:crypto';
import { type AppError, toAtoms } from '@bourse/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type PerpCommand,
  type PerpPlaceRequest,
  placeFingerprint,
} from '../src/modules/perpetual/commands.ts';
import { newTrader } from './delivery-harness.ts';
import { DIALECTS, startServer, type TestServer } from './harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';
import { markAt as perpMarkAt } from './perp-harness.ts';

type Trader = Awaited<ReturnType<typeof newTrader>>;

const KEY_REUSED = 3021;

/**
 * One key, one request (perpetual.md §4b.7), on every perpetual route that takes a key: the same
 * key with the same request answers as the first did and changes nothing; with another request it
 * is refused (IDEMPOTENCY_KEY_REUSED) and changes nothing, also when both come in one batch.
 */
describe.each(DIALECTS)('perpetual idempotency keys on $name', ({ name: dialect, skip }) => {
  let server: TestServer;

  const perp = () => server.app.ctx.perpetual!;
  const call = (user: Trader, method: 'GET' | 'POST', path: string, fields: Record<string, string> = {}) =>
    server.call(method, path, fields, { token: user.token, lang: 'en-us' });
  const account = async (user: Trader) =>
    (await call(user, 'GET', '/Perp/account', { symbol: 'BTCUSDT' })).data;
  const ordersOfKey = (key: string) =>
    server.app.ctx.store.db
      .selectFrom('perp_orders')
      .select(['id', 'request_fingerprint'])
      .where('idempotency_key', '=', key)
      .execute();
  /** The index at `price`, then one second of the market's pricing loop (the mark follows). */
  const markAt = (price: string) => perpMarkAt(server, 'BTCUSDT', price);
  /** `user` long 0.01 BTC at 60 000 (5x: margin 120, fee 0.3), against a new seller. */
  async function openLong(user: Trader) {
    const seller = await newTrader(server);
    await markAt('60000');
    const order = { symbol: 'BTCUSDT', qty: '0.01', idempotency_key: randomUUID() };
    expect(
      (await call(seller, 'POST', '/Perp/place', { ...order, side: 'sell', type: 'limit', price: '60000' }))
        .code,
    ).toBe(1000);
    const opened = await call(user, 'POST', '/Perp/place', {
      ...order,
      side: 'buy',
      type: 'market',
      idempotency_key: randomUUID(),
    });
    expect(opened.data).toMatchObject([{ state: 'filled', filled_qty: '0.01000000' }]);
    return opened;
  }

  beforeAll(async () => {
    if (skip) return;
    server = await startServer(dialect, { env: { DEMO: 'on', LIMIT_REGISTER_PER_IP: '1000/3600' } });
  }, 120_000);

  afterAll(async () => {
    if (skip) return;
    await expectLedgerInvariants(server);
    await server.close();
  });

  it.skipIf(skip)('places once per key, and refuses the key with another order', async () => {
    const a = await newTrader(server);
    await markAt('60000');
    const key = randomUUID();
    const body = {
      symbol: 'BTCUSDT',
      side: 'buy',
      type: 'limit',
      price: '59000',
      qty: '0.01',
      idempotency_key: key,
    };
    const first = await call(a, 'POST', '/Perp/place', body);
    expect(first).toMatchObject({
      code: 1000,
      data: [{ price: '59000.00000000', qty: '0.01000000', state: 'new' }],
    });
    const held = await account(a);
    // the same request, however its numbers are written, answers the first order
    for (const same of [body, { ...body, price: '59000.0', qty: '0.010', trigger_ref: 'last' }]) {
      const again = await call(a, 'POST', '/Perp/place', same);
      expect(again).toMatchObject({ code: 1000, data: [{ id: first.data[0].id }] });
    }
    for (const other of [
      { ...body, price: '59500' },
      { ...body, qty: '0.02' },
      { ...body, side: 'sell', price: '61000' },
      { symbol: 'BTCUSDT', side: 'buy', type: 'market', qty: '0.01', idempotency_key: key },
      { ...body, post_only: 'true' },
      { ...body, symbol: 'ETHUSDT', price: '3000' },
    ]) {
      const refused = await call(a, 'POST', '/Perp/place', other);
      expect(refused.code, JSON.stringify(other)).toBe(KEY_REUSED);
    }
    expect(await account(a)).toEqual(held);
    const rows = await ordersOfKey(key);
    expect(rows.map((r) => r.id)).toEqual([BigInt(first.data[0].id)]);
    expect(rows[0]!.request_fingerprint).toMatch(/^[0-9a-f]{64}$/);
  });

  it.skipIf(skip)('holds one key to one request within one batch too', async () => {
    const a = await newTrader(server);
    await markAt('60000');
    const sequencer = perp().local('BTCUSDT')!;
    const tick = sequencer.market.tick_size;
    const key = randomUUID();
    const place = (price: string): PerpCommand => {
      const request: PerpPlaceRequest = {
        symbol: 'BTCUSDT',
        side: 'buy',
        type: 'limit',
        price: toAtoms(price),
        qty: toAtoms('0.01'),
        triggerRef: 'last',
        priceProtect: false,
        reduceOnly: false,
        closePosition: false,
        postOnly: false,
        idempotencyKey: key,
      };
      return {
        kind: 'place',
        userId: a.userId,
        input: {
          userId: a.userId,
          side: 'buy',
          type: 'limit',
          price: toAtoms(price) / tick,
          qty: toAtoms('0.01'),
          reduceOnly: false,
          postOnly: false,
        },
        key,
        ioc: false,
        fingerprint: placeFingerprint(request),
      };
    };
    // why: submitted in one turn, the three are queued before the sequencer drains: one batch.
    const answers = await Promise.allSettled([
      sequencer.submit(place('59000')),
      sequencer.submit(place('59000')),
      sequencer.submit(place('58000')),
    ]);
    const rows = await ordersOfKey(key);
    expect(rows).toHaveLength(1);
    expect(answers).toMatchObject([
      { status: 'fulfilled', value: { orderIds: [rows[0]!.id] } },
      { status: 'fulfilled', value: { orderIds: [rows[0]!.id], duplicate: true } },
      { status: 'rejected' },
    ]);
    expect(((answers[2] as PromiseRejectedResult).reason as AppError).key).toBe('IDEMPOTENCY_KEY_REUSED');

    // over HTTP, at once, whichever batch each lands in: the first to run places the one order;
    // the same request answers it, the other is refused
    const again = randomUUID();
    const body = { symbol: 'BTCUSDT', side: 'buy', type: 'limit', qty: '0.01', idempotency_key: again };
    const prices = ['57000', '57000', '56000'];
    const racing = await Promise.all(
      prices.map((price) => call(a, 'POST', '/Perp/place', { ...body, price })),
    );
    const placed = await ordersOfKey(again);
    expect(placed).toHaveLength(1);
    const open = (await account(a)).orders.map((o: { id: string; price: string }) => [o.id, o.price]);
    const winner = open.find(([id]: string[]) => id === String(placed[0]!.id))[1];
    expect(racing.map((x) => x.code)).toEqual(
      prices.map((price) => (`${price}.00000000` === winner ? 1000 : KEY_REUSED)),
    );
    expect(open.map(([, price]: string[]) => price).sort()).toEqual([winner, '59000.00000000'].sort());
  });

  it.skipIf(skip)('closes once per key, and refuses a key that placed another order', async () => {
    const a = await newTrader(server);
    await openLong(a);
    const placedKey = randomUUID();
    expect(
      (
        await call(a, 'POST', '/Perp/place', {
          symbol: 'BTCUSDT',
          side: 'buy',
          type: 'limit',
          price: '50000',
          qty: '0.01',
          idempotency_key: placedKey,
        })
      ).code,
    ).toBe(1000);
    // a close under the key of that order is another request
    expect(
      (await call(a, 'POST', '/Perp/close', { symbol: 'BTCUSDT', idempotency_key: placedKey })).code,
    ).toBe(KEY_REUSED);
    expect((await account(a)).position).toMatchObject({ qty: '0.01000000' });

    const buyer = await newTrader(server);
    expect(
      (
        await call(buyer, 'POST', '/Perp/place', {
          symbol: 'BTCUSDT',
          side: 'buy',
          type: 'limit',
          price: '60000',
          qty: '0.01',
          idempotency_key: randomUUID(),
        })
      ).code,
    ).toBe(1000);
    const closeKey = randomUUID();
    const closed = await call(a, 'POST', '/Perp/close', { symbol: 'BTCUSDT', idempotency_key: closeKey });
    expect(closed).toMatchObject({ code: 1000, data: [{ side: 'sell', state: 'filled' }] });
    const again = await call(a, 'POST', '/Perp/close', { symbol: 'BTCUSDT', idempotency_key: closeKey });
    expect(again.data.map((o: { id: string }) => o.id)).toEqual(closed.data.map((o: { id: string }) => o.id));
    // the position is gone: the key of the order placed before still stands for that order
    expect(
      (await call(a, 'POST', '/Perp/close', { symbol: 'BTCUSDT', idempotency_key: placedKey })).code,
    ).toBe(KEY_REUSED);
    const place = { symbol: 'BTCUSDT', side: 'sell', type: 'market', qty: '0.01', idempotency_key: closeKey };
    expect((await call(a, 'POST', '/Perp/place', place)).code).toBe(KEY_REUSED);
    expect(await ordersOfKey(closeKey)).toHaveLength(1);
  });

  it.skipIf(skip)('moves margin once per key, and refuses the key with another change', async () => {
    const a = await newTrader(server);
    await openLong(a);
    expect(await account(a)).toMatchObject({
      available: '9879.70000000',
      position: { margin: '120.00000000' },
    });
    const key = randomUUID();
    const add = { symbol: 'BTCUSDT', direction: 'add', amount: '100', idempotency_key: key };
    expect((await call(a, 'POST', '/Perp/margin', add)).code).toBe(1000);
    expect((await call(a, 'POST', '/Perp/margin', { ...add, amount: '100.00' })).code).toBe(1000);
    const moved = await account(a);
    expect(moved).toMatchObject({ available: '9779.70000000', position: { margin: '220.00000000' } });
    for (const other of [
      { ...add, amount: '200' },
      { ...add, direction: 'remove' },
      { ...add, symbol: 'ETHUSDT' },
    ]) {
      expect((await call(a, 'POST', '/Perp/margin', other)).code, JSON.stringify(other)).toBe(KEY_REUSED);
    }
    expect(await account(a)).toEqual(moved);

    // two changes under one key in one batch: the first moves, the other is refused
    const sequencer = perp().local('BTCUSDT')!;
    const once = randomUUID();
    const margin = (amount: string): PerpCommand => ({
      kind: 'margin',
      userId: a.userId,
      amount: toAtoms(amount),
      direction: 'add',
      key: once,
    });
    const answers = await Promise.allSettled([
      sequencer.submit(margin('10')),
      sequencer.submit(margin('10')),
      sequencer.submit(margin('20')),
    ]);
    expect(answers).toMatchObject([
      { status: 'fulfilled', value: { orderIds: [] } },
      { status: 'fulfilled', value: { orderIds: [], duplicate: true } },
      { status: 'rejected' },
    ]);
    expect((answers[0] as PromiseFulfilledResult<unknown>).value).toEqual({ orderIds: [] });
    expect(((answers[2] as PromiseRejectedResult).reason as AppError).key).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await account(a)).toMatchObject({
      available: '9769.70000000',
      position: { margin: '230.00000000' },
    });
  });
});
