import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { generate } from 'otplib';
import pg from 'pg';
import { exited, freePort, killHard, spawnServer } from './child-server.ts';

/**
 * Several real server processes (as `npm start` runs them, demo on) on one PostgreSQL database
 * and one NATS JetStream server of their own: the nodes of one exchange, for the tests of
 * several nodes and the fault loop. The NATS server is the suite's own process on a free
 * loopback port with its own store, so a test may kill and restart it without touching any other.
 */

const PG_ADMIN_URL =
  process.env.TEST_PG_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Where `nats-server` is: `NATS_SERVER`, else the first on the search path or in the system folders. */
export function natsServerBinary(): string | undefined {
  if (process.env.NATS_SERVER) return process.env.NATS_SERVER;
  // why: a root shell's PATH may lack the sbin folders Debian's package installs it in.
  const dirs = [
    ...(process.env.PATH ?? '').split(path.delimiter),
    '/usr/sbin',
    '/usr/local/sbin',
    '/usr/bin',
  ];
  return dirs.map((dir) => path.join(dir, 'nats-server')).find((file) => fs.existsSync(file));
}

/** Why the suites of several nodes cannot run here, or null when they can. */
export async function clusterSkipReason(adminUrl = PG_ADMIN_URL): Promise<string | null> {
  if (!natsServerBinary()) return 'no nats-server binary (install Debian’s nats-server or set NATS_SERVER)';
  if (!/^postgres(ql)?:\/\//.test(adminUrl)) return 'DATABASE_URL is not a postgres URL';
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (error) {
    return `PostgreSQL at ${adminUrl.replace(/\/\/[^@]*@/, '//')} did not answer (${(error as Error).message})`;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Resolves once something accepts TCP connections on the loopback `port`, or throws at the deadline. */
export async function waitForPort(port: number, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ port, host: '127.0.0.1' });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`${what} did not listen on ${port} within ${ms} ms`);
    await sleep(50);
  }
}

/** A NATS server with JetStream on a free loopback port and a store folder of its own. */
export class NatsProcess {
  readonly port: number;
  readonly storeDir: string;
  readonly logFile: string;
  #child: ChildProcess | undefined;

  private constructor(port: number, dir: string) {
    this.port = port;
    this.storeDir = path.join(dir, 'nats-store');
    this.logFile = path.join(dir, 'nats.log');
  }

  static async start(dir: string): Promise<NatsProcess> {
    const nats = new NatsProcess(await freePort(), dir);
    await nats.spawn();
    return nats;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  async spawn(): Promise<void> {
    const binary = natsServerBinary();
    if (!binary) throw new Error('no nats-server binary');
    const log = fs.openSync(this.logFile, 'a');
    this.#child = spawn(binary, ['-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', this.storeDir], {
      stdio: ['ignore', log, log],
    });
    fs.closeSync(log);
    await waitForPort(this.port, 10_000, 'nats-server');
  }

  /** Kills it outright (no flush, as a crash would) and starts it again on the same port and store. */
  async restart(): Promise<void> {
    await this.stop();
    await this.spawn();
  }

  async stop(): Promise<void> {
    if (this.#child) await killHard(this.#child);
    this.#child = undefined;
  }
}

export interface ClusterOptions {
  /** How many nodes (default 3). */
  nodes?: number;
  /** `MARKET_LEASE_SECONDS` of every node (default: the server's own). */
  leaseSeconds?: number;
  /**
   * Start node 1 alone and wait until it is ready before the others (default true): the demo
   * seed of several nodes starting at once on an empty database races today.
   */
  staggered?: boolean;
  /** Environment of every node. */
  env?: Record<string, string>;
  /** Environment of node `i` (1-based) on top of `env`. */
  nodeEnv?: (i: number) => Record<string, string>;
  /** The PostgreSQL server to make the database on (default the machine's). */
  pgAdminUrl?: string;
  /** How long a node may take to become ready (default 60 s: three start on two cores). */
  readyMs?: number;
  /** Runs on the new database, with the nodes' shared environment, before any node starts. */
  prepare?: (env: Record<string, string>) => Promise<void>;
}

export interface ClusterNode {
  id: string;
  port: number;
  dataDir: string;
  logFile: string;
  env: Record<string, string>;
  child: ChildProcess | undefined;
}

const OWNER = { username: 'boss', password: 'owner-pass-1' };

