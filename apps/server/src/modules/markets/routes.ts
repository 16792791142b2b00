import type { Ticker } from '@bourse/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok } from '../../platform/http.ts';
import type { PriceFeed } from './price-feed.ts';

const TickerSchema = z.object({
  symbol: z.string(),
  base: z.string(),
  quote: z.string(),
  price: z.string(),
  open24h: z.string(),
  high24h: z.string(),
  low24h: z.string(),
  change24h: z.string(),
  ts: z.number(),
  source: z.string(),
}) satisfies z.ZodType<Ticker>;

/** `/apiv/Market/*`: market list with index prices and 24h change. */
export async function marketsRoutes(app: FastifyInstance, options: { feed: PriceFeed }): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get('/Market/tickers', {
    schema: {
      tags: ['markets'],
      summary: 'Every market with its index price and 24h change',
      response: { 200: envelope(z.array(TickerSchema)) },
    },
    handler: async (request) => ok(request, options.feed.tickers()),
  });
}
