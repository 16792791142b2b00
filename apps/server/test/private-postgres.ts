import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './child-server.ts';
import { waitForPort } from './cluster.ts';

/**
 * A PostgreSQL server of the test's own (initdb in a temp folder, a free loopback port, trust
 * auth), so a fault test can crash and restart it without touching the machine's shared one.
 */

/** The folder of PostgreSQL's server programs: `PG_BIN`, else the newest of Debian's packages. */
export function postgresBinDir(): string | undefined {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return undefined;
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : undefined;
}

export class PrivatePostgres {
  readonly dir: string;
  readonly port: number;
  readonly #bin: string;

  private constructor(dir: string, port: number, bin: string) {
    this.dir = dir;
    this.port = port;
    this.#bin = bin;
  }

  /** The URL of its `postgres` database as the `postgres` superuser. */
  get adminUrl(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  static async start(): Promise<PrivatePostgres> {
    const bin = postgresBinDir();
    if (!bin) throw new Error('no PostgreSQL server programs (set PG_BIN)');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-pg-'));
    // why: PostgreSQL refuses to run as root; as root, the cluster belongs to the postgres user.
    if (process.getuid?.() === 0) spawnSync('chown', ['postgres', dir]);
    const server = new PrivatePostgres(dir, await freePort(), bin);
    server.#run('initdb', ['-D', path.join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync']);
    await server.#ctl('start');
    return server;
  }

  /** `pg_ctl restart -m immediate`: the server stops as a crash would (no checkpoint) and starts again. */
  async restart(): Promise<void> {
    await this.#ctl('restart', ['-m', 'immediate']);
  }

  /** Stops it at once and removes its folder. */
  async stop(): Promise<void> {
    this.#run('pg_ctl', ['-D', path.join(this.dir, 'data'), 'stop', '-m', 'immediate'], false);
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  async #ctl(action: 'start' | 'restart', extra: string[] = []): Promise<void> {
    // why: fsync off: the tests crash the server process, never the machine, so the OS keeps
    // every write; syncing would only slow a two-core machine.
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
    this.#run('pg_ctl', [
      '-D',
      path.join(this.dir, 'data'),
      '-o',
      options,
      '-l',
      path.join(this.dir, 'server.log'),
      '-w',
      action,
      ...extra,
    ]);
    await waitForPort(this.port, 20_000, 'PostgreSQL');
  }

  #run(program: string, args: string[], check = true): void {
    const file = path.join(this.#bin, program);
    const result =
      process.getuid?.() === 0
        ? spawnSync('su', ['postgres', '-c', [file, ...args].map(quote).join(' ')], { encoding: 'utf8' })
        : spawnSync(file, args, { encoding: 'utf8' });
    if (check && result.status !== 0)
      throw new Error(`${program} failed (${result.status}): ${result.stderr || result.stdout}`);
  }
}

function quote(arg: string): string {
  return `'${arg.replaceAll("'", `'\\''`)}'`;
}
