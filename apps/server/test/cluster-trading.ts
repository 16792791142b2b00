import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { toAtoms } from '@bourse/shared';
import type pg from 'pg';
import { expect } from 'vitest';
import type { Cluster } from './cluster.ts';

/** What the suites of several nodes drive over HTTP: customers, orders, books and their oracles. */

export interface Answer {
  status: number;
  code: number;
  msg: string;
  data: any;
}

/** Why a call got no envelope: it timed out, or the connection failed. */
export class NoAnswer extends Error {
  readonly kind: 'timeout' | 'network';
  constructor(kind: 'timeout' | 'network', message: string) {
    super(message);
    this.kind = kind;
  }
}

/**
 * Calls `/apiv` + path at `base` as the web app does (form data, English); a call with no answer
 * within `timeoutMs` throws {@link NoAnswer}, so a hang is a finding, never a stuck test.
 */
export async function api(
  base: string,
  method: 'GET' | 'POST',
  apiPath: string,
  fields: Record<string, string> = {},
  token?: string,
  timeoutMs = 10_000,
): Promise<Answer> {
  const all = token ? { ...fields, token } : fields;
  const query = new URLSearchParams(all).toString();
  const target = `${base}/apiv${apiPath}${method === 'GET' && query ? `?${query}` : ''}`;
  let response: Response;
  try {
    response = await fetch(target, {
      method,
      headers: {
        Lang: 'en-us',
        ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: method === 'POST' ? query : undefined,
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError')
      throw new NoAnswer('timeout', `${method} ${target}: no answer in ${timeoutMs} ms`);
    throw new NoAnswer('network', `${method} ${target}: ${(error as Error).message}`);
  }
  const text = await response.text();
  try {
    return { status: response.status, ...(JSON.parse(text) as Omit<Answer, 'status'>) };
  } catch {
    return { status: response.status, code: -1, msg: text.slice(0, 200), data: null };
  }
}

export interface Customer {
  username: string;
  token: string;
  userId: bigint;
}

/** Signs a customer in on `base`; the session is in the database, so it is good on every node. */
export async function login(base: string, username: string, password: string): Promise<Customer> {
  const answer = await api(base, 'POST', '/Login/loginsubmit', { email: username, lpwd: password });
  if (answer.code !== 1000) throw new Error(`login ${username}: ${JSON.stringify(answer)}`);
  return { username, token: answer.data.token, userId: BigInt(answer.data.uid) };
}

/** POST /Trade/place of a limit order (fresh idempotency key unless given). */
export function placeLimit(
  base: string,
  user: Customer,
  order: { symbol?: string; side: 'buy' | 'sell'; price: bigint; qty: bigint; key?: string },
  timeoutMs?: number,
): Promise<Answer> {
  return api(
    base,
    'POST',
    '/Trade/place',
    {
      symbol: order.symbol ?? 'BTCUSDT',
      type: 'limit',
      side: order.side,
      price: decimal(order.price),
      qty: decimal(order.qty),
      idempotency_key: order.key ?? randomUUID(),
    },
    user.token,
    timeoutMs,
  );
}

/** POST /Perp/place of a limit order (fresh idempotency key unless given). */
export function placePerp(
  base: string,
  user: Customer,
  order: { symbol: string; side: 'buy' | 'sell'; price: bigint; qty: bigint; key?: string },
  timeoutMs?: number,
): Promise<Answer> {
  return api(
    base,
    'POST',
    '/Perp/place',
    {
      symbol: order.symbol,
      type: 'limit',
      side: order.side,
      price: decimal(order.price),
      qty: decimal(order.qty),
      idempotency_key: order.key ?? randomUUID(),
    },
    user.token,
    timeoutMs,
  );
}

/** The perpetual market's mark as node `base` answers it (atoms); waits up to 10 s for the first. */
export async function perpMarkOf(base: string, symbol: string): Promise<bigint> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const answer = await api(base, 'GET', '/Perp/ticker', { symbol });
    if (answer.code === 1000 && answer.data?.mark && toAtoms(answer.data.mark) > 0n)
      return toAtoms(answer.data.mark);
    if (Date.now() > deadline) throw new Error(`no mark for ${symbol}: ${JSON.stringify(answer)}`);
    await sleep(100);
  }
}

/**
 * A new customer: registered and signed in on node `i` (accepting the terms in force), credited
 * `credits` (asset → decimal amount) by the owner through the back office, as an adjustment (the
 * cluster's `ADJUSTMENT_APPROVAL_THRESHOLD` must let it through without a second approval).
 */
export async function newCustomer(
  cluster: Cluster,
  i: number,
  username: string,
  credits: Record<string, string>,
): Promise<Customer> {
  const base = cluster.url(i);
  const terms = await api(base, 'GET', '/Index/terms');
  if (terms.code !== 1000) throw new Error(`terms version: ${JSON.stringify(terms)}`);
  const registered = await api(base, 'POST', '/Login/upregister', {
    account: username,
    lpwd: 'secret123',
    ...(terms.data.version > 0 ? { terms_version: String(terms.data.version) } : {}),
  });
  if (registered.code !== 1000) throw new Error(`register ${username}: ${JSON.stringify(registered)}`);
  const customer = await login(base, username, 'secret123');
  const token = await cluster.ownerToken();
  for (const [asset, amount] of Object.entries(credits)) {
    const answer = await cluster.admin(
      i,
      'POST',
      `/users/${customer.userId}/adjust`,
      { asset, amount, reason: 'credit of a test trader', key: `credit-${randomUUID()}` },
      token,
    );
    if (answer.data?.status !== 'done') throw new Error(`credit ${username}: ${JSON.stringify(answer)}`);
  }
  return customer;
}

/** Atoms as the API's decimal string. */
export function decimal(atoms: bigint): string {
  const whole = atoms / 100_000_000n;
  const frac = (atoms % 100_000_000n).toString().padStart(8, '0');
  return `${whole}.${frac}`;
}

/** The market's index as node `base` last saw it (atoms), from the tickers. */
export async function indexOf(base: string, symbol: string): Promise<bigint> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const answer = await api(base, 'GET', '/Market/spottickers');
    const ticker = (answer.data ?? []).find((t: { symbol: string }) => t.symbol === symbol);
    if (ticker?.index) return toAtoms(ticker.index);
    if (Date.now() > deadline) throw new Error(`no index for ${symbol}: ${JSON.stringify(answer)}`);
    await sleep(100);
  }
}

