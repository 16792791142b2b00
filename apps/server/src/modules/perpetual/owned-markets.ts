import { AppError, type ResultKey } from '@bourse/shared';
import { type Bus, BusNoResponderError, BusTimeoutError, type Subscription } from '../../platform/bus.ts';
import type { Db } from '../../platform/db.ts';
import { type MarketOwnership, NotOwnerError, type OwnedProduct } from '../../platform/market-ownership.ts';
import type { PerpCommand, PerpOutcome } from './commands.ts';
import * as repo from './repository.ts';
import { PerpSequencer, type PerpSequencerDeps } from './sequencer.ts';

/** A perpetual market's lease name: leases are shared with spot, whose symbols may be the same. */
export const leaseName = (symbol: string) => `perp:${symbol}`;
const ownerSubject = (symbol: string) => `perp.owner.${symbol}`;
const ATTEMPT_MS = 2000;
const RETRY_MS = 100;

type OwnerReply =
  | { ok: PerpOutcome }
  | { error: ResultKey; params?: Record<string, string | number> }
  | { notOwner: true };

export interface PerpMarketsDeps {
  db: Db;
  /** What each market's sequencer runs on; the lease it holds the market under is the ownership's. */
  sequencer: Omit<PerpSequencerDeps, 'node'>;
  bus?: Bus;
  cluster: boolean;
  routeDeadlineMs: number;
  onError: (error: unknown, what: string) => void;
  /** Told when this node starts or stops running a market (the mark and funding loop follows it). */
  onOwned?: (symbol: string, sequencer: PerpSequencer | undefined) => void;
}

/**
 * The perpetual markets this node owns and the way to the owner of the others (as spot's): a
 * market is owned and failed over by `MarketOwnership`; gaining one moves its row to the new
 * epoch and rebuilds its clearing from the store; other nodes' commands come over the bus.
 */
export class PerpMarkets implements OwnedProduct {
  readonly #deps: PerpMarketsDeps;
  readonly #local = new Map<string, { sequencer: PerpSequencer; serving?: Subscription }>();
  #ownership: MarketOwnership | undefined;

  constructor(deps: PerpMarketsDeps) {
    this.#deps = deps;
  }

  attach(ownership: MarketOwnership): void {
    this.#ownership = ownership;
  }

  async markets(): Promise<string[]> {
    return (await repo.listMarkets(this.#deps.db)).map((m) => leaseName(m.symbol));
  }

  async gain(lease: string, epoch: bigint): Promise<void> {
    const symbol = symbolOf(lease);
    const ownership = this.#ownership;
    if (!ownership) throw new Error('perpetual markets gained before their ownership was attached');
    if (!(await repo.takeMarketEpoch(this.#deps.db, symbol, epoch))) {
      throw new Error(`${symbol}: the perpetual market is already at an epoch newer than ${epoch}`);
    }
    const deps = { ...this.#deps.sequencer, node: { leaseMs: ownership.leaseMs } };
    const sequencer: PerpSequencer = new PerpSequencer(symbol, epoch, deps, (reason) => {
      if (this.#local.get(symbol)?.sequencer === sequencer) void this.lose(lease);
      ownership.fenced(lease, epoch, reason);
    });
    await sequencer.load();
    this.#local.set(symbol, { sequencer });
    this.#deps.onOwned?.(symbol, sequencer);
  }

  async listen(lease: string): Promise<void> {
    const symbol = symbolOf(lease);
    const { bus, cluster } = this.#deps;
    const entry = this.#local.get(symbol);
    if (!entry || !cluster || !bus || entry.serving) return;
    entry.serving = await bus.serve<PerpCommand, OwnerReply>(ownerSubject(symbol), (command) =>
      this.#answer(symbol, command),
    );
  }

  async lose(lease: string): Promise<void> {
    const symbol = symbolOf(lease);
    const entry = this.#local.get(symbol);
    if (!entry) return;
    this.#local.delete(symbol);
    this.#deps.onOwned?.(symbol, undefined);
    entry.sequencer.fence();
    await entry.serving?.unsubscribe();
  }

  async handOver(lease: string): Promise<void> {
    const symbol = symbolOf(lease);
    const entry = this.#local.get(symbol);
    if (!entry) return;
    this.#local.delete(symbol);
    this.#deps.onOwned?.(symbol, undefined);
    await entry.serving?.unsubscribe();
    await entry.sequencer.idle();
    entry.sequencer.fence();
  }

  local(symbol: string): PerpSequencer | undefined {
    return this.#local.get(symbol)?.sequencer;
  }

  sequencers(): PerpSequencer[] {
    return [...this.#local.values()].map((e) => e.sequencer);
  }

  /**
   * Runs a command on the owner of `symbol`, here or over the bus, asking again while nobody
   * owns it (a failover) until the deadline, then MARKET_UNAVAILABLE. Safe to repeat: a place
   * carries its idempotency key, a cancel of an ended order changes nothing.
   */
  async send(
    symbol: string,
    command: PerpCommand,
    deadlineMs = this.#deps.routeDeadlineMs,
  ): Promise<PerpOutcome> {
    const { bus, cluster } = this.#deps;
    const deadline = Date.now() + deadlineMs;
    for (;;) {
      const sequencer = this.local(symbol) ?? (await this.#takeSole(symbol));
      if (sequencer) {
        try {
          return await sequencer.submit(command);
        } catch (error) {
          if (!(error instanceof NotOwnerError)) throw error;
        }
      } else if (cluster && bus) {
        const remaining = deadline - Date.now();
        if (remaining <= 0) break;
        try {
          const reply = await bus.request<PerpCommand, OwnerReply>(
            ownerSubject(symbol),
            command,
            Math.min(remaining, ATTEMPT_MS),
          );
          if ('ok' in reply) return reply.ok;
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

  async #takeSole(symbol: string): Promise<PerpSequencer | undefined> {
    if (this.#deps.cluster || !this.#ownership) return undefined;
    if (!(await repo.findMarket(this.#deps.db, symbol))) throw new AppError('MARKET_NOT_OPEN');
    await this.#ownership.takeSole(leaseName(symbol));
    return this.local(symbol);
  }

  async #answer(symbol: string, command: PerpCommand): Promise<OwnerReply> {
    const sequencer = this.local(symbol);
    if (!sequencer) return { notOwner: true };
    try {
      return { ok: await sequencer.submit(command) };
    } catch (error) {
      if (error instanceof NotOwnerError) return { notOwner: true };
      if (error instanceof AppError) return { error: error.key, params: error.params };
      this.#deps.onError(error, `perpetual ${command.kind} for another node on ${symbol}`);
      return { error: 'INTERNAL_ERROR' };
    }
  }
}

function symbolOf(lease: string): string {
  return lease.startsWith('perp:') ? lease.slice(5) : lease;
}
