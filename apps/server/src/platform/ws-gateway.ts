import { randomBytes } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { AppError } from '@bourse/shared';
import websocket from '@fastify/websocket';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { Authenticator } from './auth-hook.ts';
import { clientDevice, clientIp } from './http.ts';
import type { Limit } from './rate-limit.ts';

/** A public channel: what a new subscriber gets first. Updates are pushed with `broadcast`. */
export interface ChannelSource {
  snapshot(): unknown;
}

/**
 * A private channel (after `auth`): each subscriber gets its own user's snapshot first; updates
 * are pushed to one user's connections with `sendToUser`.
 */
export interface PrivateChannelSource {
  snapshot(userId: bigint): Promise<unknown>;
}

/** Limits of `/ws`; every one has a default fit for production. */
export interface WsGatewayOptions {
  /** Ping period; a connection that has not answered the previous ping by the next one is dropped. */
  heartbeatMs?: number;
  /** Open connections one client address may hold; the excess is closed with 1008. */
  maxConnectionsPerAddress?: number;
  /** Bytes queued for one client before it counts as too slow and is dropped. */
  maxBufferedBytes?: number;
  /** Largest frame accepted from a client; a bigger one is closed with 1009. */
  maxPayloadBytes?: number;
  /**
   * How long a connection's outgoing frames are gathered into one write (0: until the end of the
   * event-loop turn). Every frame is still sent, in order; only the system calls are fewer.
   */
  flushMs?: number;
  /** Operations (frames) one connection may send per second, sustained; past it: closed with 1008. */
  opsPerSecond?: number;
  /** Operations one connection may send in a burst before `opsPerSecond` applies. */
  opsBurst?: number;
  /** Bytes of frames that may wait behind a pending `auth`; past it: closed with 1008. */
  maxWaitingBytes?: number;
  /**
   * Failed `auth` attempts per client address (the same limit family as logins:
   * `LIMIT_WS_AUTH_PER_IP`); past it the connection is closed with 1008. Without it, unlimited.
   */
  authLimit?: Limit | null;
  /** How long a token that failed `auth` is refused without asking the session store again. */
  failedAuthCacheMs?: number;
}

const DEFAULTS: Required<WsGatewayOptions> = {
  heartbeatMs: 30_000,
  maxConnectionsPerAddress: 20,
  maxBufferedBytes: 1024 * 1024,
  maxPayloadBytes: 64 * 1024,
  flushMs: 0,
  opsPerSecond: 20,
  opsBurst: 100,
  maxWaitingBytes: 64 * 1024,
  authLimit: null,
  failedAuthCacheMs: 10_000,
};

/** Close codes sent by the gateway (RFC 6455 §7.4.1). */
export const WS_CLOSE = {
  goingAway: 1001,
  policyViolation: 1008,
  tryAgainLater: 1013,
} as const;

const MAX_MESSAGE_BYTES = 4096;
const MAX_SUBSCRIPTIONS = 32;
/** What a frame waiting for an `auth` is counted as beyond its bytes (its entry in the queue). */
const WAITING_FRAME_OVERHEAD = 64;
/** Tokens remembered as failed at once; the oldest are forgotten first. */
const FAILED_AUTH_CACHE_SIZE = 1024;
/** How long a shutdown waits for clients to answer the close frame before cutting them off. */
const SHUTDOWN_GRACE_MS = 1000;

interface Client {
  address: string;
  device: string;
  alive: boolean;
  /** The payload of the last ping; only a pong carrying it counts as an answer. */
  pingNonce?: Buffer;
  /** Token bucket of operations: what is left, and when it was last filled. */
  opsLeft: number;
  opsFilledAt: number;
  /** Set once the gateway has decided to close the connection: its frames are no longer read. */
  closing: boolean;
  channels: Set<string>;
  log: FastifyBaseLogger;
  /** The signed-in user after a successful `auth`, and the session token it signed in with. */
  userId?: bigint;
  token?: string;
  /**
   * A pending `auth`, or a subscription waiting for the channels still being registered at start:
   * later ops wait for it, in `waiting` (at most `maxWaitingBytes`).
   */
  holding?: Promise<void>;
  waiting: { raw: Buffer; isBinary: boolean }[];
  waitingBytes: number;
  /** Frames of private channels held back until the channel's snapshot has been sent. */
  held: Map<string, Buffer[]>;
}

