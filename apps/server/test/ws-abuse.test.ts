import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '@bourse/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { WS_CLOSE } from '../src/platform/ws-gateway.ts';
import { freePort, killHard, spawnServer } from './child-server.ts';
import { connectRaw, startGateway, until, within } from './ws-client.ts';

/**
 * `/ws` under the attacks an attacker would try (issue: "The realtime gateway under abuse"). The
 * floods run against the real server in a process of its own, whose resident memory is sampled
 * while they run: the bound asserted is the README's ("What a connection can cost"). `/healthz`
 * is timed meanwhile and its figures printed, not asserted (performance is measured, not tested).
 */

type Attacker = Awaited<ReturnType<typeof connectRaw>>;

/** Stops reading the TCP socket, as an attacker who only writes does. */
function stopReading(socket: WebSocket): void {
  (socket as unknown as { _socket: { pause(): void } })._socket.pause();
}

function resumeReading(socket: WebSocket): void {
  (socket as unknown as { _socket: { resume(): void } })._socket.resume();
}

/**
 * Writes `frames` as text frames in one write on the raw socket, as an attacker's script would:
 * masked with a zero key (a client must mask; a zero key leaves the payload as it is).
 */
function flood(socket: WebSocket, frames: readonly string[]): void {
  const parts: Buffer[] = [];
  for (const frame of frames) {
    const payload = Buffer.from(frame);
    if (payload.length >= 126) throw new Error('flood frames are short');
    parts.push(Buffer.from([0x81, 0x80 | payload.length, 0, 0, 0, 0]), payload);
  }
  (socket as unknown as { _socket: { write(data: Buffer): void } })._socket.write(Buffer.concat(parts));
}

/** The resident memory of a process, in bytes (Linux). */
function residentBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status);
  return kb ? Number(kb[1]) * 1024 : 0;
}

/**
 * Times `/healthz` every 20 ms from a process of its own (the attack's own work in this process
 * must not count as the server's latency) until its stdin closes, then prints the latencies.
 */
const PROBE = `
let running = true;
process.stdin.on('end', () => { running = false; }).resume();
const latencies = [];
(async () => {
  // why: the first fetch of a process loads the HTTP client; it is not the server's latency.
  await fetch(process.argv[1]).then((response) => response.arrayBuffer());
  process.stdout.write('ready\\n');
  while (running) {
    const started = performance.now();
    await fetch(process.argv[1]).then((response) => response.arrayBuffer());
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  process.stdout.write(JSON.stringify(latencies));
})();
`;

/**
 * Samples a process's resident memory and times `/healthz` (from another process) until `stop` is
 * called; answers the peak and the latencies' p50 and p99.
 */
