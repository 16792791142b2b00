import { Agent } from 'node:http';
import { createRequire } from 'node:module';
import { MAX_AMOUNT_ATOMS, toAtoms } from '@bourse/shared';
import type { Exchange, Ticker } from 'ccxt';
import type { MissingSource, SourceQuote } from './index-price.ts';

/** A market the index follows, and which symbol each venue quotes it under. */
export interface VenueMarket {
  symbol: string;
  base: string;
  quote: string;
  /** venue → venue symbol (ccxt unified, e.g. 'BTC/USDT'); absent venue → default `${base}/${quote}`; null → not used for this market */
  mappings?: Record<string, string | null>;
}

/** One venue's feed of one market, as the back office and `/readyz` show it. */
export interface VenueSourceState {
  venue: string;
  symbol: string;
  venueSymbol: string | null;
  state: 'connecting' | 'up' | 'down';
  price: bigint | null;
  at: number | null;
  transport: 'ws' | 'rest' | null;
  error: string | null;
  /** Times this feed has gone down since it started (a garbage message, a dropped socket, a failed call). */
  failures: number;
}

export type VenueLog = (level: 'info' | 'warn', msg: string, data?: object) => void;

export interface VenuePriceFeedOptions {
  /** ccxt exchange ids, e.g. ['binance', 'okx', 'bybit']. */
  venues: readonly string[];
  /**
   * per venue, a base URL replacing the venue's public REST and WebSocket hosts (mirrors; the tests' fixture servers).
   * Every URL of the venue's ccxt `urls.api` keeps its path under the new origin (and any path of the base);
   * `http:` gives `ws:` sockets, `https:` gives `wss:`. What the feed then calls:
   * binance `GET /api/v3/exchangeInfo`, `GET /api/v3/ticker/24hr`, socket `/ws/<n>` (`<symbol>@miniTicker`);
   * okx `GET /api/v5/public/instruments?instType=SPOT`, `GET /api/v5/market/ticker`, socket `/ws/v5/public` (`tickers`);
   * bybit `GET /v5/market/instruments-info?category=spot`, `GET /v5/market/tickers`, socket `/v5/public/spot` (`tickers.<id>`).
   */
  urls?: Readonly<Record<string, string>>;
  clock: { now(): number };
  /** Reconnection delays: exponential from `minMs` up to `maxMs`, with full jitter. Default 500 ms to 30 s. */
  backoff?: { minMs: number; maxMs: number };
  /** How often a symbol is polled over REST while its WebSocket is failing. Default 2000 ms. */
  restPollMs?: number;
  log?: VenueLog;
}

type ExchangeClass = new (config?: object) => Exchange;

type ExchangeClasses = Record<string, ExchangeClass | undefined>;

let ccxtClasses: { pro: ExchangeClasses; rest: ExchangeClasses } | undefined;

/**
 * ccxt's exchange classes, loaded on first use.
 * why: loading ccxt takes most of a second of CPU, which a server on the simulated feed (every test
 * server) would pay at start for nothing; ccxt.pro holds the classes with WebSocket methods, and a
 * venue without one can still be polled over REST.
 */
function loadCcxt(): { pro: ExchangeClasses; rest: ExchangeClasses } {
  if (!ccxtClasses) {
    const ccxt = createRequire(import.meta.url)('ccxt') as typeof import('ccxt');
    ccxtClasses = { pro: ccxt.pro as unknown as ExchangeClasses, rest: ccxt as unknown as ExchangeClasses };
  }
  return ccxtClasses;
}

function exchangeClass(id: string): ExchangeClass | undefined {
  if (!/^[a-z0-9]+$/.test(id)) return undefined;
  const { pro, rest } = loadCcxt();
  const found = Object.hasOwn(pro, id) ? pro[id] : Object.hasOwn(rest, id) ? rest[id] : undefined;
  return typeof found === 'function' ? found : undefined;
}

const knownVenues = new Map<string, boolean>();

/** True when ccxt has the exchange `id` and it has a public `watchTicker` or `fetchTicker`. */
export function isKnownVenue(id: string): boolean {
  const cached = knownVenues.get(id);
  if (cached !== undefined) return cached;
  const Class = exchangeClass(id);
  let isKnown = false;
  if (Class) {
    const has = new Class().has;
    isKnown = has.watchTicker === true || has.fetchTicker === true;
  }
  knownVenues.set(id, isKnown);
  return isKnown;
}