/**
 * The `/ws` endpoint. Clients send `{"op":"subscribe","channel":"ticker"}` (or `unsubscribe`,
 * `ping`); the server answers with `{"channel":…, "data":…}` frames: the snapshot first, then
 * every update. Malformed frames get `{"op":"error"}` and change nothing. `{"op":"auth",
 * "token":…}` signs the connection in with a customer session (answered `{"op":"authed"}`; ops
 * sent after it wait for that answer); private channels refuse a connection that has not (`auth
 * required`), and the session is checked again at each heartbeat (`session ended` signs out). Every update is
 * serialised once, whatever the number of subscribers, and the same bytes are sent to each.
 *
 * The gateway protects the process from its clients, so that one connection costs at most
 * `maxBufferedBytes` queued for it plus `maxWaitingBytes` waiting behind an `auth` (README: "What a
 * connection can cost"):
 * - it pings every `heartbeatMs` with a fresh nonce and drops connections that have not answered
 *   the previous ping with it (a pong the server did not ask for proves nothing);
 * - it caps connections per client address;
 * - every byte queued for a client counts against `maxBufferedBytes` the moment it is queued,
 *   whatever the event-loop turn; past it the client is dropped (a slow reader must not hold the
 *   server's memory);
 * - operations are rate-limited per connection (a token bucket of `opsBurst`, refilled at
 *   `opsPerSecond`), a repeated subscribe is acknowledged without a second snapshot, and frames
 *   waiting for an `auth` sit in one bounded queue; past a limit the connection is closed with
 *   1008 and the reason;
 * - failed `auth` attempts count against the address's `authLimit`, are logged with the address,
 *   and a failed token is refused for `failedAuthCacheMs` without asking the store again;
 * - oversize frames are closed with 1009 without logging them as server errors.
 */
export class WsGateway {
  private readonly options: Required<WsGatewayOptions>;
  private readonly channels = new Map<string, ChannelSource>();
  /** Settles once the channels registered at start are there ({@link holdUnknownChannels}). */
  private settingUp: Promise<void> | undefined;
  private readonly subscribers = new Map<string, Set<WebSocket>>();
  private readonly clients = new Map<WebSocket, Client>();
  private readonly privateChannels = new Map<string, PrivateChannelSource>();
  /** Private channel → user id → that user's subscribed connections. */
  private readonly userSubscribers = new Map<string, Map<bigint, Set<WebSocket>>>();
  private authenticator: Authenticator | undefined;
  private readonly perAddress = new Map<string, number>();
  private heartbeat: NodeJS.Timeout | undefined;
  /** Connections whose writes are held until the next flush, with the bytes gathered so far. */
  private readonly corked = new Map<Duplex, number>();
  /** Tokens that failed `auth` recently → until when they are refused without a look-up. */
  private readonly failedTokens = new Map<string, number>();

  constructor(options: WsGatewayOptions = {}) {
    this.options = { ...DEFAULTS, ...stripUndefined(options) };
  }

  /** Number of open connections (all addresses). */
  get connectionCount(): number {
    return this.clients.size;
  }

  /**
   * Subscriptions to a channel not registered yet wait until `ready` settles, then are answered
   * as usual (`unknown channel` if it is still not there). why: the server listens while the
   * markets load, and registers their channels as each is ready.
   */
  holdUnknownChannels(ready: Promise<unknown>): void {
    const settled = ready.then(
      () => {},
      () => {},
    );
    this.settingUp = settled;
    void settled.then(() => {
      if (this.settingUp === settled) this.settingUp = undefined;
    });
  }

  addChannel(name: string, source: ChannelSource): void {
    this.channels.set(name, source);
    this.subscribers.set(name, new Set());
  }

  addPrivateChannel(name: string, source: PrivateChannelSource): void {
    this.privateChannels.set(name, source);
    this.userSubscribers.set(name, new Map());
  }

  /** Verifies the tokens of `auth` (the sessions module); without one every `auth` is refused. */
  useAuthenticator(authenticator: Authenticator): void {
    this.authenticator = authenticator;
  }

  /** Whether any connection of `userId` is subscribed to the private `channel` on this node. */
  hasUserSubscriber(channel: string, userId: bigint): boolean {
    return (this.userSubscribers.get(channel)?.get(userId)?.size ?? 0) > 0;
  }

