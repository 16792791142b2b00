import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';

/** The venues a fixture server can play. */
export type FixtureVenue = 'binance' | 'okx' | 'bybit';

/** A loopback server speaking one venue's public market-data protocol, for exactly what ccxt calls. */
export interface VenueServer {
  venue: FixtureVenue;
  /** Base URL (`http://127.0.0.1:port`); the same host with ws:// serves the venue's WebSocket paths. */
  url: string;
  /** Moves a unified symbol's last price (a decimal string) and pushes it to every subscriber; `at` defaults to now. */
  setPrice(symbol: string, price: string, at?: number): void;
  /** Cuts every open WebSocket without a close handshake, as a network drop does. */
  dropConnections(): void;
  /** While on, the venue is unreachable: WebSocket upgrades and REST calls are refused (HTTP 503). */
  refuseConnections(on: boolean): void;
  /** While on, only WebSocket upgrades are refused; REST still answers (the fallback path). */
  refuseWebSockets(on: boolean): void;
  /** Sends every subscriber a frame that is not JSON and a ticker whose price is not a number. */
  sendGarbage(): void;
  /** REST calls (`GET /path?query`), WebSocket frames (`WS /path frame`) and refused upgrades (`UPGRADE /path refused`), in order. */
  readonly requests: string[];
  close(): Promise<void>;
}

type Json = any;

interface Fixture {
  prices: Record<string, string>;
  [key: string]: Json;
}

interface Subscription {
  id: string;
  channel: string;
}

interface PriceState {
  price: string;
  at: number | undefined;
}

/** What differs between venues: ids, REST answers, and the WebSocket dialect. */
interface Protocol {
  /** Venue market id of a unified symbol (`BTC/USDT` → `BTCUSDT`, `BTC-USDT`). */
  marketId(symbol: string): string;
  wsPath(path: string): boolean;
  /** The JSON body for a REST GET, or undefined for 404. */
  rest(url: URL, fixture: Fixture, priceOf: (id: string) => PriceState | undefined): Json | undefined;
  /** Handles one client frame; returns the markets newly subscribed, each with its channel. */
  onFrame(
    text: string,
    reply: (body: Json | string) => void,
    fixture: Fixture,
    known: (id: string) => boolean,
  ): Subscription[];
  /** The ticker push for one market on one channel; `price` may be garbage on purpose. */
  tick(subscription: Subscription, price: string, at: number, fixture: Fixture): Json;
}

const clone = <T>(value: T): T => structuredClone(value);

const binance: Protocol = {
  marketId: (symbol) => symbol.replace('/', ''),
  wsPath: (path) => path === '/ws' || path.startsWith('/ws/'),
  rest(url, fixture, priceOf) {
    if (url.pathname === '/api/v3/exchangeInfo') return fixture.exchangeInfo;
    if (url.pathname === '/api/v3/ticker/24hr') {
      const id = url.searchParams.get('symbol') ?? '';
      const state = priceOf(id);
      if (!state) return { status: 400, body: { code: -1121, msg: 'Invalid symbol.' } };
      const body = clone(fixture.restTicker);
      Object.assign(body, {
        symbol: id,
        lastPrice: state.price,
        bidPrice: state.price,
        askPrice: state.price,
        closeTime: state.at ?? Date.now(),
      });
      return body;
    }
    return undefined;
  },
  onFrame(text, reply, _fixture, known) {
    const frame = JSON.parse(text);
    if (frame.method !== 'SUBSCRIBE') return [];
    reply({ result: null, id: frame.id });
    return (frame.params as string[])
      .map((stream) => ({ id: stream.split('@')[0]!.toUpperCase(), channel: stream.split('@')[1] ?? '' }))
      .filter(({ id, channel }) => known(id) && (channel === 'ticker' || channel === 'miniTicker'));
  },
  tick({ id, channel }, price, at, fixture) {
    if (channel === 'miniTicker')
      return Object.assign(clone(fixture.wsMiniTicker), { s: id, c: price, E: at });
    return Object.assign(clone(fixture.wsTicker), { s: id, c: price, b: price, a: price, E: at, C: at });
  },
};

