import websocket from '@fastify/websocket';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { clientIp } from './http.ts';

/** A public channel: what a new subscriber gets first. Updates are pushed with `broadcast`. */
export interface ChannelSource {
  snapshot(): unknown;
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
}

const DEFAULTS: Required<WsGatewayOptions> = {
  heartbeatMs: 30_000,
  maxConnectionsPerAddress: 20,
  maxBufferedBytes: 1024 * 1024,
  maxPayloadBytes: 64 * 1024,
};

/** Close codes sent by the gateway (RFC 6455 §7.4.1). */
export const WS_CLOSE = {
  goingAway: 1001,
  policyViolation: 1008,
  tryAgainLater: 1013,
} as const;

const MAX_MESSAGE_BYTES = 4096;
const MAX_SUBSCRIPTIONS = 32;
/** How long a shutdown waits for clients to answer the close frame before cutting them off. */
const SHUTDOWN_GRACE_MS = 1000;

interface Client {
  address: string;
  alive: boolean;
  channels: Set<string>;
  log: FastifyBaseLogger;
}

/**
 * The `/ws` endpoint. Clients send `{"op":"subscribe","channel":"ticker"}` (or `unsubscribe`,
 * `ping`); the server answers with `{"channel":…, "data":…}` frames: the snapshot first, then
 * every update. Malformed frames get `{"op":"error"}` and change nothing.
 *
 * The gateway protects the process from its clients: it pings every `heartbeatMs` and drops
 * connections that stop answering, caps connections per client address, drops a client whose
 * unsent frames pile up past `maxBufferedBytes` (a slow reader must not hold the server's memory),
 * and closes oversize frames with 1009 without logging them as server errors.
 */
export class WsGateway {
  private readonly options: Required<WsGatewayOptions>;
  private readonly channels = new Map<string, ChannelSource>();
  private readonly subscribers = new Map<string, Set<WebSocket>>();
  private readonly clients = new Map<WebSocket, Client>();
  private readonly perAddress = new Map<string, number>();
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(options: WsGatewayOptions = {}) {
    this.options = { ...DEFAULTS, ...stripUndefined(options) };
  }

  /** Number of open connections (all addresses). */
  get connectionCount(): number {
    return this.clients.size;
  }

  addChannel(name: string, source: ChannelSource): void {
    this.channels.set(name, source);
    this.subscribers.set(name, new Set());
  }

  /** Sends `data` on `channel` to every subscriber; a subscriber too far behind is dropped instead. */
  broadcast(channel: string, data: unknown): void {
    const sockets = this.subscribers.get(channel);
    if (!sockets || sockets.size === 0) return;
    const frame = JSON.stringify({ channel, data });
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
      if (socket.readyState === socket.OPEN) socket.ping();
    }
  }

  /** Sends one frame unless the client is too far behind, in which case it is dropped. */
  private send(socket: WebSocket, frame: string): boolean {
    if (socket.readyState !== socket.OPEN) return false;
    if (socket.bufferedAmount > this.options.maxBufferedBytes) {
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
    socket.send(frame);
    return true;
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
    const client: Client = { address, alive: true, channels: new Set(), log: request.log };
    this.clients.set(socket, client);
    socket.on('pong', () => {
      client.alive = true;
    });
    socket.on('close', () => this.forget(socket));

    const reply = (message: unknown) => this.send(socket, JSON.stringify(message));
    socket.on('message', (raw: Buffer, isBinary: boolean) => {
      if (isBinary || raw.length > MAX_MESSAGE_BYTES) return reply({ op: 'error', msg: 'bad frame' });
      let message: { op?: unknown; channel?: unknown };
      try {
        message = JSON.parse(raw.toString('utf8'));
      } catch {
        return reply({ op: 'error', msg: 'bad json' });
      }
      const channel = typeof message?.channel === 'string' ? message.channel : '';
      switch (message?.op) {
        case 'ping':
          return reply({ op: 'pong' });
        case 'subscribe': {
          const source = this.channels.get(channel);
          if (!source) return reply({ op: 'error', msg: 'unknown channel', channel });
          if (client.channels.size >= MAX_SUBSCRIPTIONS)
            return reply({ op: 'error', msg: 'too many subscriptions' });
          client.channels.add(channel);
          this.subscribers.get(channel)!.add(socket);
          return reply({ channel, data: source.snapshot() });
        }
        case 'unsubscribe':
          client.channels.delete(channel);
          this.subscribers.get(channel)?.delete(socket);
          return reply({ op: 'unsubscribed', channel });
        default:
          return reply({ op: 'error', msg: 'unknown op' });
      }
    });
  }

  /** Removes a connection from every table; safe to call more than once. */
  private forget(socket: WebSocket): void {
    const client = this.clients.get(socket);
    if (!client) return;
    this.clients.delete(socket);
    for (const channel of client.channels) this.subscribers.get(channel)?.delete(socket);
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