  /** Sends `data` on the private `channel` to the connections of one user. */
  sendToUser(channel: string, userId: bigint, data: unknown): void {
    const sockets = this.userSubscribers.get(channel)?.get(userId);
    if (!sockets || sockets.size === 0) return;
    const frame = Buffer.from(JSON.stringify({ channel, data }));
    for (const socket of sockets) {
      const held = this.clients.get(socket)?.held.get(channel);
      if (held) held.push(frame);
      else this.send(socket, frame);
    }
  }

  /** Sends the same `data` on the private `channel` to every signed-in subscriber (encoded once). */
  sendToAllUsers(channel: string, data: unknown): void {
    const users = this.userSubscribers.get(channel);
    if (!users || users.size === 0) return;
    const frame = Buffer.from(JSON.stringify({ channel, data }));
    for (const sockets of users.values()) {
      for (const socket of sockets) {
        const held = this.clients.get(socket)?.held.get(channel);
        if (held) held.push(frame);
        else this.send(socket, frame);
      }
    }
  }

  /** Sends `data` on `channel` to every subscriber; a subscriber too far behind is dropped instead. */
  broadcast(channel: string, data: unknown): void {
    const sockets = this.subscribers.get(channel);
    if (!sockets || sockets.size === 0) return;
    // why: encoded once; each subscriber is sent the same bytes.
    const frame = Buffer.from(JSON.stringify({ channel, data }));
    for (const socket of sockets) this.send(socket, frame);
  }

  /**
   * Registers `@fastify/websocket` with the gateway's limits and the `/ws` route, and starts the
   * heartbeat; closing the app stops it and closes every connection (cut off after a short grace).
   */
  async register(app: FastifyInstance): Promise<void> {
    // why: registered before the plugin so it runs first: the plugin's own preClose waits for
    // every client to finish the close handshake, which a dead client never does.
    app.addHook('preClose', (done) => {
      this.stopHeartbeat();
      for (const socket of this.clients.keys()) socket.close(WS_CLOSE.goingAway, 'server shutting down');
      const cutOff = setTimeout(() => {
        for (const socket of this.clients.keys()) socket.terminate();
      }, SHUTDOWN_GRACE_MS);
      cutOff.unref();
      done();
    });
    await app.register(websocket, {
      options: { maxPayload: this.options.maxPayloadBytes },
      errorHandler: (error, socket, request) => handleSocketError(error, socket, request),
    });
    app.get('/ws', { websocket: true, schema: { hide: true } }, (socket, request) =>
      this.accept(socket, request),
    );
    this.heartbeat = setInterval(() => this.beat(), this.options.heartbeatMs);
    this.heartbeat.unref();
    app.addHook('onClose', async () => this.stopHeartbeat());
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }

  private beat(): void {
    for (const [socket, client] of this.clients) {
      if (!client.alive) {
        client.log.info({ address: client.address }, 'websocket: no pong since the last heartbeat, dropped');
        socket.terminate();
        continue;
      }
      client.alive = false;
      client.pingNonce = randomBytes(8);
      if (socket.readyState === socket.OPEN) socket.ping(client.pingNonce);
      if (client.token !== undefined) void this.recheck(socket, client, client.token);
    }
  }

  /**
   * Checks a signed-in connection's session again (each heartbeat): once it has ended (logout,
   * expiry, a frozen account) the connection is signed out and its private channels stop.
   */
  private async recheck(socket: WebSocket, client: Client, token: string): Promise<void> {
    try {
      await this.authenticator?.authenticate(token, { ip: client.address, device: client.device });
    } catch (error) {
      // why: a store that does not answer for a moment ends no session.
      const ended = error instanceof AppError && error.key === 'SESSION_INVALID';
      if (!ended || client.token !== token) return;
      this.signOut(socket, client);
      this.send(socket, JSON.stringify({ op: 'error', msg: 'session ended' }));
    }
  }

  private signOut(socket: WebSocket, client: Client): void {
    for (const channel of [...client.channels]) {
      if (this.privateChannels.has(channel)) this.unsubscribe(socket, client, channel);
    }
    client.userId = undefined;
    client.token = undefined;
  }

