import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject, type ProvidedContext } from 'vitest';
import { type BuildOptions, buildApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { ManualClock } from '../src/platform/clock.ts';

export type DialectName = 'sqlite' | 'postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated SQLite file to copy, and the PostgreSQL database to copy (absent: none). */
    storeTemplates: { sqliteFile: string; postgresDatabase?: string };
  }
}

const PG_ADMIN_URL =
  process.env.TEST_PG_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function probePostgres(): Promise<string | null> {
  if (!/^postgres(ql)?:\/\//.test(PG_ADMIN_URL)) return 'DATABASE_URL is not a postgres URL';
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (error) {
    return `PostgreSQL at ${PG_ADMIN_URL.replace(/\/\/[^@]*@/, '//')} did not answer (${(error as Error).message})`;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Why the PostgreSQL suites are skipped, or null when PostgreSQL answers. */
export const postgresSkipReason = await probePostgres();
if (postgresSkipReason) console.warn(`[skip] PostgreSQL suites skipped: ${postgresSkipReason}`);

/** The dialects to run each integration suite on: SQLite always, PostgreSQL where one answers. */
export const DIALECTS: { name: DialectName; skip: boolean }[] = [
  { name: 'sqlite', skip: false },
  { name: 'postgres', skip: postgresSkipReason !== null },
];

/**
 * SQLite alone, for suites that test HTTP, validation or rendering, which no store changes; the
 * rule and the list of suites on each are in `store-coverage.test.ts`.
 */
export const SQLITE_ONLY: { name: DialectName; skip: boolean }[] = DIALECTS.filter(
  (d) => d.name === 'sqlite',
);

export interface TestServer {
  app: FastifyInstance;
  url: string;
  clock: ManualClock;
  config: Config;
  /** Calls `/apiv` + path over real HTTP the way the web client does. */
  call(
    method: 'GET' | 'POST',
    apiPath: string,
    params?: Record<string, unknown>,
    options?: CallOptions,
  ): Promise<ApiAnswer>;
  /** Where this server keeps its data; pass it as `reuse` to build the next server on it. */
  store: StoreLocation;
  /** Stops the server and removes its store, unless `keepStore` (then the next server reuses it). */
  close(options?: { keepStore?: boolean }): Promise<void>;
}

/** A server's data folder and, on PostgreSQL, its database. */
export interface StoreLocation {
  dataDir: string;
  databaseUrl?: string;
}

export interface CallOptions {
  lang?: string;
  token?: string;
  bearer?: string;
  json?: boolean;
  headers?: Record<string, string>;
}

export interface ApiAnswer {
  status: number;
  code: number;
  msg: string;
  data: any;
}

/**
 * Creates a PostgreSQL database for one test, empty or a copy of `template` (a database nobody is
 * connected to); `drop` removes it.
 */
export async function createPostgresDatabase(
  template?: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `bourse_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => dropPostgresDatabase(url.toString()) };
}

/** Drops a database made by `createPostgresDatabase`, named by its URL. */
export async function dropPostgresDatabase(databaseUrl: string): Promise<void> {
  const name = new URL(databaseUrl).pathname.slice(1);
  if (!/^bourse_test_\w+$/.test(name)) throw new Error(`not a test database: ${name}`);
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  await client.query(`drop database if exists ${name} with (force)`);
  await client.end();
}

/**
 * Ends every connection to the database at `databaseUrl` but its own, as a PostgreSQL restart or an
 * administrator would; returns how many it ended.
 */
export async function terminatePostgresBackends(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ terminated: boolean }>(
      `select pg_terminate_backend(pid) as terminated from pg_stat_activity
       where datname = current_database() and pid <> pg_backend_pid()`,
    );
    return rows.filter((row) => row.terminated).length;
  } finally {
    await client.end();
  }
}

/** The run's store templates; none in a process that Vitest did not start (a test's driver). */
function runTemplates(): ProvidedContext['storeTemplates'] | undefined {
  try {
    return inject('storeTemplates');
  } catch {
    return undefined;
  }
}

/**
 * Builds the platform on a fresh store (a new SQLite file in a temp folder, or a new PostgreSQL
 * database) and listens on a loopback port. Captcha and demo data are off unless asked for.
 * `reuse` builds it on the store of a server closed with `keepStore` instead (a restart).
 */
export async function startServer(
  dialect: DialectName,
  options: {
    env?: Record<string, string>;
    config?: Partial<Config>;
    build?: Partial<BuildOptions>;
    reuse?: StoreLocation;
  } = {},
): Promise<TestServer> {
  const { reuse } = options;
  if (reuse && (dialect === 'postgres') !== (reuse.databaseUrl !== undefined)) {
    throw new Error(`reuse: a ${dialect} store ${dialect === 'postgres' ? 'needs' : 'has no'} databaseUrl`);
  }
  const dataDir = reuse?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-test-'));
  // why: a copy of the run's migrated store (store-templates.ts) instead of migrating a new one,
  // about 0.5 s less per PostgreSQL server; without the run's setup, a new store is migrated.
  const templates = runTemplates();
  if (!reuse && dialect === 'sqlite' && templates) {
    fs.copyFileSync(templates.sqliteFile, path.join(dataDir, 'bourse.sqlite'));
  }
  const database = reuse?.databaseUrl
    ? { url: reuse.databaseUrl, drop: () => dropPostgresDatabase(reuse.databaseUrl as string) }
    : dialect === 'postgres'
      ? await createPostgresDatabase(templates?.postgresDatabase)
      : undefined;
  const config = loadConfig(
    { CAPTCHA: 'off', DEMO: 'off', LOG_LEVEL: 'silent', DATA_DIR: dataDir, ...options.env },
    // why: suites assert on the simulated walk's prices, so they replay it from the seed the
    // config refuses outside tests (a config object is not the environment); they create users
    // by the hundred, so passwords are hashed cheaply, except where hashing itself is tested
    // (auth.test.ts asks for `standard`).
    { databaseUrl: database?.url, feedSeed: 20261122, passwordHashing: 'test', ...options.config },
  );
  const clock = new ManualClock(Date.UTC(2026, 10, 22, 8, 0, 0));
  // why: the feed, and the bots that trade on it, run only in the suites that ask for them.
  const app = await buildApp({
    config,
    clock,
    startFeed: false,
    startMarketMaker: false,
    logger: false,
    ...options.build,
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  // why: the node serves before its first ledger check ends; suites start from a checked ledger,
  // so a check still running cannot halt the platform under a test that breaks the ledger on purpose.
  // (A server told to serve while its books load checks once the suite has loaded them.)
  if (!options.build?.serveWhileWarming) await app.ctx.readiness?.firstCheck();

  const call: TestServer['call'] = async (method, apiPath, params = {}, callOptions = {}) => {
    const headers: Record<string, string> = { Lang: callOptions.lang ?? 'ja-jp', ...callOptions.headers };
    if (callOptions.bearer) headers.Authorization = `Bearer ${callOptions.bearer}`;
    const fields: Record<string, string> = {};
    for (const [k, v] of Object.entries(params)) fields[k] = String(v);
    if (callOptions.token) fields.token = callOptions.token;
    let target = `${address}/apiv${apiPath}`;
    let body: string | undefined;
    if (method === 'GET') {
      const query = new URLSearchParams(fields).toString();
      if (query) target += `?${query}`;
    } else if (callOptions.json) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify({ ...params, ...(callOptions.token ? { token: callOptions.token } : {}) });
    } else {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(fields).toString();
    }
    const response = await fetch(target, { method, headers, body });
    const json = (await response.json()) as { code: number; msg: string; data: unknown };
    return { status: response.status, ...json };
  };

  return {
    app,
    url: address,
    clock,
    config,
    call,
    store: { dataDir, databaseUrl: database?.url },
    close: async (closeOptions = {}) => {
      await app.close();
      if (closeOptions.keepStore) return;
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The registration fields a person who ticks the form's terms box sends: the terms version in
 * force (none while no terms are published, as on a store without demo data).
 */
export async function acceptedTerms(server: TestServer): Promise<{ terms_version?: number }> {
  const current = await server.call('GET', '/Index/terms');
  if (current.code !== 1000) throw new Error(`terms version: ${JSON.stringify(current)}`);
  return current.data.version > 0 ? { terms_version: current.data.version } : {};
}

/** Registers (accepting the terms in force, as the web app does) and logs in a user; returns the token and uid. */
/**
 * Posts one image to an `/apiv` upload call the way the web app does (multipart: `token`, and
 * `image` when `data` is given), in English; answers the status and the envelope.
 */
export async function postImage(
  server: { url: string },
  apiPath: string,
  token: string,
  data?: Buffer,
  filename = 'image.png',
): Promise<ApiAnswer> {
  const form = new FormData();
  form.append('token', token);
  if (data) form.append('image', new Blob([new Uint8Array(data)], { type: 'image/png' }), filename);
  const response = await fetch(`${server.url}/apiv${apiPath}`, {
    method: 'POST',
    headers: { Lang: 'en-us' },
    body: form,
  });
  return { status: response.status, ...((await response.json()) as Omit<ApiAnswer, 'status'>) };
}

export async function registerAndLogin(
  server: TestServer,
  username = `user_${randomBytes(3).toString('hex')}`,
  password = 'secret123',
): Promise<{ token: string; uid: number; username: string; password: string }> {
  const registered = await server.call('POST', '/Login/upregister', {
    account: username,
    lpwd: password,
    ...(await acceptedTerms(server)),
  });
  if (registered.code !== 1000) throw new Error(`register failed: ${JSON.stringify(registered)}`);
  const login = await server.call('POST', '/Login/loginsubmit', { email: username, lpwd: password });
  if (login.code !== 1000) throw new Error(`login failed: ${JSON.stringify(login)}`);
  return { token: login.data.token, uid: login.data.uid, username, password };
}

/** Calls `/admin-api` + path over real HTTP the way the back office does (JSON, Bearer token). */
export async function callAdmin(
  server: TestServer,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  apiPath: string,
  body?: Record<string, unknown>,
  token?: string,
): Promise<ApiAnswer> {
  const headers: Record<string, string> = { Lang: 'en-us' };
  if (token) headers.Authorization = `Bearer ${token}`;
  let target = `${server.url}/admin-api${apiPath}`;
  let payload: string | undefined;
  if (method === 'GET' && body) target += `?${new URLSearchParams(body as Record<string, string>)}`;
  else if (body) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const response = await fetch(target, { method, headers, body: payload });
  const text = await response.text();
  const json = text ? (JSON.parse(text) as Omit<ApiAnswer, 'status'>) : { code: 0, msg: '', data: null };
  return { status: response.status, ...json };
}
