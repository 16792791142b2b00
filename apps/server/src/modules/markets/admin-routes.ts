import { IndexSourcesPanel, SetIndexMappingBody } from '@bourse/shared/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok, TokenQuery } from '../../platform/http.ts';
import { staffActorOf } from '../../platform/staff-actor.ts';
import { type IndexSourcesBackOffice, SET_MAPPING_ERRORS } from './back-office.ts';

const SymbolParams = z.object({
  symbol: z
    .string()
    .transform((v) => v.toUpperCase())
    .refine((v) => /^[A-Z0-9]{2,24}$/.test(v), { error: 'MARKET_NOT_OPEN' }),
});

/**
 * `/admin-api/index/*`: the index's sources per market (state, last price, age, transport, why
 * the latest tick dropped it) and each venue's symbol for a market, set by the owner (audited).
 */
export async function indexSourcesAdminRoutes(
  app: FastifyInstance,
  options: { indexSources: IndexSourcesBackOffice },
): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['staff-index'];
  const sources = options.indexSources;

  api.get('/index/sources', {
    config: { staff: 'config.read' },
    schema: {
      tags,
      operationId: 'adminListIndexSources',
      summary: 'Every market’s index sources: state, last price, age, transport, drop reason, mapping',
      querystring: TokenQuery,
      response: { 200: envelope(IndexSourcesPanel) },
    },
    handler: async (request) => ok(request, await sources.panel()),
  });

  api.post('/index/sources/:symbol/mapping', {
    config: {
      staff: 'config.manage',
      errors: SET_MAPPING_ERRORS,
    },
    schema: {
      tags,
      operationId: 'adminSetIndexMapping',
      summary: 'Set the symbol a venue is followed under for a market: default, a symbol, or off (audited)',
      params: SymbolParams,
      body: SetIndexMappingBody,
      response: { 200: envelope(IndexSourcesPanel) },
    },
    handler: async (request) => {
      const { venue, use, venueSymbol, reason } = request.body;
      await sources.setMapping(staffActorOf(request), {
        symbol: request.params.symbol,
        venue,
        use,
        venueSymbol,
        reason,
      });
      return ok(request, await sources.panel());
    },
  });
}