  /** Sends one frame unless the client is too far behind, in which case it is dropped. */
  private send(socket: WebSocket, frame: string | Buffer): boolean {
    if (socket.readyState !== socket.OPEN) return false;
    // why: ws has no public way to group frames; its underlying stream is corked instead.
    const raw = (socket as unknown as { _socket?: Duplex })._socket;
    const bytes = typeof frame === 'string' ? Buffer.byteLength(frame) : frame.length;
    // why: bufferedAmount includes what this flush has gathered (corked writes sit in the same
    // buffer), so frames queued within one event-loop turn cannot escape the limit.
    if (socket.bufferedAmount + bytes > this.options.maxBufferedBytes) {
      const client = this.clients.get(socket);
      client?.log.info(
        { address: client.address, bufferedBytes: socket.bufferedAmount },
        'websocket: client reads too slowly, dropped',
      );
      // why: a close frame would queue behind the backlog the client is not reading; cut it off.
      this.forget(socket);
      socket.terminate();
      return false;
    }
    if (raw) this.cork(raw, bytes);
    socket.send(frame, { binary: false });
    return true;
  }

  /**
   * Holds a connection's writes until the next flush (`flushMs`), so the frames meanwhile (a
   * batch's depth, trades and candles, and the next batches') leave in one write: with a thousand
   * subscribers the system calls, not the encoding, are the cost of a broadcast.
   */
  private cork(raw: Duplex, bytes: number): void {
    const gathered = this.corked.get(raw);
    this.corked.set(raw, (gathered ?? 0) + bytes);
    if (gathered !== undefined) return;
    raw.cork();
    if (this.corked.size > 1) return;
    if (this.options.flushMs === 0) setImmediate(() => this.uncorkAll());
    else setTimeout(() => this.uncorkAll(), this.options.flushMs).unref();
  }

  private uncorkAll(): void {
    for (const raw of this.corked.keys()) raw.uncork();
    this.corked.clear();
  }

  private accept(socket: WebSocket, request: FastifyRequest): void {
    const address = clientIp(request);
    const open = this.perAddress.get(address) ?? 0;
    if (open >= this.options.maxConnectionsPerAddress) {
      request.log.info({ address, open }, 'websocket: too many connections from one address, refused');
      socket.close(WS_CLOSE.policyViolation, 'too many connections');
      // why: a client that never answers the close frame would otherwise hold the socket for ws's 30 s.
      setTimeout(() => socket.terminate(), SHUTDOWN_GRACE_MS).unref();
      return;
    }
    this.perAddress.set(address, open + 1);
    const client: Client = {
      address,
      device: clientDevice(request),
      alive: true,
      opsLeft: this.options.opsBurst,
      opsFilledAt: Date.now(),
      closing: false,
      channels: new Set(),
      log: request.log,
      held: new Map(),
      waiting: [],
      waitingBytes: 0,
    };
    this.clients.set(socket, client);
    socket.on('pong', (data) => {
      if (client.pingNonce?.equals(data)) client.alive = true;
    });
    socket.on('close', () => this.forget(socket));

    const reply = (message: unknown) => this.send(socket, JSON.stringify(message));
    const receive = (raw: Buffer, isBinary: boolean): void => {
      if (client.closing) return;
      if (!this.takeOp(client)) {
        this.shut(socket, client, 'rate limit');
        return;
      }
      // why: ops after an `auth` wait for its answer, so `auth` then `subscribe` needs no round
      // trip; they wait in one bounded queue, in order, each handled once.
      if (client.holding) {
        // why: an empty frame costs its queue entry too.
        client.waitingBytes += raw.length + WAITING_FRAME_OVERHEAD;
        if (client.waitingBytes > this.options.maxWaitingBytes) {
          this.shut(socket, client, 'too many frames waiting for auth');
          return;
        }
        client.waiting.push({ raw, isBinary });
        return;
      }
      handle(raw, isBinary);
    };
    const drain = (): void => {
      while (!client.holding && !client.closing && client.waiting.length > 0) {
        const next = client.waiting.shift()!;
        client.waitingBytes -= next.raw.length + WAITING_FRAME_OVERHEAD;
        handle(next.raw, next.isBinary);
      }
    };
    const handle = (raw: Buffer, isBinary: boolean): unknown => {
      if (isBinary || raw.length > MAX_MESSAGE_BYTES) return reply({ op: 'error', msg: 'bad frame' });
      let message: { op?: unknown; channel?: unknown; token?: unknown };
      try {
        message = JSON.parse(raw.toString('utf8'));
      } catch {
        return reply({ op: 'error', msg: 'bad json' });
      }
      const channel = typeof message?.channel === 'string' ? message.channel : '';
      switch (message?.op) {
        case 'ping':
          return reply({ op: 'pong' });
        case 'auth': {
          const signingIn: Promise<void> = this.authenticate(socket, client, message.token).finally(() => {
            if (client.holding === signingIn) client.holding = undefined;
            drain();
          });
          client.holding = signingIn;
          return signingIn;
        }
        case 'subscribe': {
          if (this.privateChannels.has(channel)) return this.subscribePrivate(socket, client, channel);
          const source = this.channels.get(channel);
          if (!source && this.settingUp) {
            // why: the node listens before the markets' channels are registered; a subscription
            // to one not there yet waits for them (later ops behind it), then is handled again.
            const waiting: Promise<void> = this.settingUp.then(() => {
              if (client.holding === waiting) client.holding = undefined;
              if (!client.closing) handle(raw, isBinary);
              drain();
            });
            client.holding = waiting;
            return waiting;
          }
          if (!source) return reply({ op: 'error', msg: 'unknown channel', channel });
          // why: already subscribed: its updates are flowing; a second snapshot would only let
          // a client multiply what the server queues for it.
          if (client.channels.has(channel)) return reply({ op: 'subscribed', channel });
          if (client.channels.size >= MAX_SUBSCRIPTIONS)
            return reply({ op: 'error', msg: 'too many subscriptions' });
          client.channels.add(channel);
          this.subscribers.get(channel)!.add(socket);
          return reply({ channel, data: source.snapshot() });
        }
        case 'unsubscribe':
          this.unsubscribe(socket, client, channel);
          return reply({ op: 'unsubscribed', channel });
        default:
          return reply({ op: 'error', msg: 'unknown op' });
      }
    };
    socket.on('message', receive);
  }