/**
 * The raw decimal-string fields that hold the last price in the venues' own messages, WebSocket then REST.
 * why: ccxt turns prices into floats; the venue's string is the exact price.
 */
const RAW_LAST_FIELDS: Record<string, readonly string[]> = {
  binance: ['c', 'lastPrice'],
  okx: ['last'],
  bybit: ['lastPrice'],
};

const PLAIN_DECIMAL = /^\d+(\.\d+)?$/;
const NUMBER_TEXT = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/;

/**
 * A float's shortest decimal text (what `String(n)` gives, exponent and all) as a plain decimal string.
 * why: the digits are moved, never multiplied; for a price sent with up to 15 significant digits the
 * shortest text is exactly the digits the venue sent.
 */
function numberToDecimal(value: number): string | undefined {
  if (!Number.isFinite(value) || value < 0) return undefined;
  const match = NUMBER_TEXT.exec(String(value));
  if (!match) return undefined;
  const [, whole, fraction = '', exponentText = '+0'] = match;
  const exponent = Number(exponentText);
  const digits = whole! + fraction;
  const point = whole!.length + exponent;
  if (point <= 0) return `0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return digits + '0'.repeat(point - digits.length);
  return `${digits.slice(0, point)}.${digits.slice(point)}`;
}

function decimalAtoms(text: string | undefined): bigint | undefined {
  if (text === undefined || !PLAIN_DECIMAL.test(text)) return undefined;
  const atoms = toAtoms(text);
  // why: a price past what any amount may be would overflow the 64-bit columns it is recorded in
  // (and fail every market's tick with it); such a message is garbage, not a price.
  return atoms > 0n && atoms <= MAX_AMOUNT_ATOMS ? atoms : undefined;
}

/**
 * The ticker's last price in atoms (truncated to 10^-8), from the venue's raw string where known, else
 * from ccxt's float through its shortest decimal text; undefined when there is no usable price.
 */
export function tickerPriceAtoms(venue: string, ticker: Pick<Ticker, 'last' | 'info'>): bigint | undefined {
  const info = ticker.info as Record<string, unknown> | undefined;
  const parsed = typeof ticker.last === 'number' ? decimalAtoms(numberToDecimal(ticker.last)) : undefined;
  for (const field of RAW_LAST_FIELDS[venue] ?? []) {
    const raw = info?.[field];
    if (typeof raw !== 'string') continue;
    const atoms = decimalAtoms(raw.trim());
    // why: a raw field that disagrees with ccxt's own reading (by more than a basis point) means the
    // message is not the shape this table expects; no price is safer than the wrong field.
    if (atoms !== undefined && parsed !== undefined) {
      const gap = atoms > parsed ? atoms - parsed : parsed - atoms;
      if (gap * 10_000n > parsed) return undefined;
    }
    return atoms;
  }
  return parsed;
}

/** Replaces the scheme and host of every URL in a ccxt `urls.api` tree by `base`, keeping the paths. */
function rewriteUrls(tree: unknown, base: URL): unknown {
  if (typeof tree === 'string') {
    const match = /^(https?|wss?):\/\/[^/]+(.*)$/.exec(tree);
    if (!match) return tree;
    const isWs = match[1]!.startsWith('ws');
    const scheme = base.protocol === 'https:' ? (isWs ? 'wss:' : 'https:') : isWs ? 'ws:' : 'http:';
    const prefix = base.pathname.replace(/\/+$/, '');
    return `${scheme}//${base.host}${prefix}${match[2]}`;
  }
  if (Array.isArray(tree)) return tree.map((value) => rewriteUrls(value, base));
  if (tree && typeof tree === 'object') {
    return Object.fromEntries(Object.entries(tree).map(([key, value]) => [key, rewriteUrls(value, base)]));
  }
  return tree;
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? `${error.constructor.name}: ${error.message}` : String(error);
  return text.length > 300 ? `${text.slice(0, 297)}...` : text;
}

/** One venue × market subscription and the loop that feeds it. */
interface Feed {
  venue: Venue;
  symbol: string;
  venueSymbol: string | null;
  state: VenueSourceState;
  /** Set when the mapping changes or the feed closes; the loop ends at its next step. */
  isStopped: boolean;
  loop: Promise<void> | undefined;
}

