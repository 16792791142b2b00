import { z } from 'zod';
import { CONSTITUENT_DROP_REASONS } from './delivery.ts';
import { optionalText } from './fields.ts';

/**
 * The back office's index-sources contract (`/admin-api/index/*`): per market, every venue that
 * feeds its index, as this node sees it, and the venue symbol each one is followed under. Names
 * are camelCase like the rest of the back office; prices are decimal strings with 8 decimals.
 *
 * Paths (permission in brackets; `config.manage`: owner; `config.read`: owner, finance, compliance):
 * - GET  `/index/sources` [read] → `IndexSourcesPanel`
 * - POST `/index/sources/:symbol/mapping` [manage] `SetIndexMappingBody` → `IndexSourcesPanel`
 * A mapping change is one transaction with its audit record (before and after) and takes effect
 * on the feed at once.
 */

/** Where a venue's symbol for a market comes from: its base/quote, `INDEX_SYMBOL_MAP`, or staff. */
export const INDEX_MAPPING_ORIGINS = ['default', 'config', 'staff'] as const;

export const IndexSourceRow = z.object({
  venue: z.string(),
  /** The venue's symbol the market is followed under (ccxt's unified form); null: left out. */
  venueSymbol: z.string().nullable(),
  origin: z.enum(INDEX_MAPPING_ORIGINS),
  state: z.enum(['connecting', 'up', 'down']),
  transport: z.enum(['ws', 'rest']).nullable(),
  /** The venue's latest price and when it was quoted (null before the first). */
  price: z.string().nullable(),
  at: z.number().nullable(),
  /** now − at, in ms (null before the first price). */
  ageMs: z.number().nullable(),
  error: z.string().nullable(),
  /** Whether the latest aggregation used it, or why it was dropped (null: none yet). */
  used: z.boolean().nullable(),
  reason: z.enum(CONSTITUENT_DROP_REASONS).nullable(),
  /** The mapping's last change by staff (null: never changed). */
  updatedAt: z.number().nullable(),
  updatedBy: z.string().nullable(),
});
export type IndexSourceRow = z.infer<typeof IndexSourceRow>;

export const IndexSourceMarket = z.object({
  symbol: z.string(),
  base: z.string(),
  quote: z.string(),
  /** The latest recorded index tick of the market. */
  index: z.object({ price: z.string(), at: z.number(), source: z.string() }).nullable(),
  /** No tick within the staleness limit: new contracts are refused and settlements wait. */
  stale: z.boolean(),
  sources: z.array(IndexSourceRow),
});
export type IndexSourceMarket = z.infer<typeof IndexSourceMarket>;

export const IndexSourcesPanel = z.object({
  /** `simulated` (demo, no venues) or `venues`. */
  feed: z.string(),
  venues: z.array(z.string()),
  minSources: z.number().int(),
  outlierBps: z.number().int(),
  sourceStaleMs: z.number().int(),
  indexStaleMs: z.number().int(),
  now: z.number(),
  markets: z.array(IndexSourceMarket),
});
export type IndexSourcesPanel = z.infer<typeof IndexSourcesPanel>;

/**
 * POST `/index/sources/:symbol/mapping`: `use` `default` (the market's base/quote), `symbol`
 * (`venueSymbol`, e.g. `BTC/USD`: a USD pair only when set here explicitly) or `off`.
 */
export const SetIndexMappingBody = z
  .object({
    venue: z
      .string({ error: 'PARAM_MISSING' })
      .trim()
      .toLowerCase()
      .max(32, { error: 'INDEX_SOURCE_INVALID' }),
    use: z.enum(['default', 'symbol', 'off'], { error: 'PARAM_ERROR' }),
    venueSymbol: z.string().trim().toUpperCase().max(41, { error: 'INDEX_SYMBOL_INVALID' }).optional(),
    reason: optionalText('PARAM_ERROR', 500),
  })
  .refine((body) => body.use !== 'symbol' || (body.venueSymbol ?? '') !== '', {
    error: 'INDEX_SYMBOL_INVALID',
    // why: a form shows the problem under the venue symbol it is about.
    path: ['venueSymbol'],
  });
export type SetIndexMappingBody = z.input<typeof SetIndexMappingBody>;