/**
 * Starts a cluster: a fresh PostgreSQL database, its own NATS server, and `nodes` server processes
 * `n1…nN`, each with its own port, data folder and log file, sharing the secret keys (a session
 * or a staff secret made on one node must read on every other).
 */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-cluster-'));
  const adminUrl = options.pgAdminUrl ?? PG_ADMIN_URL;
  const name = `bourse_test_cluster_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${name}`;
  const nats = await NatsProcess.start(dir);
  const client = new pg.Client({ connectionString: dbUrl.toString() });
  await client.connect();
  // why: a dropped connection (PostgreSQL restarted by a fault test) must not crash the test process.
  client.on('error', () => {});
  const key = () => randomBytes(32).toString('hex');
  const shared: Record<string, string> = {
    NATS_URL: nats.url,
    NATS_PREFIX: `t${randomBytes(4).toString('hex')}`,
    STAFF_SECRET_KEY: key(),
    USER_SECRET_KEY: key(),
    POR_KEY: key(),
    POR_SIGNING_KEY: key(),
    ADMIN_USER: OWNER.username,
    ADMIN_PASSWORD: OWNER.password,
    LIMIT_REGISTER_PER_IP: '1000/3600',
    WS_CONNECTIONS_PER_IP: '200',
    ...(options.leaseSeconds ? { MARKET_LEASE_SECONDS: String(options.leaseSeconds) } : {}),
    ...options.env,
    // why: the one thing `env` may not change: the nodes share this database.
    DATABASE_URL: dbUrl.toString(),
  };
  const count = options.nodes ?? 3;
  const nodes: ClusterNode[] = [];
  for (let i = 1; i <= count; i++) {
    const dataDir = path.join(dir, `n${i}`);
    fs.mkdirSync(dataDir);
    nodes.push({
      id: `n${i}`,
      port: await freePort(),
      dataDir,
      logFile: path.join(dir, `n${i}.log`),
      env: { ...shared, NODE_ID: `n${i}`, ...options.nodeEnv?.(i) },
      child: undefined,
    });
  }
  const cluster = new Cluster(
    dir,
    dbUrl.toString(),
    adminUrl,
    nats,
    client,
    nodes,
    options.readyMs ?? 60_000,
  );
  try {
    await options.prepare?.(shared);
    if (options.staggered ?? true) {
      await cluster.start(1);
      await Promise.all(nodes.slice(1).map((_, k) => cluster.start(k + 2)));
    } else {
      await Promise.all(nodes.map((_, k) => cluster.start(k + 1)));
    }
  } catch (error) {
    await cluster.close({ keepLogs: true });
    throw new Error(`${(error as Error).message}; node logs in ${dir}`);
  }
  return cluster;
}

export class Cluster {
  #pg: pg.Client;
  readonly databaseUrl: string;
  readonly nats: NatsProcess;
  readonly nodes: ClusterNode[];
  /** Where the nodes' data folders and logs are. */
  readonly dir: string;
  readonly #adminUrl: string;
  readonly #readyMs: number;
  #ownerToken: string | undefined;

  constructor(
    dir: string,
    databaseUrl: string,
    adminUrl: string,
    nats: NatsProcess,
    client: pg.Client,
    nodes: ClusterNode[],
    readyMs: number,
  ) {
    this.dir = dir;
    this.databaseUrl = databaseUrl;
    this.#adminUrl = adminUrl;
    this.nats = nats;
    this.#pg = client;
    this.nodes = nodes;
    this.#readyMs = readyMs;
  }

  /** A client on the cluster's database, for the tests' oracles. */
  get pg(): pg.Client {
    return this.#pg;
  }

  /** A new client on the database, after PostgreSQL restarted under the old one. */
  async reconnectPg(): Promise<void> {
    await this.#pg.end().catch(() => {});
    const client = new pg.Client({ connectionString: this.databaseUrl });
    client.on('error', () => {});
    await client.connect();
    this.#pg = client;
  }

