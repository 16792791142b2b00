// Dragging the perpetual mark (perpetual.md §4b.1, issue 47), measured the way a customer would
// do it: the real server as `npm start` runs it (embedded SQLite in a fresh data folder, the
// simulated index feed, demo mode on, so the house maker quotes the perpetual books), and three
// ordinary accounts over HTTP, each given the demo credit (the 10,000 USDT, 0.5 BTC and 5 ETH that
// `demo` and `demo2` hold). The two of the pair convert their BTC and ETH into USDT at the index
// (`/Finance/zhuanhua`), as any customer can.
//
// 1. A victim opens a 5x long of PERP_ABUSE_VICTIM_QTY ETH at market on ETHUSDT.
// 2. For PERP_ABUSE_SECONDS the pair pushes, round after round: one account places a limit sell
//    one tick above the 5 % band's floor (it takes whatever bids stand above and rests the rest),
//    the other market-buys 0.01 into it, so the last price prints at the band's floor; the house
//    maker re-quotes as it does. The buying account trades at 1x and keeps a bid of 0.01 at one
//    tick, far under the market, so the book keeps a mid whenever nothing else bids. When one of
//    them runs out of margin or past its tier's size they swap roles (the long one sells, the short
//    one buys), so the push never stops for money. PERP_ABUSE_DIRECTION=up runs the mirror.
// 3. Every second the mark and the index are read from `/apiv/Perp/ticker`.
// 4. The server stops, and the books are read from its store (bench/lib/perp-books.ts): every
//    account's USDT (available, held, margin) plus its position at the mark, the insurance fund
//    and its lots, the house maker (`perp-maker`), against the same books before the server started
//    (the pair: against what each held after converting).
//
//   npm run bench:perp-abuse            (figures, then one summary line)
//
// Settings: PERP_ABUSE_SECONDS (120), PERP_ABUSE_DIRECTION (down), PERP_ABUSE_SELL_QTY (the
// pushing order's quantity, 0.5 ETH), PERP_ABUSE_PACE_MS (pause between rounds, 100),
// PERP_ABUSE_VICTIM_QTY (1 ETH), PERP_ABUSE_FLOOR_BID (on), PERP_ABUSE_CONVERT (on).
//
// The summary line: worst_mark_dev_pct = the largest |mark − index| / index seen (percent);
// pair_pnl = the two pushing accounts' equity change (USDT, fees paid and open positions at the
// mark included); fund_pnl = the insurance fund's change, its balance and the lots it holds at the
// mark; maker_pnl = the house maker's equity change (USDT, held, margin and its position at the
// mark).

import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { toAtoms } from '@bourse/shared';
import { FORM_HEADERS } from './lib/order-load.ts';
import { type PerpBooks, readPerpBooks } from './lib/perp-books.ts';
import { atomsText } from './lib/perp-cascade.ts';
import { BENCH_ENV, freePort, prepareUsers, startServer } from './lib/server.ts';

const SECONDS = Number(process.env.PERP_ABUSE_SECONDS ?? 120);
const DIRECTION = process.env.PERP_ABUSE_DIRECTION === 'up' ? 'up' : 'down';
const PUSH_QTY = process.env.PERP_ABUSE_SELL_QTY ?? '0.5';
const PACE_MS = Number(process.env.PERP_ABUSE_PACE_MS ?? 100);
const VICTIM_QTY = process.env.PERP_ABUSE_VICTIM_QTY ?? '1';
const FLOOR_BID = (process.env.PERP_ABUSE_FLOOR_BID ?? 'on') !== 'off';
const CONVERT = (process.env.PERP_ABUSE_CONVERT ?? 'on') !== 'off';

const SYMBOL = 'ETHUSDT';
/** The market's tick (0.01 USDT) in atoms, and its band (5 %). */
const TICK = toAtoms('0.01');
const BAND_PCT = 5n;
const PRINT_QTY = '0.01';
// why: as `npm start`: demo on, the house maker and the simulated feed running; SQLite, not a URL.
const ENV = { ...BENCH_ENV, DATABASE_URL: '' };
const PAIR = ['abuse0', 'abuse1'] as const;
const VICTIM = 'abuse2';
const MAKER = 'perp-maker';

interface Answer {
  code: number;
  msg: string;
  data: any;
}

interface Sample {
  at: number;
  mark: bigint;
  index: bigint;
}

/** |mark − index| / index in hundredths of a percent (truncated). */
function deviation(sample: Sample): bigint {
  const gap = sample.mark > sample.index ? sample.mark - sample.index : sample.index - sample.mark;
  return (gap * 10_000n) / sample.index;
}

