import { toAtoms } from '@bourse/shared';
import {
  AdminSpotBookQuery,
  AdminSpotMarket,
  AdminSpotMarketList,
  AdminSpotOrderList,
  AdminSpotOrderQuery,
  CreateSpotMarketBody,
  DepthSnapshot,
  EditSpotMarketBody,
  PublicTradeList,
  SpotHaltResult,
  SpotMarketStatusBody,
} from '@bourse/shared/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok, TokenQuery } from '../../platform/http.ts';
import { staffActorOf } from '../../platform/staff-actor.ts';
import {
  BOOK_ERRORS,
  CREATE_MARKET_ERRORS,
  EDIT_MARKET_ERRORS,
  HALT_ERRORS,
  RESUME_ERRORS,
  type SpotBackOffice,
  type SpotMarketInput,
  TRADES_ERRORS,
} from './back-office.ts';

const SymbolParams = z.object({
  symbol: z
    .string()
    .transform((v) => v.toUpperCase())
    .refine((v) => /^[A-Z0-9]{2,24}$/.test(v), { error: 'MARKET_NOT_OPEN' }),
});

function inputOf(body: z.output<typeof EditSpotMarketBody>): SpotMarketInput {
  return {
    tickSize: toAtoms(body.tickSize),
    lotSize: toAtoms(body.lotSize),
    minNotional: toAtoms(body.minNotional),
    makerFee: toAtoms(body.makerFee),
    takerFee: toAtoms(body.takerFee),
    band: toAtoms(body.band),
  };
}

/**
 * `/admin-api/spot/*`: spot markets (create, edit, halt, resume; all audited), a market's book and
 * recent trades and a user's orders.
 */
export async function spotAdminRoutes(
  app: FastifyInstance,
  options: { spot: SpotBackOffice },
): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['staff-spot'];
  const spot = options.spot;

  api.get('/spot/markets', {
    config: { staff: 'spot.read' },
    schema: {
      tags,
      operationId: 'adminListSpotMarkets',
      summary: 'Spot markets with their settings, status and open orders',
      querystring: TokenQuery,
      response: { 200: envelope(AdminSpotMarketList) },
    },
    handler: async (request) => ok(request, await spot.listMarkets()),
  });

  api.post('/spot/markets', {
    config: { staff: 'spot.manage', errors: CREATE_MARKET_ERRORS },
    schema: {
      tags,
      operationId: 'adminCreateSpotMarket',
      summary: 'Add a spot market for a listed market (audited)',
      body: CreateSpotMarketBody,
      response: { 200: envelope(AdminSpotMarket) },
    },
    handler: async (request) => {
      const body = request.body;
      const market = await spot.createMarket(staffActorOf(request), {
        ...inputOf(body),
        symbol: body.symbol,
        status: body.status,
      });
      return ok(request, market);
    },
  });

  api.post('/spot/markets/:symbol', {
    config: {
      staff: 'spot.manage',
      errors: EDIT_MARKET_ERRORS,
    },
    schema: {
      tags,
      operationId: 'adminEditSpotMarket',
      summary: 'Replace a market’s settings (audited); steps only while no order is open',
      params: SymbolParams,
      body: EditSpotMarketBody,
      response: { 200: envelope(AdminSpotMarket) },
    },
    handler: async (request) => {
      const staff = staffActorOf(request);
      return ok(request, await spot.editMarket(staff, request.params.symbol, inputOf(request.body)));
    },
  });

  api.post('/spot/markets/:symbol/halt', {
    config: {
      staff: 'spot.manage',
      errors: HALT_ERRORS,
    },
    schema: {
      tags,
      operationId: 'adminHaltSpotMarket',
      summary: 'Halt a market: new orders are refused and every open order is revoked (audited)',
      params: SymbolParams,
      body: SpotMarketStatusBody,
      response: { 200: envelope(SpotHaltResult) },
    },
    handler: async (request) => {
      const staff = staffActorOf(request);
      return ok(request, await spot.halt(staff, request.params.symbol, request.body.reason));
    },
  });

  api.post('/spot/markets/:symbol/resume', {
    config: {
      staff: 'spot.manage',
      errors: RESUME_ERRORS,
    },
    schema: {
      tags,
      operationId: 'adminResumeSpotMarket',
      summary: 'Open a halted market again (audited)',
      params: SymbolParams,
      body: SpotMarketStatusBody,
      response: { 200: envelope(AdminSpotMarket) },
    },
    handler: async (request) => {
      const staff = staffActorOf(request);
      return ok(request, await spot.resume(staff, request.params.symbol, request.body.reason));
    },
  });

  api.get('/spot/markets/:symbol/book', {
    config: { staff: 'spot.read', errors: BOOK_ERRORS },
    schema: {
      tags,
      operationId: 'adminGetSpotBook',
      summary: 'A market’s live book: price levels with their total quantity, best first',
      params: SymbolParams,
      querystring: AdminSpotBookQuery,
      response: { 200: envelope(DepthSnapshot) },
    },
    handler: async (request) => ok(request, await spot.book(request.params.symbol, request.query.limit)),
  });

  api.get('/spot/markets/:symbol/trades', {
    config: { staff: 'spot.read', errors: TRADES_ERRORS },
    schema: {
      tags,
      operationId: 'adminListSpotTrades',
      summary: 'A market’s recent trades, newest first',
      params: SymbolParams,
      querystring: AdminSpotBookQuery,
      response: { 200: envelope(PublicTradeList) },
    },
    handler: async (request) => ok(request, await spot.trades(request.params.symbol, request.query.limit)),
  });

  api.get('/spot/orders', {
    config: { staff: 'spot.read' },
    schema: {
      tags,
      operationId: 'adminListSpotOrders',
      summary: 'One user’s spot orders, newest first, with what each still holds',
      querystring: AdminSpotOrderQuery,
      response: { 200: envelope(AdminSpotOrderList) },
    },
    handler: async (request) => {
      const { userId, symbol, status, page } = request.query;
      return ok(request, await spot.userOrders({ userId: BigInt(userId), symbol, status, page }));
    },
  });
}