const okx: Protocol = {
  marketId: (symbol) => symbol.replace('/', '-'),
  wsPath: (path) => path === '/ws/v5/public',
  rest(url, fixture, priceOf) {
    if (url.pathname === '/api/v5/public/instruments') {
      return url.searchParams.get('instType') === 'SPOT'
        ? fixture.instruments
        : { code: '0', msg: '', data: [] };
    }
    if (url.pathname === '/api/v5/market/ticker') {
      const id = url.searchParams.get('instId') ?? '';
      const state = priceOf(id);
      if (!state) return { code: '51001', msg: "Instrument ID doesn't exist.", data: [] };
      const body = clone(fixture.restTicker);
      Object.assign(body.data[0], {
        instId: id,
        last: state.price,
        askPx: state.price,
        bidPx: state.price,
        ts: String(state.at ?? Date.now()),
      });
      return body;
    }
    return undefined;
  },
  onFrame(text, reply, fixture, known) {
    if (text === 'ping') {
      reply('pong');
      return [];
    }
    const frame = JSON.parse(text);
    if (frame.op !== 'subscribe') return [];
    const subscribed: Subscription[] = [];
    for (const arg of frame.args as { channel: string; instId: string }[]) {
      if (arg.channel !== 'tickers' || !known(arg.instId)) {
        reply({
          event: 'error',
          code: '60018',
          msg: `Wrong URL or channel:${arg.channel},instId:${arg.instId} doesn't exist.`,
          connId: fixture.wsSubscribed.connId,
        });
        continue;
      }
      reply({ ...clone(fixture.wsSubscribed), arg });
      subscribed.push({ id: arg.instId, channel: 'tickers' });
    }
    return subscribed;
  },
  tick({ id }, price, at, fixture) {
    const body = clone(fixture.wsTicker);
    body.arg.instId = id;
    Object.assign(body.data[0], { instId: id, last: price, askPx: price, bidPx: price, ts: String(at) });
    return body;
  },
};

const bybit: Protocol = {
  marketId: (symbol) => symbol.replace('/', ''),
  wsPath: (path) => path === '/v5/public/spot',
  rest(url, fixture, priceOf) {
    const category = url.searchParams.get('category');
    if (url.pathname === '/v5/market/instruments-info') {
      if (category === 'spot') return fixture.instruments;
      return {
        retCode: 0,
        retMsg: 'OK',
        result: { category, list: [], nextPageCursor: '' },
        retExtInfo: {},
        time: Date.now(),
      };
    }
    if (url.pathname === '/v5/market/tickers') {
      const id = url.searchParams.get('symbol') ?? '';
      const state = priceOf(id);
      if (!state)
        return {
          retCode: 10001,
          retMsg: 'Not supported symbols',
          result: {},
          retExtInfo: {},
          time: Date.now(),
        };
      const body = clone(fixture.restTicker);
      Object.assign(body.result.list[0], {
        symbol: id,
        lastPrice: state.price,
        bid1Price: state.price,
        ask1Price: state.price,
      });
      body.time = state.at ?? Date.now();
      return body;
    }
    return undefined;
  },
  onFrame(text, reply, fixture, known) {
    const frame = JSON.parse(text);
    if (frame.op === 'ping') {
      reply({ ...clone(fixture.wsPong), req_id: frame.req_id });
      return [];
    }
    if (frame.op !== 'subscribe') return [];
    const ids = (frame.args as string[]).map((topic) => topic.replace(/^tickers\./, ''));
    const isKnown = ids.every(known);
    reply({
      ...clone(fixture.wsSubscribed),
      success: isKnown,
      ret_msg: isKnown ? 'subscribe' : `Invalid symbol :[${frame.args}]`,
      req_id: frame.req_id,
    });
    return isKnown ? ids.map((id) => ({ id, channel: 'tickers' })) : [];
  },
  tick({ id }, price, at, fixture) {
    const body = clone(fixture.wsTicker);
    body.topic = `tickers.${id}`;
    body.ts = at;
    Object.assign(body.data, { symbol: id, lastPrice: price });
    return body;
  },
};

const PROTOCOLS: Record<FixtureVenue, Protocol> = { binance, okx, bybit };

function loadFixture(venue: FixtureVenue): Fixture {
  return JSON.parse(readFileSync(new URL(`./fixtures/${venue}.json`, import.meta.url), 'utf8'));
}