function watch(pid: number, port: number) {
  let peak = residentBytes(pid);
  let running = true;
  const sampling = (async () => {
    while (running) {
      peak = Math.max(peak, residentBytes(pid));
      await sleep(20);
    }
  })();
  const probe = spawn(process.execPath, ['-e', PROBE, `http://127.0.0.1:${port}/healthz`], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let output = '';
  const ready = new Promise<void>((resolve) => {
    probe.stdout.on('data', (chunk) => {
      output += String(chunk);
      if (output.includes('ready\n')) resolve();
    });
  });
  const probed = new Promise<void>((resolve) => probe.once('exit', () => resolve()));
  const stop = async () => {
    running = false;
    probe.stdin.end();
    await Promise.all([sampling, probed]);
    const sorted = (JSON.parse(output.slice(output.indexOf('\n') + 1) || '[]') as number[]).sort(
      (a, b) => a - b,
    );
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
    return { peak, p50: at(0.5), p99: at(0.99), probes: sorted.length };
  };
  return ready.then(() => stop);
}

const MiB = 1024 * 1024;

describe('/ws under abuse, against the real server', () => {
  let dataDir: string;
  let port: number;
  let child: ChildProcess;
  let url: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-ws-abuse-'));
    port = await freePort();
    child = await spawnServer(dataDir, port, { LIMIT_WS_AUTH_PER_IP: '30/60' });
    url = `http://127.0.0.1:${port}`;
  }, 30_000);

  afterAll(async () => {
    if (child) await killHard(child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('closes 60 non-reading subscribe floods from 3 addresses with 1008, within the memory bound', async () => {
    // why: the attack of the issue: 5,000 × subscribe to the same channel (255 KB) per socket.
    const frame = JSON.stringify({ op: 'subscribe', channel: 'trades:BTCUSDT' });
    const frames = Array.from({ length: 5000 }, () => frame);
    const addresses = ['127.0.0.1', '127.0.0.2', '127.0.0.3'];
    const attackers: Attacker[] = [];
    for (const localAddress of addresses) {
      for (let i = 0; i < 20; i += 1) attackers.push(await connectRaw(url, { localAddress }));
    }
    expect(attackers.every((attacker) => attacker.socket.readyState === WebSocket.OPEN)).toBe(true);
    const baseline = residentBytes(child.pid!);
    const stop = await watch(child.pid!, port);
    for (const attacker of attackers) {
      stopReading(attacker.socket);
      flood(attacker.socket, frames);
    }
    // why: the server decides while the attackers do not read; then they read their close frame.
    await sleep(500);
    for (const attacker of attackers) resumeReading(attacker.socket);
    const ends = await Promise.all(attackers.map((attacker) => within(attacker.closed, 10_000)));
    const figures = await stop();
    console.info(
      `ws subscribe flood: 60 connections, rss baseline=${(baseline / MiB).toFixed(0)} MiB ` +
        `peak=${(figures.peak / MiB).toFixed(0)} MiB, /healthz p50=${figures.p50.toFixed(1)} ms ` +
        `p99=${figures.p99.toFixed(1)} ms over ${figures.probes} probes`,
    );
    expect(ends).toEqual(attackers.map(() => ({ code: WS_CLOSE.policyViolation, reason: 'rate limit' })));
    // why: the README's bound: at most 1.2 MiB per connection beyond what the node held before.
    expect(figures.peak - baseline).toBeLessThan(60 * 1.2 * MiB);
    // Each connection got one snapshot: the repeated subscribes were acknowledged without one.
    const first = attackers[0]!.frames;
    expect(first.filter((text) => text.startsWith('{"channel":"trades:BTCUSDT"'))).toHaveLength(1);
    expect(first.filter((text) => text === '{"op":"subscribed","channel":"trades:BTCUSDT"}').length).toBe(
      first.length - 1,
    );
  }, 60_000);

  it('closes a flood of wrong auths each followed by an empty frame, within the memory bound', async () => {
    const frames: string[] = [];
    for (let i = 0; i < 4000; i += 1) frames.push(JSON.stringify({ op: 'auth', token: `wrong${i}` }), '');
    const baseline = residentBytes(child.pid!);
    const stop = await watch(child.pid!, port);
    const attacker = await connectRaw(url, { localAddress: '127.0.0.4' });
    stopReading(attacker.socket);
    flood(attacker.socket, frames);
    await sleep(300);
    resumeReading(attacker.socket);
    const end = await within(attacker.closed, 10_000);
    const figures = await stop();
    console.info(
      `ws auth flood: rss baseline=${(baseline / MiB).toFixed(0)} MiB peak=${(figures.peak / MiB).toFixed(0)} MiB, ` +
        `/healthz p50=${figures.p50.toFixed(1)} ms p99=${figures.p99.toFixed(1)} ms over ${figures.probes} probes`,
    );
    expect(end).toEqual({ code: WS_CLOSE.policyViolation, reason: 'rate limit' });
    expect(figures.peak - baseline).toBeLessThan(1.2 * MiB + 16 * MiB);
  }, 30_000);

  it('limits wrong-token auths per address (LIMIT_WS_AUTH_PER_IP), across connections', async () => {
    const answers: unknown[] = [];
    let attacker = await connectRaw(url, { localAddress: '127.0.0.5' });
    // why: paced below the per-connection operation rate, so only the address's limit can stop it.
    for (let i = 0; i < 30; i += 1) {
      if (i === 15) {
        attacker.socket.close();
        attacker = await connectRaw(url, { localAddress: '127.0.0.5' });
      }
      const before = attacker.frames.length;
      attacker.socket.send(JSON.stringify({ op: 'auth', token: `guess${i}` }));
      expect(await until(() => attacker.frames.length === before + 1)).toBe(true);
      answers.push(JSON.parse(attacker.frames.at(-1)!));
    }
    expect(answers).toEqual(answers.map(() => ({ op: 'error', msg: 'auth failed' })));
    attacker.socket.send(JSON.stringify({ op: 'auth', token: 'guess30' }));
    expect(await within(attacker.closed, 5000)).toEqual({
      code: WS_CLOSE.policyViolation,
      reason: 'too many auth attempts',
    });
    // Another address is not affected.
    const other = await connectRaw(url, { localAddress: '127.0.0.6' });
    other.socket.send(JSON.stringify({ op: 'auth', token: 'guess' }));
    expect(await until(() => other.frames.length === 1)).toBe(true);
    expect(JSON.parse(other.frames[0]!)).toEqual({ op: 'error', msg: 'auth failed' });
    other.socket.close();
  }, 30_000);
});

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('/ws gateway limits', () => {
  it('counts what one event-loop turn queues against the buffer limit', async () => {
    // why: ws hands over every frame of one socket read in the same event-loop turn, so the
    // answers to them are queued (corked) in that turn too; they must count at once.
    const { app, gateway, url, log } = await startGateway({ maxBufferedBytes: 64 * 1024, opsBurst: 1000 });
    cleanups.push(() => app.close());
    for (let i = 0; i < 32; i += 1) gateway.addChannel(`c${i}`, { snapshot: () => 'y'.repeat(4096) });
    const attacker = await connectRaw(url);
    stopReading(attacker.socket);
    flood(
      attacker.socket,
      Array.from({ length: 32 }, (_, i) => JSON.stringify({ op: 'subscribe', channel: `c${i}` })),
    );
    // 32 snapshots of 4 KiB = 128 KiB queued in one turn, twice the limit: dropped.
    expect(await until(() => gateway.connectionCount === 0)).toBe(true);
    expect(log.lines().filter((line) => /reads too slowly/.test(line.msg ?? ''))).toHaveLength(1);
  });

  it('holds at most maxWaitingBytes of frames behind a pending auth, and handles each once, in order', async () => {
    const { app, gateway, url } = await startGateway({ maxWaitingBytes: 4096, opsBurst: 1000 });
    cleanups.push(() => app.close());
    let release: (() => void) | undefined;
    let lookUps = 0;
    gateway.useAuthenticator({
      authenticate: (token) => {
        lookUps += 1;
        return new Promise((resolve, reject) => {
          release = () =>
            token === 'good' ? resolve({ userId: 1n, sessionId: 1n }) : reject(new Error('no'));
        });
      },
    });
    const polite = await connectRaw(url);
    polite.socket.send(JSON.stringify({ op: 'auth', token: 'good' }));
    for (let i = 0; i < 20; i += 1) polite.socket.send(JSON.stringify({ op: 'ping' }));
    polite.socket.send(JSON.stringify({ op: 'subscribe', channel: 'feed' }));
    expect(await until(() => release !== undefined, 5000)).toBe(true);
    await sleep(50);
    expect(polite.frames).toEqual([]);
    release!();
    expect(await until(() => polite.frames.length === 22)).toBe(true);
    expect(polite.frames[0]).toBe('{"op":"authed"}');
    expect(polite.frames.slice(1, 21)).toEqual(Array.from({ length: 20 }, () => '{"op":"pong"}'));
    expect(JSON.parse(polite.frames[21]!).channel).toBe('feed');
    expect(lookUps).toBe(1);

    release = undefined;
    const greedy = await connectRaw(url);
    greedy.socket.send(JSON.stringify({ op: 'auth', token: 'slow' }));
    for (let i = 0; i < 100; i += 1) greedy.socket.send(JSON.stringify({ op: 'ping' }));
    expect(await within(greedy.closed, 3000)).toEqual({
      code: WS_CLOSE.policyViolation,
      reason: 'too many frames waiting for auth',
    });
    polite.socket.close();
  });

  it('closes a connection past its operation rate with 1008, and keeps one under it', async () => {
    const { app, url } = await startGateway({ opsBurst: 10, opsPerSecond: 100 });
    cleanups.push(() => app.close());
    const calm = await connectRaw(url);
    for (let i = 0; i < 30; i += 1) {
      calm.socket.send(JSON.stringify({ op: 'ping' }));
      await sleep(15);
    }
    expect(await until(() => calm.frames.length === 30)).toBe(true);
    const hasty = await connectRaw(url);
    for (let i = 0; i < 30; i += 1) hasty.socket.send(JSON.stringify({ op: 'ping' }));
    expect(await within(hasty.closed, 3000)).toEqual({
      code: WS_CLOSE.policyViolation,
      reason: 'rate limit',
    });
    expect(hasty.frames.length).toBeLessThanOrEqual(11);
    expect(calm.socket.readyState).toBe(WebSocket.OPEN);
    calm.socket.close();
  });

  it('logs failed auths with the address and asks the store once per failed token while it is remembered', async () => {
    const { app, gateway, url, log } = await startGateway({ failedAuthCacheMs: 60_000 });
    cleanups.push(() => app.close());
    let lookUps = 0;
    gateway.useAuthenticator({
      authenticate: async () => {
        lookUps += 1;
        throw new AppError('SESSION_INVALID');
      },
    });
    const client = await connectRaw(url);
    for (let i = 0; i < 5; i += 1) client.socket.send(JSON.stringify({ op: 'auth', token: 'stolen' }));
    client.socket.send(JSON.stringify({ op: 'auth', token: 'other' }));
    expect(await until(() => client.frames.length === 6)).toBe(true);
    expect(lookUps).toBe(2);
    const failures = log.lines().filter((line) => line.msg === 'websocket: auth failed');
    expect(failures).toHaveLength(6);
    expect(failures[0]).toMatchObject({ address: '127.0.0.1', reason: 'SESSION_INVALID' });
    client.socket.close();
  });

  it('counts only a pong carrying the last ping’s nonce: unsolicited pongs do not keep a client', async () => {
    const { app, gateway, url, log } = await startGateway({ heartbeatMs: 100 });
    cleanups.push(() => app.close());
    const faker = await connectRaw(url, { autoPong: false });
    const pongs = setInterval(() => faker.socket.pong(Buffer.from('anything')), 20);
    const honest = await connectRaw(url);
    const ended = await within(faker.closed, 3000);
    clearInterval(pongs);
    expect(ended).toEqual({ code: 1006, reason: '' });
    await sleep(250);
    expect(honest.socket.readyState).toBe(WebSocket.OPEN);
    expect(gateway.connectionCount).toBe(1);
    expect(log.lines().filter((line) => /no pong/.test(line.msg ?? ''))).toHaveLength(1);
    honest.socket.close();
  });
});