/** `price` moved by `bps` basis points and put on the market's tick (atoms). */
export function onTick(price: bigint, bps: bigint, tick: bigint): bigint {
  return ((price * (10_000n + bps)) / 10_000n / tick) * tick;
}

/** A book as a map per side of price atoms to quantity atoms. */
export interface Book {
  bids: Record<string, string>;
  asks: Record<string, string>;
}

/** The book node `base` answers on `GET /Market/depth` (100 levels a side), as atoms. */
export async function depthOf(base: string, symbol: string): Promise<Book & { seq: number }> {
  const answer = await api(base, 'GET', '/Market/depth', { symbol, levels: '100' });
  if (answer.code !== 1000) throw new Error(`depth of ${symbol} at ${base}: ${JSON.stringify(answer)}`);
  const side = (levels: [string, string][]) =>
    Object.fromEntries(levels.map(([price, qty]) => [String(toAtoms(price)), String(toAtoms(qty))]));
  return { seq: answer.data.seq, bids: side(answer.data.bids), asks: side(answer.data.asks) };
}

/**
 * The book the database says the market has: the open orders resting in it (limit orders, and
 * triggers that fired into one) summed per side and price, their remaining quantity.
 */
export async function storedBook(client: pg.Client, symbol: string): Promise<Book> {
  const { rows } = await client.query<{ side: string; price: string; remaining: string }>(
    `select side, price::text as price, sum(qty - filled_qty)::text as remaining from spot_orders
     where symbol = $1 and status = 'entrusted' and price is not null
       and (trigger_price is null or triggered_at is not null)
     group by side, price`,
    [symbol],
  );
  const book: Book = { bids: {}, asks: {} };
  for (const row of rows) (row.side === 'buy' ? book.bids : book.asks)[row.price] = row.remaining;
  return book;
}

/**
 * The perpetual book node `base` answers on `GET /Perp/depth` (100 levels a side; the owner's,
 * asked through the node), as atoms.
 */
export async function perpDepthOf(base: string, symbol: string): Promise<Book & { seq: number }> {
  const answer = await api(base, 'GET', '/Perp/depth', { symbol, levels: '100' });
  if (answer.code !== 1000) throw new Error(`perp depth of ${symbol} at ${base}: ${JSON.stringify(answer)}`);
  const side = (levels: [string, string][]) =>
    Object.fromEntries(levels.map(([price, qty]) => [String(toAtoms(price)), String(toAtoms(qty))]));
  return { seq: answer.data.seq, bids: side(answer.data.bids), asks: side(answer.data.asks) };
}

