import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import { serverArgs } from '../src/server-command.ts';

/** A free loopback port for a server in another process. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The real server in a process of its own, as `npm start` runs it (demo data, the feed and its
 * jobs on), on a SQLite store in `dataDir`; resolves once `/readyz` reports a fresh feed.
 */
export async function spawnServer(
  dataDir: string,
  port: number,
  env: Record<string, string> = {},
  /** Told of the process as soon as it is spawned (to kill it before it is ready). */
  onSpawn?: (child: ChildProcess) => void,
  options: {
    /** An open file its stdout and stderr go to (a node's log), instead of a pipe. */
    logFd?: number;
    /** How long it may take to become ready. */
    readyMs?: number;
  } = {},
): Promise<ChildProcess> {
  const output = options.logFd ?? 'pipe';
  const child = spawn(process.execPath, serverArgs(), {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      DEMO: 'on',
      CAPTCHA: 'off',
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      FEED_INTERVAL_MS: '200',
      RATE_LIMIT_STORE: 'memory',
      NODE_ENV: 'test',
      ...env,
    },
    stdio: ['ignore', options.logFd ?? 'ignore', output],
  });
  onSpawn?.(child);
  const readyMs = options.readyMs ?? 20_000;
  const deadline = Date.now() + readyMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      const report = (await ready.json()) as { checks: { feed: { status: string } } };
      if (report.checks.feed.status === 'ok') return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not become ready in ${readyMs / 1000} s`);
}

/** Calls `/apiv` on a spawned server the way the web app does (form data, `Lang` header). */
export async function callApi(
  port: number,
  method: 'GET' | 'POST',
  apiPath: string,
  fields: Record<string, string>,
): Promise<{ code: number; msg: string; data: any }> {
  const body = new URLSearchParams(fields).toString();
  const url = `http://127.0.0.1:${port}/apiv${apiPath}${method === 'GET' ? `?${body}` : ''}`;
  const response = await fetch(url, {
    method,
    headers: {
      Lang: 'en-us',
      ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    body: method === 'POST' ? body : undefined,
  });
  return (await response.json()) as { code: number; msg: string; data: unknown };
}

/** Resolves when the process has exited, with its code and signal. */
export function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null)
      return resolve({ code: child.exitCode, signal: child.signalCode });
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
}

/** Kills the process outright (no shutdown hook runs) and waits for it to be gone. */
export async function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await exited(child);
}
