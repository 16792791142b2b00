import type { Clock } from '../../platform/clock.ts';
import { IndexAggregator, type IndexAggregatorOptions } from './index-price.ts';
import { SimulatedPriceFeed } from './price-feed.ts';
import { type VenueLog, VenuePriceFeed } from './venue-feed.ts';
import { VenueIndexFeed } from './venue-index-feed.ts';

/**
 * The index's feed: with venues configured, the median of real venues; without, the demo's
 * simulated walk (refused in production by the config), random from node:crypto at each start.
 */
export function createPriceFeed(options: {
  sources: IndexAggregatorOptions & { venues: readonly string[]; urls?: Readonly<Record<string, string>> };
  /** Tests only: a seed replays the same simulated walk. */
  seed?: number;
  intervalMs: number;
  clock: Clock;
  log: VenueLog;
}): VenueIndexFeed | SimulatedPriceFeed {
  const { sources, clock } = options;
  if (sources.venues.length === 0) {
    return new SimulatedPriceFeed({ seed: options.seed, intervalMs: options.intervalMs, clock });
  }
  return new VenueIndexFeed({
    venues: new VenuePriceFeed({ venues: sources.venues, urls: sources.urls, clock, log: options.log }),
    aggregator: new IndexAggregator({
      staleMs: sources.staleMs,
      outlierBps: sources.outlierBps,
      minSources: sources.minSources,
    }),
    clock,
  });
}