/** Hundredths of a percent as text ("19.05"), signed when asked. */
function pctText(hundredths: bigint): string {
  const sign = hundredths < 0n ? '-' : '';
  const abs = hundredths < 0n ? -hundredths : hundredths;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

/** Signed USDT text with two decimals ("+1234.56", "-7.00"). */
function usdt(atoms: bigint): string {
  return `${atoms > 0n ? '+' : ''}${atomsText(atoms)}`;
}

function describeBooks(label: string, books: PerpBooks, leaveOut: readonly string[] = []): string {
  const lines = [
    `${label}: mark ${atomsText(books.mark)}, insurance fund ${atomsText(books.insurance)} USDT`,
  ];
  if (books.lots > 0)
    lines.push(
      `  the fund holds ${books.lots} lots, net ${atomsText(books.lotsQty)} ETH, ${usdt(books.lotsUpnl)} USDT at the mark`,
    );
  for (const a of books.accounts.values()) {
    if (leaveOut.includes(a.name)) continue;
    lines.push(
      `  ${a.name}: equity ${atomsText(a.equity)} USDT (available ${atomsText(a.available)}, held ` +
        `${atomsText(a.held)}, margin ${atomsText(a.margin)}; position ${atomsText(a.qty)} ETH, ` +
        `uPnL ${usdt(a.upnl)})`,
    );
  }
  return lines.join('\n');
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-bench-perp-abuse-'));
let server: ChildProcess | undefined;
const samples: Sample[] = [];
let before: PerpBooks | undefined;
let after: PerpBooks;
let victimLiquidated = false;
let victimOpened = '';
let rounds = 0;
const pairStart = new Map<string, bigint>();
let swaps = 0;
const refusals = new Map<string, number>();
let failure: unknown;
try {
  console.log(`perp-abuse: a fresh SQLite store, three accounts with the demo credit …`);
  const tokens = await prepareUsers(ENV, dataDir, 'abuse', 3);
  const [tokenA, tokenB, tokenVictim] = tokens as [string, string, string];
  const names = [...PAIR, VICTIM, MAKER];
  before = await readPerpBooks(ENV, dataDir, SYMBOL, names);
  const port = await freePort();
  server = await startServer(ENV, dataDir, port);
  const url = `http://127.0.0.1:${port}`;

  const post = async (apiPath: string, token: string, fields: Record<string, string>): Promise<Answer> => {
    const response = await fetch(`${url}/apiv${apiPath}`, {
      method: 'POST',
      headers: FORM_HEADERS,
      body: new URLSearchParams({ ...fields, token }).toString(),
    });
    return (await response.json()) as Answer;
  };
  const get = async (apiPath: string, fields: Record<string, string>, token?: string): Promise<Answer> => {
    const query = new URLSearchParams(token ? { ...fields, token } : fields).toString();
    const response = await fetch(`${url}/apiv${apiPath}?${query}`, { headers: { Lang: 'en-us' } });
    return (await response.json()) as Answer;
  };
  const place = (token: string, fields: Record<string, string>) =>
    post('/Perp/place', token, { symbol: SYMBOL, idempotency_key: randomUUID(), ...fields });
  const refused = (what: string, answer: Answer) => {
    if (answer.code === 1000) return;
    const key = `${what} ${answer.code} ${answer.msg}`;
    refusals.set(key, (refusals.get(key) ?? 0) + 1);
  };
  const ticker = async (): Promise<Sample | undefined> => {
    const t = await get('/Perp/ticker', { symbol: SYMBOL });
    if (t.code !== 1000 || !t.data?.mark || !t.data?.index) return undefined;
    return { at: Date.now(), mark: toAtoms(t.data.mark), index: toAtoms(t.data.index) };
  };

  // The first mark comes within a second of the first index; the maker quotes within two more.
  for (let i = 0; i < 300; i++) {
    const depth = await get('/Perp/depth', { symbol: SYMBOL, levels: '5' });
    if ((await ticker()) && depth.data?.bids?.length > 0 && depth.data?.asks?.length > 0) break;
    if (i === 299) throw new Error(`${SYMBOL}: no mark or no maker quotes`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  // The pair's money: the demo credit's BTC and ETH converted into USDT at the index (less the
  // published fee), as any customer can; what each then holds is its starting equity.
  for (const [i, name] of PAIR.entries()) {
    const token = tokens[i] as string;
    if (CONVERT) {
      for (const [coin, amount] of [
        ['BTC', '0.5'],
        ['ETH', '5'],
      ]) {
        const converted = await post('/Finance/zhuanhua', token, {
          from: coin as string,
          to: 'USDT',
          amount: amount as string,
          idempotency_key: randomUUID(),
        });
        if (converted.code !== 1000)
          throw new Error(`${name} converts ${coin}: ${JSON.stringify(converted)}`);
      }
    }
    const account = await get('/Perp/account', { symbol: SYMBOL }, token);
    pairStart.set(name, toAtoms(account.data.available));
    console.log(`${name}: ${account.data.available} USDT to trade with`);
  }

  const opened = await place(tokenVictim, { side: 'buy', type: 'market', qty: VICTIM_QTY });
  if (opened.code !== 1000) throw new Error(`the victim's long: ${JSON.stringify(opened)}`);
  const victimAccount = await get('/Perp/account', { symbol: SYMBOL }, tokenVictim);
  const vp = victimAccount.data.position;
  victimOpened =
    `victim: long ${vp.qty} ETH at ${vp.entry_price} (${vp.leverage}x, margin ${vp.margin}), ` +
    `liquidation price ${vp.liquidation_price}`;
  console.log(victimOpened);

  // why: the account that prints buys a little each round; at 1x its long is never liquidated.
  const leverage = await post('/Perp/leverage', tokenB, { symbol: SYMBOL, leverage: '1' });
  if (leverage.code !== 1000) throw new Error(`the printer's leverage: ${JSON.stringify(leverage)}`);
  // why: a bid far under the market (one tick) that never fills: whenever nothing else bids, the
  // book's mid is half the band's floor (up: an ask at ten times the mark). It is placed again
  // whenever it is gone. PERP_ABUSE_FLOOR_BID=off leaves it out.
  let floorBid: { token: string; id: string } | undefined;
  const keepFloorBid = async () => {
    if (!FLOOR_BID) return;
    if (floorBid) {
      const account = await get('/Perp/account', { symbol: SYMBOL }, floorBid.token);
      if ((account.data?.orders ?? []).some((o: { id: string }) => o.id === floorBid?.id)) return;
    }
    const markNow = (await ticker())?.mark ?? 0n;
    const bid = await place(tokenB, {
      side: DIRECTION === 'down' ? 'buy' : 'sell',
      type: 'limit',
      price: atomsText(DIRECTION === 'down' ? TICK : ((markNow * 10n) / TICK) * TICK),
      qty: PRINT_QTY,
    });
    refused('far order', bid);
    floorBid = bid.code === 1000 ? { token: tokenB, id: bid.data[0].id } : undefined;
  };
  await keepFloorBid();

  const start = Date.now();
  const deadline = start + SECONDS * 1000;
  let sampling = true;
  const sampler = (async () => {
    let next = start;
    while (sampling) {
      const sample = await ticker().catch(() => undefined);
      if (sample) {
        samples.push(sample);
        const second = Math.round((sample.at - start) / 1000);
        if (second % 10 === 0) {
          const signed = ((sample.mark - sample.index) * 10_000n) / sample.index;
          console.log(
            `  ${String(second).padStart(4)} s: mark ${atomsText(sample.mark)} index ${atomsText(sample.index)} ` +
              `(${pctText(signed)} %)`,
          );
        }
      }
      next += 1000;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - Date.now())));
    }
  })();

  console.log(
    `the push: ${SECONDS} s on ${SYMBOL}, ${DIRECTION === 'down' ? 'sells' : 'buys'} of ${PUSH_QTY} just inside ` +
      `the band, each followed by a ${PRINT_QTY} market ${DIRECTION === 'down' ? 'buy' : 'sell'} from the other account`,
  );
  // why: the account that pushes (sells into the band, down) and the one that prints (buys 0.01).
  let pusher = tokenA;
  let printer = tokenB;
  let resting: string | undefined;
  while (Date.now() < deadline) {
    const now = await ticker();
    if (!now) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    rounds += 1;
    if (rounds % 10 === 0) await keepFloorBid();
    // just inside the band: one tick above its floor (down), one tick under its ceiling (up)
    const price =
      DIRECTION === 'down'
        ? ((now.mark * (100n - BAND_PCT) + 100n * TICK - 1n) / (100n * TICK)) * TICK + TICK
        : ((now.mark * (100n + BAND_PCT)) / (100n * TICK)) * TICK - TICK;
    if (resting) await post('/Perp/cancel', pusher, { id: resting });
    resting = undefined;
    const push = await place(pusher, {
      side: DIRECTION === 'down' ? 'sell' : 'buy',
      type: 'limit',
      price: atomsText(price),
      qty: PUSH_QTY,
    });
    refused('push', push);
    if (push.code === 1000) {
      const open = (push.data as { id: string; state: string }[]).find(
        (o) => o.state === 'new' || o.state === 'partial',
      );
      resting = open?.id;
    }
    const print = await place(printer, {
      side: DIRECTION === 'down' ? 'buy' : 'sell',
      type: 'market',
      qty: PRINT_QTY,
    });
    refused('print', print);
    // why: out of margin (3004) or past its tier's size (7063) on either side: the other account
    // pushes now, closing what it holds.
    if ([push.code, print.code].some((code) => code === 3004 || code === 7063)) {
      if (resting) await post('/Perp/cancel', pusher, { id: resting });
      resting = undefined;
      [pusher, printer] = [printer, pusher];
      swaps += 1;
    }
    if (PACE_MS > 0) await new Promise((resolve) => setTimeout(resolve, PACE_MS));
  }
  if (resting) await post('/Perp/cancel', pusher, { id: resting });
  if (floorBid) await post('/Perp/cancel', floorBid.token, { id: floorBid.id });
  sampling = false;
  await sampler;

  const liquidations = await get('/Perp/liquidations', { symbol: SYMBOL }, tokenVictim);
  victimLiquidated = (liquidations.data?.list ?? []).some(
    (l: { kind: string }) => l.kind === 'liquidation' || l.kind === 'adl',
  );
  for (const l of liquidations.data?.list ?? [])
    console.log(`victim ${l.kind}: ${l.side} ${l.qty} at mark ${l.mark}, closed at ${l.price}, pnl ${l.pnl}`);
} catch (error) {
  failure = error;
} finally {
  server?.kill('SIGTERM');
  await new Promise((resolve) =>
    server && server.exitCode === null ? server.once('exit', resolve) : resolve(null),
  );
}
if (failure !== undefined || before === undefined) {
  fs.rmSync(dataDir, { recursive: true, force: true });
  throw failure;
}
try {
  after = await readPerpBooks(ENV, dataDir, SYMBOL, [...PAIR, VICTIM, MAKER]);
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}

const equityOf = (books: PerpBooks, name: string) => books.accounts.get(name)?.equity ?? 0n;
const change = (name: string) => equityOf(after, name) - (pairStart.get(name) ?? equityOf(before, name));
const pairPnl = change(PAIR[0]) + change(PAIR[1]);
const makerPnl = change(MAKER);
// why: like the accounts, the fund is valued at the mark: its balance and the lots it holds.
const fundPnl = after.insurance + after.lotsUpnl - (before.insurance + before.lotsUpnl);
let worst: Sample | undefined;
for (const s of samples) if (!worst || deviation(s) > deviation(worst)) worst = s;
const worstDev = worst ? deviation(worst) : 0n;

// why: the pair's starting equity is what it held after converting (printed as it started), not the store's.
console.log(describeBooks('before the server started', before, PAIR));
console.log(describeBooks('after', after));
console.log(
  `${rounds} rounds, ${swaps} role swaps, ${samples.length} ticker samples; ` +
    (refusals.size === 0
      ? 'nothing refused'
      : `refused: ${[...refusals].map(([what, n]) => `${what} ×${n}`).join('; ')}`),
);
if (worst) {
  const first = (pct: bigint) => samples.find((s) => deviation(s) >= pct * 100n);
  const reached = [1n, 5n, 19n, 46n]
    .map((pct) => {
      const s = first(pct);
      return s ? `${pct} % after ${Math.round((s.at - samples[0]!.at) / 1000)} s` : null;
    })
    .filter((x) => x !== null);
  console.log(
    `the mark's worst deviation from the index: ${pctText(worstDev)} % (mark ${atomsText(worst.mark)}, ` +
      `index ${atomsText(worst.index)})${reached.length > 0 ? `; reached ${reached.join(', ')}` : ''}`,
  );
}
console.log(`${victimOpened}: ${victimLiquidated ? 'LIQUIDATED' : 'not liquidated'}`);
console.log(
  `pair ${usdt(pairPnl)} USDT (${PAIR.map((n) => `${n} ${usdt(change(n))}`).join(', ')}), ` +
    `victim ${usdt(change(VICTIM))}, maker ${usdt(makerPnl)}, insurance fund ${usdt(fundPnl)}` +
    ` (balance ${usdt(after.insurance - before.insurance)}` +
    (after.lots > 0 ? `, ${after.lots} lots worth ${usdt(after.lotsUpnl)} at the mark)` : ')'),
);
console.log(
  `perp-abuse worst_mark_dev_pct=${pctText(worstDev)} pair_pnl=${atomsText(pairPnl)} ` +
    `fund_pnl=${atomsText(fundPnl)} maker_pnl=${atomsText(makerPnl)}`,
);
