import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { newTrader } from './delivery-harness.ts';
import type { ApiAnswer, TestServer } from './harness.ts';
import { balanceOf } from './wallet-harness.ts';

/** What the spot suites drive: the three API calls, the books and balances they check. */

/** A server for the spot suites: the demo markets and traders, and room for many sign-ups. */
export const SPOT_ENV = { DEMO: 'on', LIMIT_REGISTER_PER_IP: '1000/3600' };

export type Trader = Awaited<ReturnType<typeof newTrader>>;

/** Calls `path` as `user` (English answers). */
export function callAs(server: TestServer, user: Trader, method: 'GET' | 'POST', path: string, fields = {}) {
  return server.call(method, path, fields, { token: user.token, lang: 'en-us' });
}

/** POST /Trade/place as `user`: a BTCUSDT limit order unless `fields` say otherwise, with a fresh key. */
export function place(server: TestServer, user: Trader, fields: Record<string, string>): Promise<ApiAnswer> {
  return callAs(server, user, 'POST', '/Trade/place', {
    symbol: 'BTCUSDT',
    type: 'limit',
    idempotency_key: randomUUID(),
    ...fields,
  });
}

/** {@link place}, which must be accepted; answers the order. */
export async function placed(server: TestServer, user: Trader, fields: Record<string, string>) {
  const answer = await place(server, user, fields);
  expect(answer).toMatchObject({ code: 1000 });
  return answer.data;
}

/** GET /Trade/billinfo of one of `user`'s orders. */
export async function orderDetail(server: TestServer, user: Trader, id: string) {
  const answer = await callAs(server, user, 'GET', '/Trade/billinfo', { id });
  expect(answer.code).toBe(1000);
  return answer.data;
}

/** The market's depth as the public API answers it. */
export async function depth(server: TestServer, symbol = 'BTCUSDT') {
  const answer = await server.call('GET', '/Market/depth', { symbol });
  expect(answer.code).toBe(1000);
  return { bids: answer.data.bids, asks: answer.data.asks };
}

/** The market's latest public trades (at most five), newest first. */
export async function tape(server: TestServer, symbol = 'BTCUSDT') {
  const answer = await server.call('GET', '/Market/trades', { symbol, limit: 5 });
  expect(answer.code).toBe(1000);
  return answer.data.map(({ price, qty, side }: { price: string; qty: string; side: string }) => ({
    price,
    qty,
    side,
  }));
}

/** `user`'s USDT and BTC. */
export async function balances(server: TestServer, user: Trader) {
  return {
    usdt: await balanceOf(server, user.token, 'USDT'),
    btc: await balanceOf(server, user.token, 'BTC'),
  };
}

/** A balance as the API answers it. */
export const bal = (available: string, frozen = '0.00000000') => ({ available, frozen });
