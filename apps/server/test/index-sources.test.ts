import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fromAtoms, toAtoms } from '@bourse/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VenueSourceState } from '../src/modules/markets/venue-feed.ts';
import type { VenueIndexFeed } from '../src/modules/markets/venue-index-feed.ts';
import type { ReadinessReport } from '../src/readiness.ts';
import { serverArgs } from '../src/server-command.ts';
import { callApi, exited, freePort, killHard } from './child-server.ts';
import { deliveryOf, newTrader, place, signInOwner } from './delivery-harness.ts';
import { callAdmin, DIALECTS, startServer, type TestServer } from './harness.ts';
import { startVenues, type VenueFixtures } from './venues/venue-server.ts';

const SECOND = 1000;
const VENUES = ['binance', 'bybit', 'okx'] as const;
type Venue = (typeof VENUES)[number];
/** The markets these tests keep active: every fixture venue quotes both. */
const SYMBOLS = { BTCUSDT: 'BTC/USDT', ETHUSDT: 'ETH/USDT' } as const;
type Symbol = keyof typeof SYMBOLS;

/** Waits on a condition with quick polling and a deadline (never a fixed sleep). */
async function until<T>(probe: () => T | Promise<T>, what: string, ms = 10_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`not in time: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(DIALECTS)('the real index from three venues on $name', ({ name, skip }) => {
  describe.skipIf(skip)('', () => {
    let fixtures: VenueFixtures;
    let server: TestServer;
    let feed: VenueIndexFeed;
    let owner: string;
    /** What each venue quotes now, per market (decimal strings, as venues send them). */
    const quotes: Record<Venue, Record<Symbol, string>> = {
      binance: { BTCUSDT: '96500.12', ETHUSDT: '3450.55' },
      okx: { BTCUSDT: '96510', ETHUSDT: '3450.61' },
      bybit: { BTCUSDT: '96490.5', ETHUSDT: '3450.48' },
    };

    const state = (venue: Venue, symbol: Symbol): VenueSourceState | undefined =>
      feed.states().find((s) => s.venue === venue && s.symbol === symbol);

    /**
     * Every venue quotes its price again now (on the test's clock), except those in `skip`; waits
     * until the feed holds each new quote.
     */
    async function quoteAll(options: { skip?: Venue[]; at?: Partial<Record<Venue, number>> } = {}) {
      const now = server.clock.now();
      for (const venue of VENUES) {
        if (options.skip?.includes(venue)) continue;
        for (const symbol of Object.keys(SYMBOLS) as Symbol[]) {
          fixtures.venues[venue].setPrice(SYMBOLS[symbol], quotes[venue][symbol], options.at?.[venue]);
        }
      }
      await until(
        () =>
          VENUES.every(
            (venue) =>
              options.skip?.includes(venue) ||
              (Object.keys(SYMBOLS) as Symbol[]).every((symbol) => {
                const s = state(venue, symbol);
                return (
                  s?.state === 'up' &&
                  s.price === toAtoms(quotes[venue][symbol]) &&
                  s.at === (options.at?.[venue] ?? now)
                );
              }),
          ),
        'every venue holds its new quote',
      );
    }

    /** One feed interval: the job aggregates and records. Answers BTCUSDT's latest stored tick. */
    async function step() {
      await server.clock.advance(SECOND);
      return server.app.ctx.store.db
        .selectFrom('index_ticks')
        .selectAll()
        .where('symbol', '=', 'BTCUSDT')
        .orderBy('at', 'desc')
        .executeTakeFirst();
    }

    const part = (
      venue: Venue,
      price: string | null,
      at: number | null,
      used: boolean,
      reason: string | null,
    ) => ({
      source: venue,
      price: price === null ? null : fromAtoms(toAtoms(price)),
      at,
      used,
      reason,
    });

    beforeAll(async () => {
      fixtures = await startVenues();
      const env = {
        DEMO: 'on',
        ADMIN_USER: 'boss',
        ADMIN_PASSWORD: 'owner-pass-1',
        INDEX_SOURCES: 'binance,okx,bybit',
        INDEX_SOURCE_URLS: fixtures.env,
        INDEX_STALE_MS: '3000',
        LIMIT_REGISTER_PER_IP: '1000/3600',
        SESSION_IDLE_MINUTES: '100000',
        STAFF_SESSION_IDLE_MINUTES: '100000',
      };
      // why: the demo lists eight markets and the fixture venues quote two of them; a first start
      // (feed off, nothing connects) leaves only those two active, as an operator would.
      const first = await startServer(name, { env });
      await first.app.ctx.store.db
        .updateTable('markets')
        .set({ status: 'disabled' })
        .where('symbol', 'not in', Object.keys(SYMBOLS))
        .execute();
      await first.close({ keepStore: true });
      server = await startServer(name, {
        env,
        reuse: first.store,
        build: { startFeed: true, startSettlement: false, startMarketMaker: false },
      });
      feed = server.app.ctx.feed as VenueIndexFeed;
      expect(feed.source).toBe('venues');
      owner = await signInOwner(server, 'boss', 'owner-pass-1');
      // why: a node follows the venues once it holds the feed's lease: its first run takes it (and
      // records nothing yet, no venue having quoted).
      expect(await step()).toBeUndefined();
      await quoteAll();
    }, 60_000);

    afterAll(async () => {
      await server?.close();
      await fixtures?.close();
    });

    it('records each tick with its constituents: the median of three exact prices', async () => {
      const at = server.clock.now();
      const tick = await step();
      expect(tick).toMatchObject({
        price: 9_650_012_000_000n,
        at: BigInt(at + SECOND),
        source: 'median(binance,bybit,okx)',
      });
      const constituents = [
        part('binance', '96500.12', at, true, null),
        part('bybit', '96490.5', at, true, null),
        part('okx', '96510', at, true, null),
      ];
      expect(JSON.parse(tick!.constituents!)).toEqual(constituents);
      const stored = await server.app.ctx.store.db
        .selectFrom('index_prices')
        .select(['price', 'constituents'])
        .where('symbol', '=', 'BTCUSDT')
        .executeTakeFirstOrThrow();
      expect(stored.price).toBe(9_650_012_000_000n);
      expect(JSON.parse(stored.constituents!)).toEqual(constituents);

      const history = await server.call('GET', '/Market/index', { symbol: 'BTCUSDT' });
      expect(history.code).toBe(1000);
      expect(history.data.at(-1)).toEqual({
        symbol: 'BTCUSDT',
        price: '96500.12000000',
        at: at + SECOND,
        source: 'median(binance,bybit,okx)',
        constituents,
      });
      // the ticker is the recorded index, not a simulated walk
      const tickers = await server.call('GET', '/Market/tickers');
      expect(tickers.data.map((t: { symbol: string }) => t.symbol)).toEqual(['BTCUSDT', 'ETHUSDT']);
      expect(tickers.data[0]).toMatchObject({
        price: '96500.12',
        open24h: '96500.12',
        source: 'median(binance,bybit,okx)',
        ts: at + SECOND,
      });
    });

    it('drops an outlier and a stale source, and the tick says which and why', async () => {
      quotes.okx.BTCUSDT = '100000';
      await quoteAll();
      const at = server.clock.now();
      const outlier = await step();
      // of 96500.12 and 96490.50 the median is their mean, 96495.31, exactly
      expect(outlier).toMatchObject({ price: 9_649_531_000_000n, source: 'median(binance,bybit)' });
      expect(JSON.parse(outlier!.constituents!)).toEqual([
        part('binance', '96500.12', at, true, null),
        part('bybit', '96490.5', at, true, null),
        part('okx', '100000', at, false, 'outlier'),
      ]);

      quotes.okx.BTCUSDT = '96510';
      const old = server.clock.now() - 20 * SECOND;
      await quoteAll({ at: { bybit: old } });
      const now = server.clock.now();
      const stale = await step();
      expect(stale).toMatchObject({ price: 9_650_506_000_000n, source: 'median(binance,okx)' });
      expect(JSON.parse(stale!.constituents!)).toEqual([
        part('binance', '96500.12', now, true, null),
        part('bybit', '96490.5', old, false, 'stale'),
        part('okx', '96510', now, true, null),
      ]);
    });

    it('/readyz is degraded, naming it, while one source is down, and lists every source', async () => {
      fixtures.venues.okx.refuseConnections(true);
      fixtures.venues.okx.dropConnections();
      await until(() => state('okx', 'BTCUSDT')?.state === 'down', 'okx is down');
      await quoteAll({ skip: ['okx'] });
      const tick = await step();
      expect(tick).toMatchObject({ source: 'median(binance,bybit)' });
      expect(
        JSON.parse(tick!.constituents!).find((c: { source: string }) => c.source === 'okx'),
      ).toMatchObject({
        used: false,
        reason: expect.stringMatching(/^(down|stale)$/),
      });

      const response = await fetch(`${server.url}/readyz`);
      const report = (await response.json()) as ReadinessReport;
      expect(response.status).toBe(200);
      expect(report.checks.feed.status).toBe('degraded');
      expect(report.checks.feed.detail).toMatch(/okx \(BTCUSDT\)/);
      expect(report.sources).toHaveLength(6);
      expect(report.sources).toContainEqual({ venue: 'okx', symbol: 'BTCUSDT', state: 'down' });
      expect(report.sources).toContainEqual({ venue: 'binance', symbol: 'ETHUSDT', state: 'up' });
    });

    it('with fewer than two valid sources records no tick: the index goes stale, contracts are refused and settlement waits', async () => {
      const trader = await newTrader(server, { verified: false });
      await quoteAll({ skip: ['okx'] });
      const accepted = await place(server, trader.token, {});
      expect(accepted.code).toBe(1000);
      const opening = await step();
      await deliveryOf(server).service.runSettlement();
      const contract = async () =>
        (await server.call('GET', '/Contract/cbillinfo', { id: accepted.data.id }, { token: trader.token }))
          .data;
      expect(await contract()).toMatchObject({ status: 'open', open_price: fromAtoms(opening!.price) });

      // bybit's quotes grow old too: binance alone is fewer than INDEX_MIN_SOURCES (2)
      const lastTick = opening!.at;
      for (let i = 0; i < 4; i++) {
        await quoteAll({ skip: ['okx'], at: { bybit: server.clock.now() - 20 * SECOND } });
        expect((await step())!.at).toBe(lastTick);
      }
      expect(feed.sampledConstituents('BTCUSDT')).toEqual([
        {
          source: 'binance',
          price: toAtoms('96500.12'),
          at: server.clock.now() - SECOND,
          used: true,
          reason: null,
        },
        expect.objectContaining({ source: 'bybit', used: false, reason: 'stale' }),
        { source: 'okx', price: null, at: null, used: false, reason: 'down' },
      ]);
      expect(server.app.ctx.markets!.isIndexStale('BTCUSDT', server.clock.now())).toBe(true);
      const refused = await place(server, trader.token, {});
      expect(refused).toMatchObject({
        code: 7005,
        msg: 'The index price is unavailable right now. Please try again shortly.',
      });
      // a stale index is `down` for the feed, yet the node serves everything else: no 503
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(200);
      const readyz = (await ready.json()) as ReadinessReport;
      expect(readyz.checks.feed).toMatchObject({ status: 'down', detail: expect.stringMatching(/BTCUSDT/) });

      // the contract expires with no tick at or after its expiry: it waits for one
      const expiresAt = (await contract()).expires_at as number;
      await server.clock.advance(expiresAt - server.clock.now());
      await deliveryOf(server).service.runSettlement();
      expect(await contract()).toMatchObject({ status: 'settling', close_price: null });

      // the venues come back: the next tick settles it, on that tick and its constituents
      fixtures.venues.okx.refuseConnections(false);
      await until(() => state('okx', 'BTCUSDT')?.state === 'up', 'okx is back', 40_000);
      await quoteAll();
      const closing = await step();
      expect(closing!.source).toBe('median(binance,bybit,okx)');
      await deliveryOf(server).service.runSettlement();
      expect(await contract()).toMatchObject({
        status: 'settled',
        close_price: fromAtoms(closing!.price),
        close_at: Number(closing!.at),
      });
    }, 90_000);

    it('the back office shows each source, and the owner’s mapping change is audited and applied', async () => {
      await quoteAll({ skip: ['okx'] });
      await until(() => state('okx', 'BTCUSDT')?.state === 'up', 'okx is up');
      await quoteAll();
      await step();
      const panel = await callAdmin(server, 'GET', '/index/sources', undefined, owner);
      expect(panel.code).toBe(1000);
      expect(panel.data).toMatchObject({
        feed: 'venues',
        venues: ['binance', 'okx', 'bybit'],
        minSources: 2,
      });
      const btc = panel.data.markets.find((m: { symbol: string }) => m.symbol === 'BTCUSDT');
      expect(btc.stale).toBe(false);
      expect(btc.sources.map((s: { venue: string }) => s.venue)).toEqual(['binance', 'okx', 'bybit']);
      expect(btc.sources[0]).toMatchObject({
        venue: 'binance',
        venueSymbol: 'BTC/USDT',
        origin: 'default',
        state: 'up',
        price: '96500.12000000',
        ageMs: SECOND,
        used: true,
        reason: null,
      });
      expect(['ws', 'rest']).toContain(btc.sources[0].transport);

      // a venue that is not configured, or a symbol of another coin, is refused in the user's language
      const unknown = await callAdmin(
        server,
        'POST',
        '/index/sources/BTCUSDT/mapping',
        { venue: 'kraken', use: 'default' },
        owner,
      );
      expect(unknown).toMatchObject({
        code: 7020,
        msg: 'This index source is not configured for the platform.',
      });
      const wrong = await callAdmin(
        server,
        'POST',
        '/index/sources/BTCUSDT/mapping',
        { venue: 'bybit', use: 'symbol', venueSymbol: 'ETH/USDT' },
        owner,
      );
      expect(wrong.code).toBe(7021);
      const junk = await callAdmin(
        server,
        'POST',
        '/index/sources/BTCUSDT/mapping',
        { venue: 'bybit', use: 'symbol', venueSymbol: 'BTC USDT' },
        owner,
      );
      expect(junk.code).toBe(7021);

      const off = await callAdmin(
        server,
        'POST',
        '/index/sources/BTCUSDT/mapping',
        { venue: 'bybit', use: 'off', reason: 'bybit BTC book thin today' },
        owner,
      );
      expect(off.code).toBe(1000);
      const bybit = off.data.markets[0].sources.find((s: { venue: string }) => s.venue === 'bybit');
      expect(bybit).toMatchObject({
        venueSymbol: null,
        origin: 'staff',
        updatedBy: expect.stringMatching(/^staff:\d+$/),
      });
      expect(state('bybit', 'BTCUSDT')).toMatchObject({ venueSymbol: null, state: 'down' });
      const [entry] = await server.app.ctx.audit.list(server.app.ctx.store.db, {
        action: 'index.mapping.set',
        limit: 5,
      });
      expect(entry).toMatchObject({
        target: 'index:BTCUSDT:bybit',
        reason: 'bybit BTC book thin today',
        before: { venueSymbol: 'BTC/USDT', origin: 'default' },
        after: { venueSymbol: null, origin: 'staff' },
      });
      // the next tick leaves bybit out as unmapped
      await quoteAll({ skip: ['bybit'] });
      const tick = await step();
      expect(tick!.source).toBe('median(binance,okx)');
      expect(JSON.parse(tick!.constituents!)).toContainEqual(part('bybit', null, null, false, 'unmapped'));

      // back to the default: audited too, and bybit is followed again
      const back = await callAdmin(
        server,
        'POST',
        '/index/sources/BTCUSDT/mapping',
        { venue: 'bybit', use: 'default' },
        owner,
      );
      expect(back.code).toBe(1000);
      await until(
        () => state('bybit', 'BTCUSDT')?.venueSymbol === 'BTC/USDT',
        'bybit follows BTC/USDT again',
      );
      const entries = await server.app.ctx.audit.list(server.app.ctx.store.db, {
        action: 'index.mapping.set',
        limit: 5,
      });
      expect(entries[0]).toMatchObject({
        before: { venueSymbol: null, origin: 'staff' },
        after: { venueSymbol: 'BTC/USDT', origin: 'default' },
      });
    });
  });
});

describe('the server in a process of its own', () => {
  let fixtures: VenueFixtures | undefined;
  const children: ChildProcess[] = [];
  const dataDirs: string[] = [];

  afterAll(async () => {
    for (const child of children) await killHard(child);
    await fixtures?.close();
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the server as `npm start` does, with `env` over a loopback port and a fresh data folder. */
  async function spawnWith(env: Record<string, string>) {
    const port = await freePort();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-index-'));
    dataDirs.push(dataDir);
    const child = spawn(process.execPath, serverArgs(), {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        CAPTCHA: 'off',
        LOG_LEVEL: 'warn',
        LOG_FORMAT: 'json',
        FEED_INTERVAL_MS: '200',
        RATE_LIMIT_STORE: 'memory',
        FEED_SEED: '',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    children.push(child);
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    return { child, port, stderr: () => stderr };
  }

  it('refuses a production start without INDEX_SOURCES, naming the setting, and exits non-zero', async () => {
    const { child, stderr } = await spawnWith({ NODE_ENV: 'production', INDEX_SOURCES: '' });
    const timeout = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const { code } = await exited(child);
    clearTimeout(timeout);
    expect(code).toBe(1);
    expect(stderr()).toMatch(/^Bourse cannot start: INDEX_SOURCES: a production start/m);
  }, 30_000);

  it('starts in production on real sources, and /readyz lists each one', async () => {
    fixtures = await startVenues();
    const { child, port } = await spawnWith({
      NODE_ENV: 'production',
      DEMO: 'on',
      INDEX_SOURCES: 'binance,okx,bybit',
      INDEX_SOURCE_URLS: fixtures.env,
    });
    const report = await until(
      async () => {
        if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
        try {
          const response = await fetch(`http://127.0.0.1:${port}/readyz`);
          const body = (await response.json()) as ReadinessReport;
          const quoted = body.sources.filter((s) => s.symbol === 'BTCUSDT' || s.symbol === 'ETHUSDT');
          return response.status === 200 && quoted.length === 6 && quoted.every((s) => s.state === 'up')
            ? body
            : undefined;
        } catch {
          return undefined; // not listening yet
        }
      },
      'the spawned server follows BTCUSDT and ETHUSDT on every venue',
      30_000,
    );
    // every demo market on every venue; those the fixture venues do not list are down, and
    // markets no venue quotes have no index (stale), which /readyz reports without a 503
    expect(report.sources).toHaveLength(24);
    expect(new Set(report.sources.map((s) => s.venue))).toEqual(new Set(['binance', 'okx', 'bybit']));
    expect(report.sources).toContainEqual({ venue: 'okx', symbol: 'ETHUSDT', state: 'up' });
    expect(report.checks.database.status).toBe('ok');
    const health = (await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()) as { feed: string };
    expect(health.feed).toBe('venues');
    const history = await callApi(port, 'GET', '/Market/index', { symbol: 'BTCUSDT' });
    const ticks = await until(async () => {
      const answer = await callApi(port, 'GET', '/Market/index', { symbol: 'BTCUSDT' });
      return answer.data.length > 0 ? answer.data : undefined;
    }, 'a recorded BTCUSDT tick');
    expect(history.code).toBe(1000);
    expect(ticks[0]).toMatchObject({ source: 'median(binance,bybit,okx)', price: '96500.12000000' });
    expect(ticks[0].constituents).toHaveLength(3);
  }, 60_000);
});