interface Venue {
  id: string;
  exchange: Exchange;
  hasWs: boolean;
  /** Resolves once the venue's markets are loaded; retried with backoff until then. */
  marketsLoaded: Promise<boolean> | undefined;
  isLoaded: boolean;
}

/**
 * Live last prices from public exchanges through ccxt: each venue's WebSocket ticker for every mapped
 * symbol, REST `fetchTicker` polling while the socket fails, reconnection with exponential backoff and
 * jitter (uniform between `backoff.minMs` and the exponential ceiling, capped at `maxMs`). A symbol the
 * venue does not list stays `unmapped` until the markets are set again. A venue that fails is marked down with its error and never stops the others; nothing
 * it sends can throw out of the feed. Prices are bigint atoms (10^-8 quote units) parsed from the
 * venues' decimal strings.
 */
export class VenuePriceFeed {
  readonly source = 'venues' as const;
  private readonly venues: Venue[];
  private readonly clock: { now(): number };
  private readonly backoff: { minMs: number; maxMs: number };
  private readonly restPollMs: number;
  private readonly log: VenueLog;
  private readonly urls: Readonly<Record<string, string>>;
  private readonly feeds = new Map<string, Feed>();
  private readonly listeners = new Set<(symbol: string) => void>();
  private readonly sleeps = new Set<() => void>();
  private isStarted = false;
  private isClosed = false;

  /** Throws a RangeError for a venue ccxt does not know (see {@link isKnownVenue}), a TypeError for a URL that does not parse. */
  constructor(options: VenuePriceFeedOptions) {
    this.clock = options.clock;
    this.backoff = options.backoff ?? { minMs: 500, maxMs: 30_000 };
    if (!(this.backoff.minMs > 0 && this.backoff.maxMs >= this.backoff.minMs)) {
      throw new RangeError(`backoff must be 0 < minMs ≤ maxMs: ${JSON.stringify(this.backoff)}`);
    }
    this.restPollMs = options.restPollMs ?? 2000;
    if (!(this.restPollMs > 0)) throw new RangeError(`restPollMs must be positive: ${this.restPollMs}`);
    this.log = options.log ?? (() => {});
    this.urls = options.urls ?? {};
    this.venues = [...new Set(options.venues)].map((id) => this.createVenue(id));
  }

  private createVenue(id: string): Venue {
    const Class = exchangeClass(id);
    if (!Class || !isKnownVenue(id)) throw new RangeError(`unknown index venue: ${id}`);
    const exchange = new Class({
      enableRateLimit: true,
      timeout: 10_000,
      // why: most venues list spot, futures and options; loading only spot keeps start-up quick. The
      // feed owns reconnection (with REST in between), so ccxt's own dial backoff would only add to it.
      options: {
        defaultType: 'spot',
        fetchMarkets: { types: ['spot'] },
        fetchCurrencies: false,
        ws: { backoff: { max: 0 } },
      },
    });
    // why: ccxt logs some socket errors to the console itself; the feed reports them through `log`.
    exchange.log = () => {};
    const base = this.urls[id];
    if (base !== undefined) {
      const url = new URL(base);
      exchange.urls = {
        ...exchange.urls,
        api: rewriteUrls(exchange.urls.api, url) as Exchange['urls']['api'],
      };
      // why: ccxt refuses a plain ws:// URL until it has an http agent (it otherwise loads one asynchronously).
      if (url.protocol === 'http:') exchange.httpAgent = new Agent();
    }
    const hasWs = exchange.has.watchTicker === true;
    return { id, exchange, hasWs, marketsLoaded: undefined, isLoaded: false };
  }

