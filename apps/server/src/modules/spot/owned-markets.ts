import { AppError, type ResultKey } from '@bourse/shared';
import { type Bus, BusNoResponderError, BusTimeoutError, type Subscription } from '../../platform/bus.ts';
import type { Db } from '../../platform/db.ts';
import type { MarketOwnership, OwnedProduct } from '../../platform/market-ownership.ts';
import type { PlaceInput } from './order-entry.ts';
import * as repo from './repository.ts';
import { MarketSequencer, NotOwnerError, type SequencerDeps } from './sequencer.ts';

/** What a node asks a market's owner to do (any node accepts a request; the owner runs it). */
export type OwnerOp =
  | { op: 'place'; userId: bigint; input: PlaceInput }
  | { op: 'cancel'; userId: bigint; orderId: bigint }
  | { op: 'cancelMany'; userId: bigint; orderIds: bigint[] }
  | { op: 'depth'; levels: number }
  | { op: 'configure'; name: string; args: unknown };

/** The owner's answer: its value, a refusal with its code, or "not the owner (any more)". */
type OwnerReply =
  | { ok: unknown }
  | { error: ResultKey; params?: Record<string, string | number> }
  | { notOwner: true };

/** Runs an op on the sequencer of a market this node owns. */
export type RunHere = (sequencer: MarketSequencer, op: OwnerOp) => Promise<unknown>;

/** Where a market's owner listens for requests. */
const ownerSubject = (symbol: string) => `spot.owner.${symbol}`;

/** How long one attempt waits for the owner before trying again (a retry is safe: see `send`). */
const ATTEMPT_MS = 2000;
/** The pause before asking again when nobody owns the market yet. */
const RETRY_MS = 100;

export interface SpotMarketsDeps {
  db: Db;
  sequencer: SequencerDeps;
  bus?: Bus;
  /** Several nodes: requests for markets this node does not own travel over the bus. */
  cluster: boolean;
  /** How long a request may look for the market's owner (the lease plus a margin). */
  routeDeadlineMs: number;
  runHere: RunHere;
  onError: (error: unknown, what: string) => void;
}

/**
 * The spot markets this node owns, and the way to the owner of the others. Ownership itself is
 * `MarketOwnership`'s (leases with epochs); this side builds a market's sequencer when the node
 * gains it (after moving the market row to the new epoch, so the old owner's next batch fails
 * its fence), answers other nodes' requests for it, and stops it when the lease is lost.
 */
export class SpotMarkets implements OwnedProduct {
  readonly #deps: SpotMarketsDeps;
  readonly #local = new Map<string, { sequencer: MarketSequencer; serving?: Subscription }>();
  #ownership: MarketOwnership | undefined;

  constructor(deps: SpotMarketsDeps) {
    this.#deps = deps;
  }

  /** Set once, before the ownership starts: told when a batch finds its market fenced. */
  attach(ownership: MarketOwnership): void {
    this.#ownership = ownership;
  }

  async markets(): Promise<string[]> {
    return (await repo.listMarkets(this.#deps.db)).map((m) => m.symbol);
  }

  async gain(symbol: string, epoch: bigint): Promise<void> {
    const { db } = this.#deps;
    if (!(await repo.takeMarketEpoch(db, symbol, epoch))) {
      throw new Error(`${symbol}: the market is already at an epoch newer than ${epoch}`);
    }
    const sequencer: MarketSequencer = new MarketSequencer(symbol, epoch, this.#deps.sequencer, (reason) => {
      if (this.#local.get(symbol)?.sequencer === sequencer) void this.lose(symbol);
      this.#ownership?.fenced(symbol, epoch, reason);
    });
    await sequencer.load();
    this.#local.set(symbol, { sequencer });
  }

  async listen(symbol: string): Promise<void> {
    const { bus, cluster } = this.#deps;
    const entry = this.#local.get(symbol);
    if (!entry || !cluster || !bus || entry.serving) return;
    entry.serving = await bus.serve<OwnerOp, OwnerReply>(ownerSubject(symbol), (op) =>
      this.#answer(symbol, op),
    );
  }

  async lose(symbol: string): Promise<void> {
    const entry = this.#local.get(symbol);
    if (!entry) return;
    this.#local.delete(symbol);
    entry.sequencer.fence();
    await entry.serving?.unsubscribe();
  }

  async handOver(symbol: string): Promise<void> {
    const entry = this.#local.get(symbol);
    if (!entry) return;
    // why: new requests look for the next owner from now on; those queued here still commit.
    this.#local.delete(symbol);
    await entry.serving?.unsubscribe();
    await entry.sequencer.idle();
    entry.sequencer.fence();
  }

  /** The sequencer of `symbol` when this node owns it. */
  local(symbol: string): MarketSequencer | undefined {
    return this.#local.get(symbol)?.sequencer;
  }

  /** Every sequencer this node runs now. */
  sequencers(): MarketSequencer[] {
    return [...this.#local.values()].map((entry) => entry.sequencer);
  }

  /**
   * Runs `op` on the owner of `symbol`: here when this node owns it, otherwise over the bus. Asks
   * again while nobody owns it (a failover under way) or the node asked has just lost it, until
   * `routeDeadlineMs`, then answers MARKET_UNAVAILABLE. Asking again is safe: a place carries its
   * idempotency key (a second attempt answers the first order), a cancel of an order that ended
   * changes nothing, and depth only reads.
   */
  async send<T>(symbol: string, op: OwnerOp, deadlineMs = this.#deps.routeDeadlineMs): Promise<T> {
    const { bus, cluster } = this.#deps;
    const deadline = Date.now() + deadlineMs;
    for (;;) {
      const sequencer = this.local(symbol) ?? (await this.#takeSole(symbol));
      if (sequencer) {
        try {
          return (await this.#deps.runHere(sequencer, op)) as T;
        } catch (error) {
          if (!(error instanceof NotOwnerError)) throw error;
        }
      } else if (cluster && bus) {
        const remaining = deadline - Date.now();
        if (remaining <= 0) break;
        try {
          const reply = await bus.request<OwnerOp, OwnerReply>(
            ownerSubject(symbol),
            op,
            Math.min(remaining, ATTEMPT_MS),
          );
          if ('ok' in reply) return reply.ok as T;
          if ('error' in reply) throw new AppError(reply.error, reply.params);
        } catch (error) {
          if (!(error instanceof BusNoResponderError || error instanceof BusTimeoutError)) throw error;
        }
      }
      if (Date.now() + RETRY_MS >= deadline) break;
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
    throw new AppError('MARKET_UNAVAILABLE');
  }

  /** One node on its own store takes a market nobody runs yet (one added since the start). */
  async #takeSole(symbol: string): Promise<MarketSequencer | undefined> {
    if (this.#deps.cluster || !this.#ownership) return undefined;
    if (!(await repo.findMarket(this.#deps.db, symbol))) throw new AppError('MARKET_NOT_OPEN');
    await this.#ownership.takeSole(symbol);
    return this.local(symbol);
  }

  async #answer(symbol: string, op: OwnerOp): Promise<OwnerReply> {
    const sequencer = this.local(symbol);
    if (!sequencer) return { notOwner: true };
    try {
      return { ok: await this.#deps.runHere(sequencer, op) };
    } catch (error) {
      if (error instanceof NotOwnerError) return { notOwner: true };
      if (error instanceof AppError) return { error: error.key, params: error.params };
      this.#deps.onError(error, `spot ${op.op} for another node on ${symbol}`);
      return { error: 'INTERNAL_ERROR' };
    }
  }
}
