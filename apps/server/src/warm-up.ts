import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { PerpService } from './modules/perpetual/service.ts';
import { type SpotMarketData, startSpotMarketData } from './modules/spot/market-data.ts';
import type { SpotService } from './modules/spot/service.ts';
import type { Bus } from './platform/bus.ts';
import type { Clock } from './platform/clock.ts';
import type { WsGateway } from './platform/ws-gateway.ts';
import type { Check } from './readiness.ts';

export interface MarketsWarmUpDeps {
  spot: SpotService;
  perpetual: PerpService;
  bus: Bus;
  gateway: WsGateway;
  clock: Clock;
  /** Run the perpetual markets' pricing (mark, funding, liquidations); tests drive it by hand. */
  pricing: boolean;
  /** Starts what trades on the books (the market maker, the demo traders) once they are loaded. */
  thenStart?: () => void;
  onError: (error: unknown, what: string) => void;
}

/**
 * What a node loads before its markets run: every market's book rebuilt from its open orders
 * (spot, then perpetual; a year's store holds 100,000 resting orders, half a second of reading),
 * the spot market data `/ws` pushes, then the market makers. The server runs it once it listens,
 * so the first answer does not wait for it: meanwhile `/readyz` reports the markets warming, an
 * order or a depth asked of a market whose book is not loaded yet loads that book first (the
 * market's owner takes it up on demand, one load per market), and a `/ws` subscription to a
 * channel not registered yet waits for the warm-up. `buildApp` waits for it otherwise (tests, tools).
 */
export class MarketsWarmUp {
  readonly #deps: MarketsWarmUpDeps;
  #running: Promise<void> | undefined;
  #ended!: () => void;
  /** Settles once the warm-up has ended, loaded or not (whenever it is started). */
  readonly ended = new Promise<void>((resolve) => {
    this.#ended = resolve;
  });
  #check: Check;
  #marketData: SpotMarketData | undefined;
  #stopped = false;

  constructor(deps: MarketsWarmUpDeps) {
    this.#deps = deps;
    this.#check = {
      status: 'degraded',
      detail: 'warming: the books are not loaded yet',
      at: deps.clock.now(),
    };
    // why: from now, not from the start: the server listens before it starts the warm-up.
    deps.gateway.holdUnknownChannels(this.ended);
  }

  /** Loads everything once; settles when it is loaded (rejects when a part could not be). */
  start(): Promise<void> {
    if (!this.#running) {
      this.#running = this.#run();
      this.#running.then(this.#ended, this.#ended);
    }
    return this.#running;
  }

  /** What `/readyz` reports: warming, loaded, or the part that failed. */
  check(): Check {
    return this.#check;
  }

  /** Waits for a warm-up under way, then stops what it started (the markets stop apart). */
  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#running?.catch(() => {});
    await this.#marketData?.stop();
  }

  async #run(): Promise<void> {
    const { spot, perpetual, bus, gateway, clock, onError } = this.#deps;
    const started = performance.now();
    const step = async (what: string, work: () => Promise<void>) => {
      // why: requests that arrived meanwhile are answered before the next part begins.
      await yieldToLoop();
      if (this.#stopped) return;
      this.#check = { status: 'degraded', detail: `warming: ${what}`, at: clock.now() };
      try {
        await work();
      } catch (error) {
        this.#check = {
          status: 'down',
          detail: `${what} failed: ${(error as Error).message}`,
          at: clock.now(),
        };
        throw error;
      }
    };
    await step('loading the spot books', () => spot.start());
    await step('loading the perpetual books', () => perpetual.start({ pricing: this.#deps.pricing }));
    await step('reading the spot market data', async () => {
      this.#marketData = await startSpotMarketData({ service: spot, bus, gateway, onError });
    });
    if (this.#stopped) return;
    this.#deps.thenStart?.();
    const ms = Math.round(performance.now() - started);
    this.#check = { status: 'ok', detail: `every book loaded (in ${ms} ms)`, at: clock.now() };
  }
}
