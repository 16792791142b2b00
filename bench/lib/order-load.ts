// The order benches' load: each user places a resting limit buy, cancels it, and again. As
// autocannon requests (a closed loop, one connection per user) and as paced flows (an open loop).
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import type { PacedFlow } from './paced.ts';

export const SYMBOL = 'BTCUSDT';
export const FORM_HEADERS = { 'content-type': 'application/x-www-form-urlencoded', Lang: 'en-us' };

/** A place's form: a limit order (a buy of 0.0001 unless told) at `price`, with a fresh idempotency key. */
export function placeBody(
  price: string,
  token: string,
  order: { side?: 'buy' | 'sell'; qty?: string } = {},
): string {
  return new URLSearchParams({
    symbol: SYMBOL,
    side: order.side ?? 'buy',
    type: 'limit',
    price,
    qty: order.qty ?? '0.0001',
    idempotency_key: randomUUID(),
    token,
  }).toString();
}

export function cancelBody(orderId: string, token: string): string {
  return new URLSearchParams({ id: orderId, token }).toString();
}

/** The id in a place's answer (undefined when it was refused). */
function placedId(body: string): string | undefined {
  const answer = JSON.parse(body) as { code: number; data: { id: string } | null };
  return answer.code === 1000 ? answer.data?.id : undefined;
}

interface Context {
  token?: string;
  orderId?: string;
}

/** Autocannon's requests: each connection takes the next user and places, then cancels. */
export function orderRequests(
  tokens: readonly string[],
  price: string,
  onPlace?: (accepted: boolean) => void,
): autocannon.Request[] {
  let next = 0;
  return [
    {
      method: 'POST',
      path: '/apiv/Trade/place',
      headers: FORM_HEADERS,
      setupRequest: (request: autocannon.Request, context: Context) => {
        context.token ??= tokens[next++ % tokens.length];
        request.body = placeBody(price, context.token as string);
        return request;
      },
      onResponse: (_status: number, body: string, context: Context) => {
        context.orderId = placedId(body);
        onPlace?.(context.orderId !== undefined);
      },
    },
    {
      method: 'POST',
      path: '/apiv/Trade/cancel',
      headers: FORM_HEADERS,
      setupRequest: (request: autocannon.Request, context: Context) => {
        request.body = cancelBody(context.orderId ?? '0', context.token as string);
        return request;
      },
    },
  ];
}

/** One user's loop for a paced load. */
export function orderFlow(token: string, price: string): PacedFlow {
  let orderId: string | undefined;
  return {
    next: () =>
      orderId === undefined
        ? { path: '/apiv/Trade/place', body: placeBody(price, token) }
        : { path: '/apiv/Trade/cancel', body: cancelBody(orderId, token) },
    answer: (_status, body) => {
      orderId = orderId === undefined ? placedId(body) : undefined;
    },
  };
}

/** A limit buy price that rests: 3 % under the index, inside the 10 % band, below any ask. */
export async function restingBuyPrice(url: string): Promise<string> {
  const tickers = (await (await fetch(`${url}/apiv/Market/tickers`)).json()) as {
    data: { symbol: string; price: string }[];
  };
  const index = tickers.data.find((t) => t.symbol === SYMBOL)?.price;
  if (!index) throw new Error(`no index for ${SYMBOL}`);
  return (Math.floor(Number(index) * 0.97 * 100) / 100).toFixed(2);
}

export function runAutocannon(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}