/** The perpetual book the database says the market has: open orders in the book, their remaining quantity per side and price. */
export async function perpStoredBook(client: pg.Client, symbol: string): Promise<Book> {
  const { rows } = await client.query<{ side: string; price: string; remaining: string }>(
    `select side, price::text as price, sum(qty - filled_qty)::text as remaining from perp_orders
     where symbol = $1 and state in ('new', 'partial') group by side, price`,
    [symbol],
  );
  const book: Book = { bids: {}, asks: {} };
  for (const row of rows) (row.side === 'buy' ? book.bids : book.asks)[row.price] = row.remaining;
  return book;
}

/**
 * Asserts that every running node's depth of each market (spot, or `perp`etual) equals the
 * database's open orders: it polls up to `ms` for the nodes to catch up with the last committed
 * batch, then compares.
 */
export async function expectBooksMatchStore(
  cluster: Cluster,
  symbols: string[],
  ms = 5000,
  product: 'spot' | 'perp' = 'spot',
): Promise<void> {
  const nodes = cluster.nodes.map((_, k) => k + 1).filter((i) => cluster.running(i));
  const [readStored, readDepth] = product === 'spot' ? [storedBook, depthOf] : [perpStoredBook, perpDepthOf];
  const deadline = Date.now() + ms;
  for (;;) {
    const seen: Record<string, Record<string, Book>> = {};
    const stored: Record<string, Book> = {};
    let same = true;
    for (const symbol of symbols) {
      stored[symbol] = await readStored(cluster.pg, symbol);
      seen[symbol] = {};
      for (const i of nodes) {
        const { bids, asks } = await readDepth(cluster.url(i), symbol);
        seen[symbol]![cluster.nodes[i - 1]!.id] = { bids, asks };
        same &&= JSON.stringify(sorted({ bids, asks })) === JSON.stringify(sorted(stored[symbol]!));
      }
    }
    if (same) return;
    if (Date.now() > deadline) {
      const expected = Object.fromEntries(
        symbols.map((symbol) => [
          symbol,
          Object.fromEntries(nodes.map((i) => [cluster.nodes[i - 1]!.id, sorted(stored[symbol]!)])),
        ]),
      );
      const actual = Object.fromEntries(
        symbols.map((symbol) => [
          symbol,
          Object.fromEntries(Object.entries(seen[symbol]!).map(([id, book]) => [id, sorted(book)])),
        ]),
      );
      expect(actual, 'each node’s depth equals the open orders in the database').toEqual(expected);
      return;
    }
    await sleep(100);
  }
}

function sorted(book: Book): Book {
  const order = (side: Record<string, string>) =>
    Object.fromEntries(Object.entries(side).sort(([a], [b]) => (BigInt(a) < BigInt(b) ? -1 : 1)));
  return { bids: order(book.bids), asks: order(book.asks) };
}

/** `userId`'s available and frozen balance of `asset` in the ledger (atoms). */
export async function balanceOf(
  client: pg.Client,
  userId: bigint,
  asset: string,
): Promise<{ available: bigint; frozen: bigint }> {
  const { rows } = await client.query<{ kind: string; balance: string }>(
    `select kind, balance::text as balance from ledger_accounts
     where user_id = $1 and asset = $2 and kind in ('available', 'frozen')`,
    [userId.toString(), asset],
  );
  const of = (kind: string) => BigInt(rows.find((row) => row.kind === kind)?.balance ?? '0');
  return { available: of('available'), frozen: of('frozen') };
}

/** The balance of the platform's account `system:<name>` in `asset` (available; atoms, 0 when it has none). */
export async function systemBalance(client: pg.Client, name: string, asset: string): Promise<bigint> {
  const { rows } = await client.query<{ balance: string }>(
    `select balance::text as balance from ledger_accounts
     where owner = $1 and asset = $2 and kind = 'available'`,
    [`system:${name}`, asset],
  );
  return BigInt(rows[0]?.balance ?? '0');
}

/** Asserts the ledger's invariants, checked now by the first running node. */
export async function expectLedgerHolds(cluster: Cluster): Promise<void> {
  const i = cluster.nodes.findIndex((_, k) => cluster.running(k + 1)) + 1;
  expect(await cluster.ledgerProblems(i), 'ledger invariants').toEqual([]);
}

/** Cancels every open order of `users` through every running node (a test's clean-up). */
export async function cancelEverywhere(cluster: Cluster, users: Customer[]): Promise<void> {
  for (let i = 1; i <= cluster.nodes.length; i++) {
    if (!cluster.running(i)) continue;
    for (const user of users)
      await api(cluster.url(i), 'POST', '/Trade/cancelall', {}, user.token).catch(() => {});
  }
}
