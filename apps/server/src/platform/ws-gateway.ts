import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';

/** A public channel: what a new subscriber gets first. Updates are pushed with `broadcast`. */
export interface ChannelSource {
  snapshot(): unknown;
}

const MAX_MESSAGE_BYTES = 4096;
const MAX_SUBSCRIPTIONS = 32;

/**
 * The `/ws` endpoint. Clients send `{"op":"subscribe","channel":"ticker"}` (or `unsubscribe`,
 * `ping`); the server answers with `{"channel":…, "data":…}` frames: the snapshot first, then
 * every update. Malformed frames get `{"op":"error"}` and change nothing.
 */
export class WsGateway {
  private readonly channels = new Map<string, ChannelSource>();
  private readonly subscribers = new Map<string, Set<WebSocket>>();

  addChannel(name: string, source: ChannelSource): void {
    this.channels.set(name, source);
    this.subscribers.set(name, new Set());
  }

  broadcast(channel: string, data: unknown): void {
    const sockets = this.subscribers.get(channel);
    if (!sockets || sockets.size === 0) return;
    const frame = JSON.stringify({ channel, data });
    for (const socket of sockets) if (socket.readyState === socket.OPEN) socket.send(frame);
  }

  register(app: FastifyInstance): void {
    app.get('/ws', { websocket: true, schema: { hide: true } }, (socket) => this.accept(socket));
  }

  private accept(socket: WebSocket): void {
    const mine = new Set<string>();
    const reply = (message: unknown) =>
      socket.readyState === socket.OPEN && socket.send(JSON.stringify(message));
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
          if (mine.size >= MAX_SUBSCRIPTIONS) return reply({ op: 'error', msg: 'too many subscriptions' });
          mine.add(channel);
          this.subscribers.get(channel)!.add(socket);
          return reply({ channel, data: source.snapshot() });
        }
        case 'unsubscribe':
          mine.delete(channel);
          this.subscribers.get(channel)?.delete(socket);
          return reply({ op: 'unsubscribed', channel });
        default:
          return reply({ op: 'error', msg: 'unknown op' });
      }
    });
    socket.on('close', () => {
      for (const channel of mine) this.subscribers.get(channel)?.delete(socket);
    });
  }
}
