import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '@bourse/shared';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { WS_CLOSE } from '../src/platform/ws-gateway.ts';
import { type LoggedServer, startLoggedServer } from './logged-server.ts';
import { connectRaw, startGateway, until, within } from './ws-client.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('WebSocket heartbeat', () => {
  it('drops a client that stops answering pings, and keeps one that answers', async () => {
    const { app, gateway, url, log } = await startGateway({ heartbeatMs: 100 });
    cleanups.push(() => app.close());
    const silent = await connectRaw(url, { autoPong: false });
    const alive = await connectRaw(url);
    expect(gateway.connectionCount).toBe(2);

    const ended = await within(silent.closed, 3000);
    // why: terminated, not closed politely: the close code is the client's "abnormal closure".
    expect(ended).toEqual({ code: 1006, reason: '' });
    await sleep(350); // three more beats
    expect(alive.socket.readyState).toBe(WebSocket.OPEN);
    expect(gateway.connectionCount).toBe(1);
    expect(log.lines().filter((line) => /no pong/.test(line.msg ?? ''))).toHaveLength(1);
    alive.socket.close();
  });
});

describe('WebSocket connections per address', () => {
  let server: LoggedServer;
  afterEach(async () => {
    await server?.close();
  });

  it('closes connections over WS_CONNECTIONS_PER_IP with 1008, and frees the slot on close', async () => {
    server = await startLoggedServer({ env: { WS_CONNECTIONS_PER_IP: '3' } });
    const open = [await connectRaw(server.url), await connectRaw(server.url), await connectRaw(server.url)];
    for (const client of open) expect(client.socket.readyState).toBe(WebSocket.OPEN);

    // why: without TRUST_PROXY a forged X-Forwarded-For does not make a new address.
    const excess = await connectRaw(server.url, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(await within(excess.closed, 3000)).toEqual({
      code: WS_CLOSE.policyViolation,
      reason: 'too many connections',
    });
    expect(server.app.ctx.gateway.connectionCount).toBe(3);

    open[0]!.socket.close();
    expect(await until(() => server.app.ctx.gateway.connectionCount === 2)).toBe(true);
    const again = await connectRaw(server.url);
    again.socket.send(JSON.stringify({ op: 'ping' }));
    expect(await until(() => again.frames.includes('{"op":"pong"}'))).toBe(true);
    expect(again.socket.readyState).toBe(WebSocket.OPEN);
    for (const client of [...open, again]) client.socket.close();
  });
});

describe('WebSocket slow readers', () => {
  it('drops a client whose unsent frames pass the limit, and keeps serving the others', async () => {
    const { app, gateway, url, log } = await startGateway({
      heartbeatMs: 60_000,
      maxBufferedBytes: 256 * 1024,
    });
    cleanups.push(() => app.close());
    const slow = await connectRaw(url);
    const fast = await connectRaw(url);
    for (const client of [slow, fast])
      client.socket.send(JSON.stringify({ op: 'subscribe', channel: 'feed' }));
    expect(await until(() => slow.frames.length === 1 && fast.frames.length === 1)).toBe(true);

    // why: stop reading the TCP socket: the kernel buffers fill, then the server's own queue grows.
    (slow.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
    const payload = 'x'.repeat(64 * 1024);
    let sent = 0;
    while (gateway.connectionCount === 2 && sent < 2000) {
      gateway.broadcast('feed', payload);
      sent += 1;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(gateway.connectionCount).toBe(1);
    expect(sent).toBeLessThan(2000);
    expect(await until(() => fast.frames.length === sent + 1, 10_000)).toBe(true);
    expect(fast.socket.readyState).toBe(WebSocket.OPEN);

    (slow.socket as unknown as { _socket: { resume(): void } })._socket.resume();
    expect(await within(slow.closed, 10_000)).toMatchObject({ code: 1006 });
    expect(log.lines().filter((line) => /reads too slowly/.test(line.msg ?? ''))).toHaveLength(1);
    fast.socket.close();
  });
});

describe('WebSocket writes gathered per flush', () => {
  it('sends every frame in order, and still drops only the client that stopped reading', async () => {
    const { app, gateway, url, log } = await startGateway({
      heartbeatMs: 60_000,
      maxBufferedBytes: 1024 * 1024,
      flushMs: 25,
    });
    cleanups.push(() => app.close());
    const slow = await connectRaw(url);
    const fast = await connectRaw(url);
    for (const client of [slow, fast])
      client.socket.send(JSON.stringify({ op: 'subscribe', channel: 'feed' }));
    expect(await until(() => slow.frames.length === 1 && fast.frames.length === 1)).toBe(true);

    (slow.socket as unknown as { _socket: { pause(): void } })._socket.pause();
    const payload = 'y'.repeat(64 * 1024);
    let sent = 0;
    // why: paced (about 12 MB/s): a flush gathers about a third of the limit (what it gathers
    // counts against the limit too), a reader keeps up, the paused one passes the limit.
    while (gateway.connectionCount === 2 && sent < 5000) {
      gateway.broadcast('feed', `${sent}:${payload}`);
      sent += 1;
      await sleep(5);
    }
    expect(gateway.connectionCount).toBe(1);
    expect(await until(() => fast.frames.length === sent + 1, 10_000)).toBe(true);
    expect(fast.frames.slice(1).map((frame) => JSON.parse(frame).data.split(':')[0])).toEqual(
      Array.from({ length: sent }, (_, i) => String(i)),
    );
    expect(log.lines().filter((line) => /reads too slowly/.test(line.msg ?? ''))).toHaveLength(1);
    fast.socket.close();
  });
});

describe('WebSocket oversize frames', () => {
  it('closes an oversize frame with 1009 and logs it without an error entry', async () => {
    const server = await startLoggedServer();
    cleanups.push(() => server.close());
    const client = await connectRaw(server.url);
    client.socket.send(JSON.stringify({ op: 'ping' }));
    expect(await until(() => client.frames.includes('{"op":"pong"}'))).toBe(true);

    client.socket.send('x'.repeat(70 * 1024));
    expect(await within(client.closed, 3000)).toEqual({ code: 1009, reason: '' });

    const lines = server.log.lines();
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    const note = lines.find((line) => line.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH');
    expect(note).toMatchObject({ level: 30, msg: 'websocket: protocol error from client, closed' });
    expect(note).not.toHaveProperty('err');
    expect(JSON.stringify(lines)).not.toMatch(/\n\s+at /);
  });

  it('still answers a frame over its message limit but under the payload limit with an error frame', async () => {
    const server = await startLoggedServer();
    cleanups.push(() => server.close());
    const client = await connectRaw(server.url);
    client.socket.send('x'.repeat(8 * 1024));
    expect(await until(() => client.frames.length === 1)).toBe(true);
    expect(JSON.parse(client.frames[0]!)).toEqual({ op: 'error', msg: 'bad frame' });
    expect(client.socket.readyState).toBe(WebSocket.OPEN);
    client.socket.close();
  });
});

describe('WebSocket private channels', () => {
  it('needs auth, and sends what was pushed during the snapshot after it, to its user only', async () => {
    const { app, gateway, url } = await startGateway({});
    cleanups.push(() => app.close());
    gateway.useAuthenticator({
      authenticate: async (token) => {
        if (token === 'one' || token === 'two') return { userId: token === 'one' ? 1n : 2n, sessionId: 1n };
        throw new Error('unknown session');
      },
    });
    let release: (() => void) | undefined;
    gateway.addPrivateChannel('mine', {
      snapshot: (userId) =>
        new Promise((resolve) => {
          release = () => resolve(`state of ${userId}`);
        }),
    });
    const one = await connectRaw(url);
    const two = await connectRaw(url);
    const send = (client: { socket: WebSocket }, message: unknown) =>
      client.socket.send(JSON.stringify(message));

    send(one, { op: 'subscribe', channel: 'mine' });
    send(one, { op: 'auth', token: 'wrong' });
    send(two, { op: 'auth', token: 'two' });
    expect(await until(() => one.frames.length === 2 && two.frames.length === 1)).toBe(true);
    expect(one.frames.map((frame) => JSON.parse(frame))).toEqual([
      { op: 'error', msg: 'auth required', channel: 'mine' },
      { op: 'error', msg: 'auth failed' },
    ]);
    expect(JSON.parse(two.frames[0]!)).toEqual({ op: 'authed' });

    send(one, { op: 'auth', token: 'one' });
    expect(await until(() => one.frames.length === 3)).toBe(true);
    send(one, { op: 'subscribe', channel: 'mine' });
    expect(await until(() => gateway.hasUserSubscriber('mine', 1n))).toBe(true);
    gateway.sendToUser('mine', 1n, 'update 1');
    gateway.sendToUser('mine', 2n, 'not subscribed');
    await sleep(50);
    expect(one.frames).toHaveLength(3);
    release?.();
    gateway.sendToUser('mine', 1n, 'update 2');
    expect(await until(() => one.frames.length === 6)).toBe(true);
    expect(one.frames.slice(3).map((frame) => JSON.parse(frame))).toEqual([
      { channel: 'mine', data: 'state of 1' },
      { channel: 'mine', data: 'update 1' },
      { channel: 'mine', data: 'update 2' },
    ]);
    expect(two.frames).toHaveLength(1);
    one.socket.close();
    two.socket.close();
  });
});

describe('WebSocket sessions', () => {
  it('signs a connection out once its session has ended, at the next heartbeat', async () => {
    const { app, gateway, url } = await startGateway({ heartbeatMs: 100 });
    cleanups.push(() => app.close());
    let ended = false;
    gateway.useAuthenticator({
      authenticate: async () => {
        if (ended) throw new AppError('SESSION_INVALID');
        return { userId: 7n, sessionId: 1n };
      },
    });
    gateway.addPrivateChannel('mine', { snapshot: async () => 'state' });
    const client = await connectRaw(url);
    client.socket.send(JSON.stringify({ op: 'auth', token: 'seven' }));
    client.socket.send(JSON.stringify({ op: 'subscribe', channel: 'mine' }));
    expect(await until(() => client.frames.length === 2)).toBe(true);
    await sleep(250); // beats while the session lives change nothing
    expect(gateway.hasUserSubscriber('mine', 7n)).toBe(true);

    ended = true;
    expect(await until(() => client.frames.length === 3)).toBe(true);
    expect(JSON.parse(client.frames[2]!)).toEqual({ op: 'error', msg: 'session ended' });
    expect(gateway.hasUserSubscriber('mine', 7n)).toBe(false);
    gateway.sendToUser('mine', 7n, 'after the end');
    client.socket.send(JSON.stringify({ op: 'subscribe', channel: 'mine' }));
    expect(await until(() => client.frames.length === 4)).toBe(true);
    expect(JSON.parse(client.frames[3]!)).toEqual({ op: 'error', msg: 'auth required', channel: 'mine' });
    client.socket.close();
  });
});