  /** Takes one operation from the connection's bucket; false when it is empty. */
  private takeOp(client: Client): boolean {
    const now = Date.now();
    const refill = ((now - client.opsFilledAt) / 1000) * this.options.opsPerSecond;
    client.opsLeft = Math.min(this.options.opsBurst, client.opsLeft + refill);
    client.opsFilledAt = now;
    if (client.opsLeft < 1) return false;
    client.opsLeft -= 1;
    return true;
  }

  /**
   * Closes a connection that broke a limit with 1008 and the reason, reads nothing more from it,
   * and cuts it off if it does not answer the close frame within the grace.
   */
  private shut(socket: WebSocket, client: Client, reason: string): void {
    if (client.closing) return;
    client.closing = true;
    client.waiting = [];
    client.waitingBytes = 0;
    client.log.info({ address: client.address, reason }, 'websocket: limit broken, closed');
    this.forget(socket);
    // why: what the client already sent is not read any further.
    socket.pause();
    socket.close(WS_CLOSE.policyViolation, reason);
    setTimeout(() => socket.terminate(), SHUTDOWN_GRACE_MS).unref();
  }

  private async authenticate(socket: WebSocket, client: Client, token: unknown): Promise<void> {
    const reply = (message: unknown) => this.send(socket, JSON.stringify(message));
    const { authLimit } = this.options;
    let lookedUp = false;
    try {
      // why: the slot is claimed before the look-up, so a burst cannot run more look-ups than the
      // limit allows; a successful sign-in gives it back (only failures count, as for logins).
      if (authLimit && !(await authLimit.take(client.address))) {
        this.shut(socket, client, 'too many auth attempts');
        return;
      }
      if (!this.authenticator || typeof token !== 'string' || token === '') throw new Error('no session');
      const refusedUntil = this.failedTokens.get(token);
      if (refusedUntil !== undefined && refusedUntil > Date.now()) throw new Error('token failed recently');
      lookedUp = true;
      const auth = await this.authenticator.authenticate(token, {
        ip: client.address,
        device: client.device,
      });
      await authLimit?.giveBack(client.address);
      // why: a connection signing in as someone else must not keep the first user's pushes.
      if (client.userId !== undefined && client.userId !== auth.userId) this.signOut(socket, client);
      client.userId = auth.userId;
      client.token = token;
      reply({ op: 'authed' });
    } catch (error) {
      // why: only a store's "no such session" is remembered; a store that did not answer is not.
      const invalid = error instanceof AppError && error.key === 'SESSION_INVALID';
      if (lookedUp && invalid) this.rememberFailed(token as string);
      client.log.info(
        { address: client.address, reason: error instanceof AppError ? error.key : (error as Error).message },
        'websocket: auth failed',
      );
      reply({ op: 'error', msg: 'auth failed' });
    }
  }

