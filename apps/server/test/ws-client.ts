import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, { type FastifyInstance } from 'fastify';
import WebSocket from 'ws';
import { createLoggerOptions } from '../src/platform/logging.ts';
import { WsGateway, type WsGatewayOptions } from '../src/platform/ws-gateway.ts';
import type { TestServer } from './harness.ts';
import { captureLog } from './logged-server.ts';

// why: frames are compared with exact expected values, field by field.
export type Frame = any;

/** A `/ws` client that keeps every frame it got; `next` waits for the first unread one that matches. */
export async function connect(server: Pick<TestServer, 'url'>) {
  const socket = new WebSocket(`${server.url.replace('http', 'ws')}/ws`);
  const frames: Frame[] = [];
  let read = 0;
  socket.on('message', (data) => frames.push(JSON.parse(String(data))));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const client = {
    socket,
    frames,
    send: (message: unknown) => socket.send(JSON.stringify(message)),
    async next(match: (frame: Frame) => boolean, ms = 5000): Promise<Frame> {
      const deadline = Date.now() + ms;
      for (;;) {
        for (let i = read; i < frames.length; i++) {
          if (match(frames[i])) {
            read = i + 1;
            return frames[i];
          }
        }
        if (Date.now() > deadline)
          throw new Error(`no matching frame; got ${JSON.stringify(frames.slice(read))}`);
        await sleep(5);
      }
    },
    /** Frames on `channel` after the last one `next` returned. */
    unread: (channel: string) => frames.slice(read).filter((frame) => frame.channel === channel),
  };
  return client;
}

export const on = (channel: string) => (frame: Frame) => frame.channel === channel;

/** How a connection was closed. */
export interface Closed {
  code: number;
  reason: string;
}

/**
 * A raw `ws` client of `/ws` at `base` (an http URL) that records its frames as text and how it
 * was closed; it resolves once open (or already closed, refused).
 */
export async function connectRaw(
  base: string,
  options: WebSocket.ClientOptions & { localAddress?: string } = {},
) {
  const socket = new WebSocket(`${base.replace('http', 'ws')}/ws`, options);
  const frames: string[] = [];
  const closed = new Promise<Closed>((resolve) => {
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() }));
  });
  socket.on('error', () => {});
  socket.on('message', (data) => frames.push(String(data)));
  await new Promise<void>((resolve) => {
    socket.once('open', () => resolve());
    socket.once('close', () => resolve());
  });
  return { socket, frames, closed };
}

/** What `promise` resolves to, or `null` when it has not within `ms`. */
export async function within<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  return Promise.race([promise, sleep(ms).then(() => null)]);
}

/** Whether `condition` became true within `ms`, checked every 10 ms. */
export async function until(condition: () => boolean, ms = 3000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await sleep(10);
  }
  return true;
}

/** The gateway alone on a loopback port, with a `feed` channel and its log captured. */
export async function startGateway(options: WsGatewayOptions) {
  const log = captureLog();
  const app: FastifyInstance = Fastify({
    logger: createLoggerOptions({ level: 'debug', stream: log.stream }),
  });
  const gateway = new WsGateway(options);
  await gateway.register(app);
  gateway.addChannel('feed', { snapshot: () => 'hello' });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, gateway, url, log };
}
