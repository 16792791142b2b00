import { randomUUID } from 'node:crypto';
import { unrealisedPnl } from '@bourse/perp';
import { toAtoms } from '@bourse/shared';
import type { PerpService } from '../src/modules/perpetual/service.ts';
import { indexTick, type newTrader } from './delivery-harness.ts';
import type { ApiAnswer, TestServer } from './harness.ts';

export type Trader = Awaited<ReturnType<typeof newTrader>>;

export function perpOf(server: TestServer): PerpService {
  const perp = server.app.ctx.perpetual;
  if (!perp) throw new Error('the perpetual module is not registered');
  return perp;
}

/** The clearing of a market this node owns (its committed state between batches). */
export function clearingOf(server: TestServer, symbol: string) {
  const sequencer = perpOf(server).local(symbol);
  if (!sequencer) throw new Error(`${symbol} is not owned here`);
  return sequencer.clearing;
}

/**
 * Customer calls of one perpetual market over real HTTP, in English (a fresh idempotency key on
 * each place unless one is given).
 */
export function perpCalls(server: TestServer, symbol: string) {
  const call = (user: Trader, method: 'GET' | 'POST', path: string, fields: Record<string, string> = {}) =>
    server.call(method, path, fields, { token: user.token, lang: 'en-us' });
  return {
    call,
    place: (user: Trader, fields: Record<string, string>): Promise<ApiAnswer> =>
      call(user, 'POST', '/Perp/place', { symbol, idempotency_key: randomUUID(), ...fields }),
    cancel: (user: Trader, id: string) => call(user, 'POST', '/Perp/cancel', { id }),
    close: (user: Trader) => call(user, 'POST', '/Perp/close', { symbol, idempotency_key: randomUUID() }),
    leverage: (user: Trader, leverage: number) =>
      call(user, 'POST', '/Perp/leverage', { symbol, leverage: String(leverage) }),
    account: async (user: Trader) => (await call(user, 'GET', '/Perp/account', { symbol })).data,
    order: async (user: Trader, id: string) => (await call(user, 'GET', '/Perp/order', { id })).data,
    liquidations: async (user: Trader) =>
      (await call(user, 'GET', '/Perp/liquidations', { symbol })).data.list as unknown[],
    ticker: async () => (await server.call('GET', '/Perp/ticker', { symbol })).data,
  };
}

/** Index ticks at `price`, then one second of the market's pricing loop (the mark follows). */
export async function markAt(server: TestServer, symbol: string, price: string): Promise<void> {
  await indexTick(server, symbol, price);
  await perpOf(server).pricing.tick(symbol);
}

/** USDT from the demo account to a user (a visible `demo.credit` entry, as the demo seed funds its accounts). */
export async function creditUsdt(server: TestServer, userId: bigint, amount: string): Promise<void> {
  const atoms = toAtoms(amount);
  const { store, ledger } = server.app.ctx;
  await store.db.transaction().execute((trx) =>
    ledger.post(trx, {
      type: 'demo.credit',
      ref: `test:perp-abuse:${userId}:${randomUUID()}`,
      memo: 'Test credit',
      by: 'system',
      postings: [
        { owner: { system: 'demo' }, asset: 'USDT', kind: 'available', amount: -atoms },
        { owner: { userId }, asset: 'USDT', kind: 'available', amount: atoms },
      ],
    }),
  );
}

/** A user's USDT: available, held by open orders and in position margin (atoms). */
export async function usdtOf(server: TestServer, userId: bigint): Promise<bigint> {
  const { store, ledger } = server.app.ctx;
  let total = 0n;
  for (const kind of ['available', 'frozen', 'margin'] as const)
    total += await ledger.balance(store.db, { userId }, 'USDT', kind);
  return total;
}

/** What a user is worth in `symbol` at its mark: their USDT plus the position's unrealised profit (atoms). */
export async function equityOf(server: TestServer, symbol: string, userId: bigint): Promise<bigint> {
  const clearing = clearingOf(server, symbol);
  const position = clearing.position(userId);
  const upnl =
    position && position.qty !== 0n ? unrealisedPnl(clearing.spec, position, clearing.figures.mark) : 0n;
  return (await usdtOf(server, userId)) + upnl;
}

/** The insurance fund's ledger balance (atoms). */
export async function fundOf(server: TestServer, symbol: string): Promise<bigint> {
  const { store, ledger } = server.app.ctx;
  return ledger.balance(store.db, { system: `perp_insurance:${symbol}` }, 'USDT', 'available');
}

/** The fund's balance plus its lots' unrealised profit at the mark (atoms): what it is worth. */
export async function fundEquityOf(server: TestServer, symbol: string): Promise<bigint> {
  const clearing = clearingOf(server, symbol);
  let lots = 0n;
  for (const lot of clearing.lots()) lots += unrealisedPnl(clearing.spec, lot, clearing.figures.mark);
  return (await fundOf(server, symbol)) + lots;
}