  private rememberFailed(token: string): void {
    this.failedTokens.delete(token);
    this.failedTokens.set(token, Date.now() + this.options.failedAuthCacheMs);
    // why: Map keeps insertion order, so the first key is the oldest.
    if (this.failedTokens.size > FAILED_AUTH_CACHE_SIZE)
      this.failedTokens.delete(this.failedTokens.keys().next().value!);
  }

  /**
   * Subscribes the signed-in user to a private channel. Updates pushed while its snapshot is
   * being read are held and sent after it, so the client never sees an update before the state.
   */
  private subscribePrivate(socket: WebSocket, client: Client, channel: string): void {
    const reply = (message: unknown) => this.send(socket, JSON.stringify(message));
    const userId = client.userId;
    if (userId === undefined) {
      reply({ op: 'error', msg: 'auth required', channel });
      return;
    }
    if (client.channels.has(channel)) return;
    if (client.channels.size >= MAX_SUBSCRIPTIONS) {
      reply({ op: 'error', msg: 'too many subscriptions' });
      return;
    }
    client.channels.add(channel);
    const users = this.userSubscribers.get(channel)!;
    const sockets = users.get(userId) ?? new Set();
    users.set(userId, sockets);
    sockets.add(socket);
    const held: Buffer[] = [];
    client.held.set(channel, held);
    this.privateChannels
      .get(channel)!
      .snapshot(userId)
      .then(
        (data) => {
          // why: unsubscribed meanwhile (perhaps subscribed again, with a snapshot of its own).
          if (client.held.get(channel) !== held) return;
          client.held.delete(channel);
          reply({ channel, data });
          for (const frame of held) this.send(socket, frame);
        },
        (error) => {
          client.log.error({ err: error, channel }, 'websocket: private snapshot failed');
          if (client.held.get(channel) !== held) return;
          this.unsubscribe(socket, client, channel);
          reply({ op: 'error', msg: 'snapshot failed', channel });
        },
      );
  }

  private unsubscribe(socket: WebSocket, client: Client, channel: string): void {
    client.channels.delete(channel);
    client.held.delete(channel);
    this.subscribers.get(channel)?.delete(socket);
    const users = this.userSubscribers.get(channel);
    if (!users || client.userId === undefined) return;
    const sockets = users.get(client.userId);
    sockets?.delete(socket);
    if (sockets?.size === 0) users.delete(client.userId);
  }

  /** Removes a connection from every table; safe to call more than once. */
  private forget(socket: WebSocket): void {
    const client = this.clients.get(socket);
    if (!client) return;
    this.clients.delete(socket);
    for (const channel of [...client.channels]) this.unsubscribe(socket, client, channel);
    const open = (this.perAddress.get(client.address) ?? 1) - 1;
    if (open > 0) this.perAddress.set(client.address, open);
    else this.perAddress.delete(client.address);
  }
}

/**
 * Errors on an open connection. A protocol error of the client's making (an oversize frame:
 * `WS_ERR_UNSUPPORTED_MESSAGE_LENGTH`, bad opcode, bad UTF-8 …) is already being closed by `ws`
 * with the matching code (1009, 1002, 1007): note it, no stack. A dropped network connection is
 * routine. Anything else is a fault of ours.
 */
function handleSocketError(error: Error, socket: WebSocket, request: FastifyRequest): void {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  if (code.startsWith('WS_ERR_')) {
    request.log.info({ code, reason: error.message }, 'websocket: protocol error from client, closed');
    return;
  }
  if (['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ERR_STREAM_PREMATURE_CLOSE'].includes(code)) {
    request.log.debug({ code }, 'websocket: connection lost');
  } else {
    request.log.error({ err: error }, 'websocket: handler failed');
  }
  socket.terminate();
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
