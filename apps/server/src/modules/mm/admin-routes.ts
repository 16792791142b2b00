import { toAtoms } from '@bourse/shared';
import { AdminMakerOverview, DemoTradersBody, MakerSettingsBody } from '@bourse/shared/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok, TokenQuery } from '../../platform/http.ts';
import { staffActorOf } from '../../platform/staff-actor.ts';
import { type MakerBackOffice, SAVE_MARKET_ERRORS } from './back-office.ts';

const SymbolParams = z.object({
  symbol: z
    .string()
    .transform((v) => v.toUpperCase())
    .refine((v) => /^[A-Z0-9]{2,24}$/.test(v), { error: 'MARKET_NOT_OPEN' }),
});

/**
 * `/admin-api/spot/market-maker*` and `/admin-api/spot/demo-traders`: the market maker's settings
 * per market and the demo traders' switch (audited). Under the spot pages, since staff tune them
 * with the markets.
 */
export async function makerAdminRoutes(
  app: FastifyInstance,
  options: { maker: MakerBackOffice },
): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['staff-spot'];
  const { maker } = options;

  api.get('/spot/market-maker', {
    config: { staff: 'spot.read' },
    schema: {
      tags,
      operationId: 'adminGetMarketMaker',
      summary: 'The market maker’s settings per market and the demo traders’ switch',
      querystring: TokenQuery,
      response: { 200: envelope(AdminMakerOverview) },
    },
    handler: async (request) => ok(request, await maker.overview()),
  });

  api.post('/spot/market-maker/:symbol', {
    config: { staff: 'spot.manage', errors: SAVE_MARKET_ERRORS },
    schema: {
      tags,
      operationId: 'adminSaveMarketMaker',
      summary: 'Save how the market maker quotes a market (audited)',
      params: SymbolParams,
      body: MakerSettingsBody,
      response: { 200: envelope(AdminMakerOverview) },
    },
    handler: async (request) => {
      const body = request.body;
      const overview = await maker.saveMarket(staffActorOf(request), {
        symbol: request.params.symbol,
        enabled: body.enabled,
        levels: body.levels,
        spread: toAtoms(body.spread),
        step: toAtoms(body.step),
        levelQty: toAtoms(body.levelQty),
        inventoryTarget: toAtoms(body.inventoryTarget),
        maxInventoryDeviation: toAtoms(body.maxInventoryDeviation),
      });
      return ok(request, overview);
    },
  });

  api.post('/spot/demo-traders', {
    config: { staff: 'spot.manage' },
    schema: {
      tags,
      operationId: 'adminSetDemoTraders',
      summary: 'Switch the demo traders on or off (audited)',
      body: DemoTradersBody,
      response: { 200: envelope(AdminMakerOverview) },
    },
    handler: async (request) =>
      ok(request, await maker.setDemoTraders(staffActorOf(request), request.body.on)),
  });
}