  /** (Re)subscribes to exactly these markets; may be called again when the operator changes a mapping. */
  setMarkets(markets: readonly VenueMarket[]): void {
    const wanted = new Map<string, { venue: Venue; symbol: string; venueSymbol: string | null }>();
    for (const market of markets) {
      for (const venue of this.venues) {
        const mapped =
          market.mappings && Object.hasOwn(market.mappings, venue.id)
            ? market.mappings[venue.id]
            : `${market.base}/${market.quote}`;
        wanted.set(`${venue.id}|${market.symbol}`, { venue, symbol: market.symbol, venueSymbol: mapped });
      }
    }
    for (const [key, feed] of this.feeds) {
      const next = wanted.get(key);
      if (next && next.venueSymbol === feed.venueSymbol) continue;
      feed.isStopped = true;
      this.feeds.delete(key);
    }
    for (const [key, { venue, symbol, venueSymbol }] of wanted) {
      if (this.feeds.has(key)) continue;
      const feed: Feed = {
        venue,
        symbol,
        venueSymbol,
        isStopped: false,
        loop: undefined,
        state: {
          venue: venue.id,
          symbol,
          venueSymbol,
          state: venueSymbol === null ? 'down' : 'connecting',
          price: null,
          at: null,
          transport: null,
          error: venueSymbol === null ? 'not mapped for this market' : null,
          failures: 0,
        },
      };
      this.feeds.set(key, feed);
      if (this.isStarted) this.startFeed(feed);
    }
  }

  /** Resolves once connecting has begun; never rejects because a venue is unreachable. */
  async start(): Promise<void> {
    if (this.isStarted || this.isClosed) return;
    this.isStarted = true;
    for (const feed of this.feeds.values()) this.startFeed(feed);
  }

