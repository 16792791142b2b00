import type { FastifyInstance } from 'fastify';
import type { Clock } from './clock.ts';
import type { Db } from './db.ts';
import { fromMillis, toMillis } from './time.ts';

/**
 * A node writes the time it saw a customer at most this often, and touches it this often while it
 * holds customer sockets.
 */
const ACTIVITY_WRITE_EVERY_MS = 30_000;
/** The customer app's paths: its API and its socket (the back office's `/admin-api` is not one). */
const CUSTOMER_PATH = /^\/(apiv|ws)(?=[/?]|$)/i;

export interface CustomerActivityDeps {
  db: Db;
  clock: Clock;
  onError: (error: unknown) => void;
}

/**
 * When a customer was last seen on any node, kept in the one row of `customer_activity` so that
 * whichever node runs a job reads what every node saw. A node notes each customer request in
 * memory and writes the row at most once per {@link ACTIVITY_WRITE_EVERY_MS}, off the request's
 * path, so a request costs a comparison.
 */
export class CustomerActivity {
  readonly #deps: CustomerActivityDeps;
  /** The last activity this node saw, written or not. */
  #seenAt: number | undefined;
  #writtenAt: number | undefined;
  #writing: Promise<void> = Promise.resolve();
  #timer: NodeJS.Timeout | undefined;
  #closing = false;

  constructor(deps: CustomerActivityDeps) {
    this.#deps = deps;
  }

  /**
   * Counts every request to `/apiv` or `/ws` on `app` as activity and, until `app` closes, touches
   * every {@link ACTIVITY_WRITE_EVERY_MS} while `sockets()` (this node's open customer sockets) is
   * above zero.
   */
  register(app: FastifyInstance, sockets: () => number): void {
    app.addHook('onRequest', (request, _reply, done) => {
      if (CUSTOMER_PATH.test(request.url)) this.touch();
      done();
    });
    this.#timer = setInterval(() => this.touchWhileOpen(sockets()), ACTIVITY_WRITE_EVERY_MS);
    // why: timers never keep the process alive on their own; the HTTP server does.
    this.#timer.unref();
    // why: before the store closes (the app's onClose), so a write on its way still commits.
    app.addHook('preClose', async () => {
      this.#closing = true;
      clearInterval(this.#timer);
      await this.flush();
    });
  }

  /** Activity now; the row is written unless this node wrote it less than 30 s ago. */
  touch(): void {
    const now = this.#deps.clock.now();
    if (this.#seenAt === undefined || now > this.#seenAt) this.#seenAt = now;
    if (this.#closing) return;
    if (this.#writtenAt !== undefined && now - this.#writtenAt < ACTIVITY_WRITE_EVERY_MS) return;
    this.#writtenAt = now;
    this.#writing = this.#writing.then(() =>
      this.#write(now).catch((error: unknown) => {
        // why: a failed write is tried again by the next request, not 30 s later.
        this.#writtenAt = undefined;
        this.#deps.onError(error);
      }),
    );
  }

  /** What the socket timer does: a touch while this node holds `openSockets` customer sockets. */
  touchWhileOpen(openSockets: number): void {
    if (openSockets > 0) this.touch();
  }

  /** When a customer was last seen, on this node or any other (unix ms); undefined: never. */
  async lastSeen(): Promise<number | undefined> {
    const row = await this.#deps.db
      .selectFrom('customer_activity')
      .select('last_seen_at')
      .where('id', '=', 1n)
      .executeTakeFirst();
    const stored = row ? fromMillis(row.last_seen_at) : undefined;
    // why: this node's latest may still be on its way to the row.
    if (stored === undefined || (this.#seenAt !== undefined && this.#seenAt > stored)) return this.#seenAt;
    return stored;
  }

  /** Resolves once the writes begun so far have ended. */
  flush(): Promise<void> {
    return this.#writing;
  }

  async #write(at: number): Promise<void> {
    // why: the row only moves forward, whatever order nodes' writes (and their clocks) arrive in.
    await this.#deps.db
      .insertInto('customer_activity')
      .values({ id: 1n, last_seen_at: toMillis(at) })
      .onConflict((oc) =>
        oc
          .column('id')
          .doUpdateSet({ last_seen_at: (eb) => eb.ref('excluded.last_seen_at') })
          .where((eb) => eb('customer_activity.last_seen_at', '<', eb.ref('excluded.last_seen_at'))),
      )
      .execute();
  }
}