  #node(i: number): ClusterNode {
    const node = this.nodes[i - 1];
    if (!node) throw new Error(`no node ${i}`);
    return node;
  }

  /** Node `i`'s base URL (1-based). */
  url(i: number): string {
    return `http://127.0.0.1:${this.#node(i).port}`;
  }

  /** The node whose `NODE_ID` is `id`, 1-based. */
  indexOf(id: string): number {
    const i = this.nodes.findIndex((node) => node.id === id);
    if (i < 0) throw new Error(`no node ${id}`);
    return i + 1;
  }

  /** Whether node `i` runs. */
  #firstRunning(): number {
    const found = this.nodes.findIndex((_, k) => this.running(k + 1));
    if (found === -1) throw new Error('no node runs');
    return found + 1;
  }

  running(i: number): boolean {
    const child = this.#node(i).child;
    return child !== undefined && child.exitCode === null && child.signalCode === null;
  }

  /** Starts node `i` (again), `env` on top of its own; resolves once it is ready. */
  async start(i: number, env: Record<string, string> = {}): Promise<void> {
    const node = this.#node(i);
    if (this.running(i)) throw new Error(`node ${node.id} runs already`);
    const log = fs.openSync(node.logFile, 'a');
    fs.writeSync(log, `--- ${new Date().toISOString()} start ${node.id}\n`);
    try {
      node.child = await spawnServer(
        node.dataDir,
        node.port,
        { ...node.env, ...env },
        (child) => {
          node.child = child;
        },
        { logFd: log, readyMs: this.#readyMs },
      );
    } catch (error) {
      throw new Error(`node ${node.id}: ${(error as Error).message}\n${this.logTail(i)}`);
    } finally {
      fs.closeSync(log);
    }
  }

  /** SIGKILL: node `i` dies at once, holding whatever leases it held. */
  async kill(i: number): Promise<void> {
    const child = this.#node(i).child;
    if (child) await killHard(child);
  }

  /** SIGTERM, and waits for the node to stop the way an operator's stop does. */
  async stop(i: number): Promise<void> {
    const child = this.#node(i).child;
    if (!child || !this.running(i)) return;
    child.kill('SIGCONT');
    child.kill('SIGTERM');
    const stopped = await Promise.race([exited(child), sleep(15_000).then(() => null)]);
    if (!stopped) await killHard(child);
  }

  /** SIGSTOP: node `i` freezes mid-whatever (a long GC pause, a stalled VM). */
  pause(i: number): void {
    this.#node(i).child?.kill('SIGSTOP');
  }

  /** SIGCONT. */
  resume(i: number): void {
    this.#node(i).child?.kill('SIGCONT');
  }

  pid(i: number): number | undefined {
    return this.#node(i).child?.pid;
  }

  /** Kills the NATS server outright and starts it again on the same port and store. */
  restartNats(): Promise<void> {
    return this.nats.restart();
  }

  /**
   * Waits until the markets are spread for good: every market (spot, and perpetual under
   * `perp:<symbol>`) leased, unexpired, by a running node, and no node above its share of each
   * product (its markets divided by the running nodes, rounded up: each product's ownership
   * spreads its own), so no node hands one back. Nodes that join take markets from the others for
   * a few lease rounds; a test that reads one market's deltas or owner starts after that.
   */
  async settled(ms = 30_000): Promise<void> {
    const running = this.nodes.filter((_, k) => this.running(k + 1)).map((node) => node.id);
    const deadline = Date.now() + ms;
    let last = '';
    for (;;) {
      const { rows } = await this.#pg.query<{
        product: string;
        symbol: string;
        holder: string | null;
        expires_at: string | null;
      }>(
        `select m.product, m.symbol, l.holder, l.expires_at::text as expires_at
         from (select 'spot' as product, symbol from spot_markets
               union all select 'perp', 'perp:' || symbol from perp_markets) m
         left join market_leases l on l.symbol = m.symbol order by m.product, m.symbol`,
      );
      let spread = true;
      for (const product of new Set(rows.map((row) => row.product))) {
        const mine = rows.filter((row) => row.product === product);
        const share = Math.ceil(mine.length / Math.max(1, running.length));
        const held = new Map<string, number>();
        for (const row of mine) {
          const live =
            row.holder !== null && running.includes(row.holder) && Number(row.expires_at) > Date.now();
          if (!live) spread = false;
          else held.set(row.holder!, (held.get(row.holder!) ?? 0) + 1);
        }
        if ([...held.values()].some((n) => n > share)) spread = false;
      }
      if (spread) return;
      last = rows.map((row) => `${row.symbol}:${row.holder ?? '-'}`).join(' ');
      if (Date.now() > deadline) throw new Error(`the markets did not settle in ${ms} ms: ${last}`);
      await sleep(200);
    }
  }

  /**
   * The lease of `symbol`'s market (`market_leases`), or null when none is recorded — or when the
   * store has no such table (a server without market leases: every node sequences every market).
   */
  async ownerOf(symbol: string): Promise<{ holder: string; epoch: bigint; expiresAt: number } | null> {
    let rows: { holder: string; epoch: string; expires_at: string }[];
    try {
      ({ rows } = await this.pg.query(
        'select holder, epoch, expires_at from market_leases where symbol = $1',
        [symbol],
      ));
    } catch (error) {
      if ((error as { code?: string }).code === '42P01') return null;
      throw error;
    }
    const row = rows[0];
    return row ? { holder: row.holder, epoch: BigInt(row.epoch), expiresAt: Number(row.expires_at) } : null;
  }

  /**
   * The node holding a `job_leases` lease, 1-based: the holder is the node's `NODE_ID`, or, from a
   * scheduler that names itself host:pid:random, the node of that process id.
   */
  async jobHolder(job: string): Promise<{ holder: string; node: number | undefined } | null> {
    const { rows } = await this.pg.query<{ holder: string }>(
      'select holder from job_leases where name = $1',
      [job],
    );
    const holder = rows[0]?.holder;
    if (holder === undefined) return null;
    const i = this.nodes.findIndex(
      (node) =>
        node.id === holder || (node.child?.pid !== undefined && holder.includes(`:${node.child.pid}:`)),
    );
    return { holder, node: i < 0 ? undefined : i + 1 };
  }

  /** The last lines of node `i`'s log, for a failure's message. */
  logTail(i: number, lines = 30): string {
    const file = this.#node(i).logFile;
    if (!fs.existsSync(file)) return '';
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  }

  /** A back-office session of the owner (made once, valid on every node: sessions are in the database). */
  async ownerToken(): Promise<string> {
    if (this.#ownerToken) return this.#ownerToken;
    // why: any running node signs in (node 1 may be the one a fault took down).
    const node = this.#firstRunning();
    const step = await this.admin(node, 'POST', '/login', OWNER);
    if (step.data?.step !== 'enrol') throw new Error(`owner sign-in: ${JSON.stringify(step)}`);
    const done = await this.admin(node, 'POST', '/totp/enrol', {
      ticket: step.data.ticket,
      code: await generate({ secret: step.data.secret, epoch: Math.floor(Date.now() / 1000) }),
    });
    if (done.code !== 1000) throw new Error(`owner enrolment: ${JSON.stringify(done)}`);
    this.#ownerToken = done.data.token as string;
    return this.#ownerToken;
  }

  /** Calls `/admin-api` + path on node `i` as the back office does (JSON, Bearer token). */
  async admin(
    i: number,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    apiPath: string,
    body?: Record<string, unknown>,
    token?: string,
  ): Promise<{ status: number; code: number; msg: string; data: any }> {
    const headers: Record<string, string> = { Lang: 'en-us' };
    if (token) headers.Authorization = `Bearer ${token}`;
    let payload: string | undefined;
    if (body) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const response = await fetch(`${this.url(i)}/admin-api${apiPath}`, { method, headers, body: payload });
    const text = await response.text();
    return { status: response.status, ...(text ? JSON.parse(text) : { code: 0, msg: '', data: null }) };
  }

  /**
   * The ledger's full invariant check (every module's reservations), run now by node `i` through
   * the back office: the problems it finds.
   */
  async ledgerProblems(i = this.#firstRunning()): Promise<string[]> {
    const answer = await this.admin(i, 'POST', '/ledger/check', undefined, await this.ownerToken());
    if (answer.code !== 1000) throw new Error(`ledger check: ${JSON.stringify(answer)}`);
    return answer.data.problems as string[];
  }

  /** Stops every node and the NATS server, drops the database and removes the folder (kept with `keepLogs`). */
  async close(options: { keepLogs?: boolean } = {}): Promise<void> {
    await Promise.all(
      this.nodes.map(async (node) => {
        if (!node.child) return;
        node.child.kill('SIGCONT');
        await killHard(node.child);
      }),
    );
    await this.nats.stop();
    await this.pg.end().catch(() => {});
    const admin = new pg.Client({ connectionString: this.#adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${new URL(this.databaseUrl).pathname.slice(1)} with (force)`);
    await admin.end();
    if (!options.keepLogs) fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
