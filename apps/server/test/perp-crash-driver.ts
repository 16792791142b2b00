// A process that trades perpetuals on a SQLite store until it is killed (perpetual.faults.ts):
// round after round, eight users open 5x longs against a short maker, a funding event is paid
// with the positions open, then the index falls through their liquidation price and every long
// is taken over (the fund unwinds into nothing and deleverages the maker). It runs the real app
// in-process so it can move the index; the parent kills it with SIGKILL at random moments.
//
//   node apps/server/test/perp-crash-driver.ts <dataDir>
import { toAtoms } from '@bourse/shared';
import { registerAndLogin, startServer } from './harness.ts';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: perp-crash-driver.ts <dataDir>');
const SYMBOL = 'BTCUSDT';
const EIGHT_HOURS = 8 * 3_600_000;

const server = await startServer('sqlite', { env: { DEMO: 'on' }, reuse: { dataDir } });
const { ctx } = server.app;
const perp = ctx.perpetual!;
const markets = ctx.markets!;
const db = ctx.store.db;

// why: every start's clock begins at the same instant; move it past the last funding event, so
// each round's funding time is new.
const last = await db
  .selectFrom('perp_fundings')
  .select((eb) => eb.fn.max('funding_at').as('at'))
  .executeTakeFirst();
const lastAt = last?.at === null || last?.at === undefined ? 0 : Number(last.at);
if (lastAt >= server.clock.now()) await server.clock.advance(lastAt - server.clock.now() + 60_000);

async function index(price: string): Promise<void> {
  const atoms = toAtoms(price);
  const at = server.clock.now();
  const value = {
    symbol: SYMBOL,
    price: atoms,
    at,
    source: 'test',
    constituents: [{ source: 'test', price: atoms, at, used: true, reason: null }],
  };
  await markets.recordIndex([value]);
  markets.noteIndex(value);
  await perp.pricing.tick(SYMBOL);
}

async function tokenOf(name: string, credits: string): Promise<string> {
  const login = await server.call('POST', '/Login/loginsubmit', { email: name, lpwd: 'secret123' });
  if (login.code === 1000) return login.data.token as string;
  const user = await registerAndLogin(server, name);
  // why: the demo credit gives a new account its USDT, as the other suites' traders get it.
  const userId = BigInt(user.uid);
  await db.transaction().execute((trx) =>
    ctx.ledger.post(trx, {
      type: 'test.credit',
      ref: `perp-crash:${userId}`,
      by: 'system',
      postings: [
        { owner: { system: 'demo' }, asset: 'USDT', kind: 'available', amount: -toAtoms(credits) },
        { owner: { userId }, asset: 'USDT', kind: 'available', amount: toAtoms(credits) },
      ],
    }),
  );
  return user.token;
}

const maker = await tokenOf('crashmaker', '10000000');
// why: at 1x the maker's growing short stays inside every tier.
await server.call('POST', '/Perp/leverage', { symbol: SYMBOL, leverage: '1' }, { token: maker });
const longs: string[] = [];
for (let i = 1; i <= 8; i += 1) longs.push(await tokenOf(`crashlong${i}`, '100000'));
const names = new Map<string, string>([
  [maker, 'crashmaker'],
  ...longs.map((t, i) => [t, `crashlong${i + 1}`] as [string, string]),
]);
const current = new Map<string, string>();
/** Places as the user behind `token`, signing in again once the clock has run past its session. */
async function place(token: string, fields: Record<string, string>) {
  const call = () =>
    server.call(
      'POST',
      '/Perp/place',
      { symbol: SYMBOL, idempotency_key: crypto.randomUUID(), ...fields },
      { token: current.get(token) ?? token },
    );
  const answer = await call();
  if (answer.code !== 100) return answer;
  const login = await server.call('POST', '/Login/loginsubmit', {
    email: names.get(token)!,
    lpwd: 'secret123',
  });
  current.set(token, login.data.token);
  return call();
}

process.stdout.write('ready\n');
for (let round = 0; ; round += 1) {
  await index('60000');
  for (const token of longs) {
    await place(maker, { side: 'sell', type: 'limit', price: '60000', qty: '0.01' });
    await place(token, { side: 'buy', type: 'market', qty: '0.01' });
  }
  const now = server.clock.now();
  await server.clock.advance(Math.floor(now / EIGHT_HOURS) * EIGHT_HOURS + EIGHT_HOURS - now + 1000);
  // why: the loop's tick after the funding time pays the event, the positions still open.
  await index('60000');
  await server.clock.advance(61_000);
  // why: a bid below the bankruptcy prices: the fund's first IOC misses it, its next one unwinds into it.
  await place(maker, { side: 'buy', type: 'limit', price: '47000', qty: '0.05' });
  await index('48000');
  await index('48000');
  process.stdout.write(`round ${round}\n`);
}