  /** Closes every socket and timer; the process can exit afterwards. */
  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    for (const feed of this.feeds.values()) feed.isStopped = true;
    for (const wake of this.sleeps) wake();
    this.sleeps.clear();
    await Promise.allSettled(this.venues.map((venue) => venue.exchange.close()));
    const loops = [...this.feeds.values()].map((feed) => feed.loop).filter((loop) => loop !== undefined);
    // why: a REST call in flight cannot be cancelled; its loop ends when it returns, and nothing waits for it.
    await Promise.race([
      Promise.allSettled(loops),
      new Promise((resolve) => setTimeout(resolve, 1000).unref()),
    ]);
    this.listeners.clear();
  }

  /** The latest quote of every venue that has one for `symbol`, plus the configured venues that have none and why ('down' or 'unmapped'). */
  quotes(symbol: string): { quotes: SourceQuote[]; missing: MissingSource[] } {
    const quotes: SourceQuote[] = [];
    const missing: MissingSource[] = [];
    for (const venue of this.venues) {
      const feed = this.feeds.get(`${venue.id}|${symbol}`);
      if (!feed) continue;
      const { state } = feed;
      if (state.state === 'up' && state.price !== null && state.at !== null) {
        quotes.push({ source: venue.id, price: state.price, at: state.at });
      } else {
        missing.push({ source: venue.id, reason: this.isUnmapped(feed) ? 'unmapped' : 'down' });
      }
    }
    return { quotes, missing };
  }

  /** Every venue × market feed, sorted by symbol then venue. */
  states(): VenueSourceState[] {
    return [...this.feeds.values()]
      .map((feed) => ({ ...feed.state }))
      .sort((a, b) => (a.symbol === b.symbol ? (a.venue < b.venue ? -1 : 1) : a.symbol < b.symbol ? -1 : 1));
  }

  /** Called after any venue's quote changes (the integration may use it or poll). Returns the unsubscribe function. */
  onQuote(listener: (symbol: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private isUnmapped(feed: Feed): boolean {
    return feed.venueSymbol === null || (feed.venue.isLoaded && !this.isListed(feed.venue, feed.venueSymbol));
  }

  private isListed(venue: Venue, venueSymbol: string): boolean {
    const markets = venue.exchange.markets ?? {};
    return Object.hasOwn(markets, venueSymbol);
  }

  private startFeed(feed: Feed): void {
    if (feed.venueSymbol === null) return;
    feed.loop = this.runFeed(feed).catch((error: unknown) => {
      // why: the loop catches everything it expects; this is the last guard against an unhandled rejection.
      this.markDown(feed, error);
    });
  }

  private isActive(feed: Feed): boolean {
    return !feed.isStopped && !this.isClosed;
  }

  private async runFeed(feed: Feed): Promise<void> {
    const venueSymbol = feed.venueSymbol!;
    if (!(await this.loadMarkets(feed))) return;
    if (!this.isListed(feed.venue, venueSymbol)) {
      this.markDown(feed, `${feed.venue.id} does not list ${venueSymbol}`);
      return;
    }
    let attempt = 0;
    while (this.isActive(feed)) {
      if (feed.venue.hasWs) {
        try {
          const ticker = await feed.venue.exchange.watchTicker(venueSymbol);
          if (!this.isActive(feed)) return;
          this.record(feed, ticker, 'ws');
          attempt = 0;
          continue;
        } catch (error) {
          if (!this.isActive(feed)) return;
          this.markDown(feed, error);
        }
      }
      // why: while the socket is failing (or the venue has none), REST keeps the quote fresh until the next try.
      const retryAt = performance.now() + this.backoffDelay(attempt++);
      do {
        try {
          const ticker = await feed.venue.exchange.fetchTicker(venueSymbol);
          if (!this.isActive(feed)) return;
          this.record(feed, ticker, 'rest');
        } catch (error) {
          if (!this.isActive(feed)) return;
          this.markDown(feed, error);
        }
        await this.sleep(Math.max(0, Math.min(this.restPollMs, retryAt - performance.now())));
      } while (this.isActive(feed) && (!feed.venue.hasWs || performance.now() < retryAt));
    }
  }

  /** Loads the venue's markets once for all its feeds, retrying with backoff; false when the feed stopped first. */
  private async loadMarkets(feed: Feed): Promise<boolean> {
    const venue = feed.venue;
    venue.marketsLoaded ??= (async () => {
      let attempt = 0;
      while (!this.isClosed) {
        try {
          await venue.exchange.loadMarkets();
          venue.isLoaded = true;
          return true;
        } catch (error) {
          for (const other of this.feeds.values())
            if (other.venue === venue && other.venueSymbol !== null) this.markDown(other, error);
          await this.sleep(this.backoffDelay(attempt++));
        }
      }
      return false;
    })();
    const isLoaded = await venue.marketsLoaded;
    return isLoaded && this.isActive(feed);
  }

  /** Exponential backoff with full jitter: uniform in [minMs, min(maxMs, minMs·2^attempt)]. */
  private backoffDelay(attempt: number): number {
    const { minMs, maxMs } = this.backoff;
    const ceiling = Math.min(maxMs, minMs * 2 ** Math.min(attempt, 30));
    // why: jitter spreads the reconnections of many feeds; the floor keeps a refusing venue from being hammered.
    return minMs + Math.random() * (ceiling - minMs);
  }

  private sleep(ms: number): Promise<void> {
    if (this.isClosed) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleeps.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.sleeps.add(wake);
    });
  }

  private record(feed: Feed, ticker: Ticker, transport: 'ws' | 'rest'): void {
    const price = tickerPriceAtoms(feed.venue.id, ticker);
    if (price === undefined) {
      throw new Error(
        `${feed.venue.id} sent no usable price for ${feed.venueSymbol}: ${JSON.stringify(ticker.info)?.slice(0, 200)}`,
      );
    }
    const received = this.clock.now();
    const venueAt =
      typeof ticker.timestamp === 'number' && Number.isSafeInteger(ticker.timestamp)
        ? ticker.timestamp
        : received;
    // why: a venue clock ahead of ours would make its quote look fresher than it is.
    const at = Math.min(venueAt, received);
    const state = feed.state;
    const wasUp = state.state === 'up';
    const isChanged = state.price !== price || state.at !== at || !wasUp;
    Object.assign(state, { state: 'up', price, at, transport, error: null });
    if (!wasUp) this.log('info', 'index source up', { venue: feed.venue.id, symbol: feed.symbol, transport });
    if (isChanged) this.emit(feed.symbol);
  }

  private markDown(feed: Feed, error: unknown): void {
    if (feed.isStopped) return;
    const state = feed.state;
    const text = typeof error === 'string' ? error : errorText(error);
    const wasDown = state.state === 'down';
    if (!wasDown) {
      state.failures += 1;
      this.log('warn', 'index source down', { venue: feed.venue.id, symbol: feed.symbol, error: text });
    }
    Object.assign(state, { state: 'down', error: text });
    if (!wasDown) this.emit(feed.symbol);
  }

  private emit(symbol: string): void {
    for (const listener of this.listeners) {
      try {
        listener(symbol);
      } catch (error) {
        this.log('warn', 'index quote listener failed', { symbol, error: errorText(error) });
      }
    }
  }
}
