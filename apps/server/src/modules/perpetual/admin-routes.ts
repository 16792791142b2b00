import { toAtoms } from '@bourse/shared';
import {
  AdminAdlPage,
  AdminFundingPage,
  AdminInsurancePage,
  AdminLiquidationPage,
  AdminPerpHealth,
  AdminPerpMarket,
  AdminPerpMarketList,
  AdminPerpPageQuery,
  EditPerpMarketBody,
  FundInsuranceBody,
} from '@bourse/shared/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok, TokenQuery } from '../../platform/http.ts';
import { staffActorOf } from '../../platform/staff-actor.ts';
import type { PerpBackOffice } from './back-office.ts';

const SymbolParams = z.object({
  symbol: z
    .string()
    .transform((v) => v.toUpperCase())
    .refine((v) => /^[A-Z0-9]{2,24}$/.test(v), { error: 'MARKET_NOT_OPEN' }),
});
const PageQuery = AdminPerpPageQuery.extend(TokenQuery.shape);
const CHANGE_ERRORS = [
  'MARKET_NOT_OPEN',
  'MARKET_UNAVAILABLE',
  'BALANCE_INSUFFICIENT',
  'AMOUNT_INVALID',
  'ILLEGAL_OPERATION',
] as const;
const EDIT_ERRORS = [...CHANGE_ERRORS, 'MARK_CLAMP_INVALID'] as const;

/**
 * `/admin-api/perp/*`: perpetual markets with live figures, fee/band/mark clamp/status changes and
 * insurance top-ups (audited), the fund's history, liquidations, ADL, funding and the invariants.
 */
export async function perpAdminRoutes(
  app: FastifyInstance,
  options: { perp: PerpBackOffice },
): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['staff-perpetual'];
  const perp = options.perp;

  api.get('/perp/markets', {
    config: { staff: 'perp.read', errors: ['MARKET_NOT_OPEN'] },
    schema: {
      tags,
      operationId: 'adminListPerpMarkets',
      summary: 'Perpetual markets with their rules and live figures',
      querystring: TokenQuery,
      response: { 200: envelope(AdminPerpMarketList) },
    },
    handler: async (request) => ok(request, await perp.listMarkets()),
  });

  api.post('/perp/markets/:symbol', {
    config: { staff: 'perp.manage', errors: EDIT_ERRORS },
    schema: {
      tags,
      operationId: 'adminEditPerpMarket',
      summary: 'Change a market’s fees, band, mark clamp or status (audited)',
      params: SymbolParams,
      body: EditPerpMarketBody,
      response: { 200: envelope(AdminPerpMarket) },
    },
    handler: async (request) => {
      const b = request.body;
      const values = {
        makerRate: b.makerFee === undefined ? undefined : toAtoms(b.makerFee),
        takerRate: b.takerFee === undefined ? undefined : toAtoms(b.takerFee),
        bandRate: b.band === undefined ? undefined : toAtoms(b.band),
        markClamp: b.markClamp === undefined ? undefined : toAtoms(b.markClamp),
        status: b.status,
      };
      return ok(
        request,
        await perp.editMarket(staffActorOf(request), request.params.symbol, values, b.reason),
      );
    },
  });

  api.post('/perp/markets/:symbol/insurance', {
    config: { staff: 'perp.manage', errors: CHANGE_ERRORS },
    schema: {
      tags,
      operationId: 'adminFundPerpInsurance',
      summary: 'Move treasury USDT into a market’s insurance fund (audited)',
      params: SymbolParams,
      body: FundInsuranceBody,
      response: { 200: envelope(AdminPerpMarket) },
    },
    handler: async (request) =>
      ok(
        request,
        await perp.fundInsurance(
          staffActorOf(request),
          request.params.symbol,
          toAtoms(request.body.amount),
          request.body.reason,
        ),
      ),
  });

  api.get('/perp/insurance', {
    config: { staff: 'perp.read' },
    schema: {
      tags,
      operationId: 'adminListPerpInsurance',
      summary: 'Every movement of the insurance funds, newest first',
      querystring: PageQuery,
      response: { 200: envelope(AdminInsurancePage) },
    },
    handler: async (request) =>
      ok(request, await perp.insurance(request.query.symbol || undefined, request.query.page)),
  });

  api.get('/perp/liquidations', {
    config: { staff: 'perp.read' },
    schema: {
      tags,
      operationId: 'adminListPerpLiquidations',
      summary: 'Liquidations (takeovers at the bankruptcy price), newest first',
      querystring: PageQuery,
      response: { 200: envelope(AdminLiquidationPage) },
    },
    handler: async (request) =>
      ok(request, await perp.liquidations(request.query.symbol || undefined, request.query.page)),
  });

  api.get('/perp/adl', {
    config: { staff: 'perp.read' },
    schema: {
      tags,
      operationId: 'adminListPerpAdl',
      summary: 'Auto-deleveraging events, newest first',
      querystring: PageQuery,
      response: { 200: envelope(AdminAdlPage) },
    },
    handler: async (request) =>
      ok(request, await perp.adl(request.query.symbol || undefined, request.query.page)),
  });

  api.get('/perp/funding', {
    config: { staff: 'perp.read' },
    schema: {
      tags,
      operationId: 'adminListPerpFunding',
      summary: 'Funding events with what was paid, received and kept',
      querystring: PageQuery,
      response: { 200: envelope(AdminFundingPage) },
    },
    handler: async (request) =>
      ok(request, await perp.funding(request.query.symbol || undefined, request.query.page)),
  });

  api.get('/perp/health', {
    config: { staff: 'perp.read' },
    schema: {
      tags,
      operationId: 'adminPerpHealth',
      summary: 'The five invariants of every perpetual market, checked now',
      querystring: TokenQuery,
      response: { 200: envelope(AdminPerpHealth) },
    },
    handler: async (request) => ok(request, await perp.health()),
  });
}