/** Starts a fixture venue on loopback (an ephemeral port unless `port` is given). */
export async function startVenue(venue: FixtureVenue, options: { port?: number } = {}): Promise<VenueServer> {
  const protocol = PROTOCOLS[venue];
  const fixture = loadFixture(venue);
  const prices = new Map<string, PriceState>();
  for (const [symbol, price] of Object.entries(fixture.prices))
    prices.set(protocol.marketId(symbol), { price, at: undefined });
  const subscriptions = new Map<WebSocket, Map<string, Subscription>>();
  const requests: string[] = [];
  let isRefusing = false;
  let isRefusingWs = false;

  const send = (socket: WebSocket, body: Json | string) => {
    if (socket.readyState === socket.OPEN)
      socket.send(typeof body === 'string' ? body : JSON.stringify(body));
  };
  const push = (socket: WebSocket, subscription: Subscription) => {
    const state = prices.get(subscription.id);
    if (state) send(socket, protocol.tick(subscription, state.price, state.at ?? Date.now(), fixture));
  };

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    requests.push(`GET ${url.pathname}${url.search}`);
    const answer = (status: number, body: Json) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (isRefusing) return answer(503, { msg: 'Service Unavailable' });
    const result = protocol.rest(url, fixture, (id) => prices.get(id));
    if (result === undefined) return answer(404, { msg: `no fixture for ${url.pathname}` });
    if (result && typeof result === 'object' && 'status' in result && 'body' in result)
      return answer(result.status, result.body);
    answer(200, result);
  });

  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    if (isRefusing || isRefusingWs || !protocol.wsPath(path)) {
      requests.push(`UPGRADE ${path} refused`);
      socket.end(
        `HTTP/1.1 ${isRefusing || isRefusingWs ? '503 Service Unavailable' : '404 Not Found'}\r\nConnection: close\r\n\r\n`,
      );
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      subscriptions.set(ws, new Map());
      ws.on('close', () => subscriptions.delete(ws));
      ws.on('error', () => subscriptions.delete(ws));
      ws.on('message', (data) => {
        const text = String(data);
        requests.push(`WS ${path} ${text}`);
        let subscribed: Subscription[];
        try {
          subscribed = protocol.onFrame(
            text,
            (body) => send(ws, body),
            fixture,
            (id) => prices.has(id),
          );
        } catch {
          return;
        }
        for (const subscription of subscribed) {
          subscriptions.get(ws)?.set(subscription.id, subscription);
          // why: real venues push a first snapshot right after subscribing; so does the fixture.
          push(ws, subscription);
        }
      });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    venue,
    url: `http://127.0.0.1:${port}`,
    requests,
    setPrice(symbol, price, at) {
      const id = protocol.marketId(symbol);
      if (!prices.has(id)) throw new Error(`${venue} fixture does not list ${symbol}`);
      prices.set(id, { price, at: at ?? Date.now() });
      for (const [socket, subscribed] of subscriptions) {
        const subscription = subscribed.get(id);
        if (subscription) push(socket, subscription);
      }
    },
    dropConnections() {
      for (const socket of subscriptions.keys()) socket.terminate();
      subscriptions.clear();
    },
    refuseConnections(on) {
      isRefusing = on;
    },
    refuseWebSockets(on) {
      isRefusingWs = on;
    },
    sendGarbage() {
      for (const [socket, subscribed] of subscriptions) {
        send(socket, '\u0000{"garbage');
        for (const subscription of subscribed.values())
          send(socket, protocol.tick(subscription, 'garbage', Date.now(), fixture));
      }
    },
    async close() {
      for (const socket of subscriptions.keys()) socket.terminate();
      subscriptions.clear();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The three fixture venues, and the `urls` map a `VenuePriceFeed` (or `INDEX_SOURCE_URLS`) takes. */
export interface VenueFixtures {
  venues: Record<FixtureVenue, VenueServer>;
  urls: Record<FixtureVenue, string>;
  /** `binance=http://127.0.0.1:1234,okx=…,bybit=…`, for a spawned server's environment. */
  env: string;
  close(): Promise<void>;
}

/** Starts binance, okx and bybit fixture servers on ephemeral loopback ports. */
export async function startVenues(): Promise<VenueFixtures> {
  const [b, o, y] = await Promise.all([startVenue('binance'), startVenue('okx'), startVenue('bybit')]);
  const venues = { binance: b, okx: o, bybit: y };
  const urls = { binance: b.url, okx: o.url, bybit: y.url };
  return {
    venues,
    urls,
    env: Object.entries(urls)
      .map(([venue, url]) => `${venue}=${url}`)
      .join(','),
    close: async () => {
      await Promise.all([b.close(), o.close(), y.close()]);
    },
  };
}
