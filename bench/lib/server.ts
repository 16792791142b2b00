// What every benchmark does before it measures: fund users on a fresh store, then run the real
// server on it in a process of its own, as `npm start` does.
import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { serverArgs } from '../../apps/server/src/server-command.ts';

/** Settings every benchmark shares: demo markets, no captcha, limits out of the way, quiet logs. */
export const BENCH_ENV = {
  DEMO: 'on',
  CAPTCHA: 'off',
  RATE_LIMIT_STORE: 'memory',
  LIMIT_REGISTER_PER_IP: '100000/60',
  LIMIT_LOGIN_PER_IP: '100000/60',
  LIMIT_LOGIN_PER_ACCOUNT_IP: '100000/60',
  LOG_LEVEL: 'warn',
  LOG_FORMAT: 'json',
};

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

/** `count` users named `<prefix><i>`, each with the demo credit; resolves with their session tokens. */
export async function prepareUsers(
  env: Record<string, string>,
  dataDir: string,
  prefix: string,
  count: number,
): Promise<string[]> {
  const app = await buildApp({
    config: loadConfig({ ...env, DATA_DIR: dataDir }),
    startFeed: false,
    logger: false,
  });
  try {
    const form = (fields: Record<string, string>) => ({
      method: 'POST' as const,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    });
    const tokens: string[] = [];
    // why: the demo publishes terms of service; traders accept them at sign-up, as the app does.
    const terms = (await app.inject({ url: '/apiv/Index/terms' })).json().data.version as number;
    const accepted: Record<string, string> = terms > 0 ? { terms_version: String(terms) } : {};
    for (let i = 0; i < count; i++) {
      const account = `${prefix}${i}`;
      await app.inject({
        url: '/apiv/Login/upregister',
        ...form({ account, lpwd: 'bench-1234', ...accepted }),
      });
      const login = (
        await app.inject({ url: '/apiv/Login/loginsubmit', ...form({ email: account, lpwd: 'bench-1234' }) })
      ).json();
      if (login.code !== 1000) throw new Error(`login ${account}: ${login.msg}`);
      tokens.push(login.data.token);
      const wallet = app.ctx.wallet;
      if (!wallet) throw new Error('no wallet');
      await app.ctx.store.db.transaction().execute((trx) => wallet.creditDemo(trx, BigInt(login.data.uid)));
    }
    return tokens;
  } finally {
    await app.close();
  }
}

/** The real server on `dataDir`; resolves once `/healthz` answers. */
export async function startServer(
  env: Record<string, string>,
  dataDir: string,
  port: number,
): Promise<ChildProcess> {
  // why: BENCH_CPU_PROF=<dir> writes the server's CPU profile there when it stops (open it in DevTools).
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  const child = spawn(process.execPath, serverArgs(profile), {
    env: { ...process.env, ...env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return child;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('server did not start');
}
