import type { Ticker } from '@bourse/shared';
import { TickerSchema } from '@bourse/shared/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok } from '../../platform/http.ts';

/** `/apiv/Market/*`: market list with index prices and 24h change. */
export async function marketsRoutes(
  app: FastifyInstance,
  options: { tickers: () => Ticker[] },
): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get('/Market/tickers', {
    schema: {
      tags: ['markets'],
      summary: 'Every market with its index price and 24h change',
      response: { 200: envelope(z.array(TickerSchema)) },
    },
    handler: async (request) => ok(request, options.tickers()),
  });
}
