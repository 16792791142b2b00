import { parseAmount, type ResultKey } from '@bourse/shared';
import {
  PerpAccount,
  PerpCancelBody,
  PerpDepth,
  PerpDepthQuery,
  PerpFundingPage,
  PerpFundingRatePage,
  PerpHistoryQuery,
  PerpLeverageBody,
  PerpLiquidationPage,
  PerpMarginBody,
  PerpMarketList,
  PerpOrder,
  PerpOrderDetail,
  PerpOrderHistoryQuery,
  PerpOrderList,
  PerpOrderPage,
  PerpOrderQuery,
  PerpPlaceBody,
  PerpPublicTradeList,
  PerpRatesQuery,
  PerpSymbolBody,
  PerpSymbolQuery,
  PerpTicker,
  PerpTpslBody,
} from '@bourse/shared/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireAuth } from '../../platform/auth-hook.ts';
import { historyPage } from '../../platform/history-page.ts';
import { envelope, ok } from '../../platform/http.ts';
import type { PerpService } from './service.ts';

/** What order entry can answer: the gates, the market, the clearing's refusals (perpetual.md). */
const GATES = [
  'PLATFORM_HALTED',
  'PLEASE_LOGIN',
  'TRADING_BANNED',
  'REALNAME_REQUIRED',
  'TERMS_NOT_ACCEPTED',
] as const;
// why: every command goes through the market's batch, whose ledger entry refuses a balance below zero.
const MARKET = ['MARKET_NOT_OPEN', 'MARKET_UNAVAILABLE', 'BALANCE_INSUFFICIENT'] as const;
export const PERP_PLACE_ERRORS = [
  ...GATES,
  ...MARKET,
  'PRICE_INVALID',
  'QTY_INVALID',
  'AMOUNT_INVALID',
  'PRICE_OUT_OF_BAND',
  'TRIGGER_PRICE_INVALID',
  'TRIGGER_WOULD_FIRE',
  'REDUCE_ONLY_REJECTED',
  'REDUCE_ONLY_EXCEEDS_POSITION',
  'PRICE_PAST_BANKRUPTCY',
  'REDUCE_ONLY_WHILE_FROZEN',
  'RISK_LIMIT_EXCEEDED',
  'MARK_UNAVAILABLE',
  'BALANCE_INSUFFICIENT',
  'SESSION_INVALID',
  'ILLEGAL_OPERATION',
  'IDEMPOTENCY_KEY_REUSED',
] as const satisfies readonly ResultKey[];
const CANCEL_ERRORS = [
  'ORDER_NOT_FOUND',
  'ORDER_ALREADY_REVOKED',
  'CANCEL_FAILED',
  ...MARKET,
  'ILLEGAL_OPERATION',
] as const satisfies readonly ResultKey[];
const LEVERAGE_ERRORS = [
  'LEVERAGE_INVALID',
  'LEVERAGE_LOCKED',
  ...MARKET,
  'ILLEGAL_OPERATION',
] as const satisfies readonly ResultKey[];
const STOPS_ERRORS = [
  ...GATES,
  ...MARKET,
  'POSITION_NOT_FOUND',
  'AMOUNT_INVALID',
  'TRIGGER_PRICE_INVALID',
  'TRIGGER_WOULD_FIRE',
  'REDUCE_ONLY_REJECTED',
  'MARK_UNAVAILABLE',
  'ILLEGAL_OPERATION',
] as const satisfies readonly ResultKey[];
const MARGIN_ERRORS = [
  'PLATFORM_HALTED',
  ...MARKET,
  'POSITION_NOT_FOUND',
  'AMOUNT_INVALID',
  'BALANCE_INSUFFICIENT',
  'MARGIN_REMOVAL_DENIED',
  'MARK_UNAVAILABLE',
  'ILLEGAL_OPERATION',
  'IDEMPOTENCY_KEY_REUSED',
] as const satisfies readonly ResultKey[];

/** Perpetual contracts' customer API (`/Perp/*`), contract in `@bourse/shared/api` perpetual.ts. */
export async function perpRoutes(app: FastifyInstance, options: { perp: PerpService }): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { perp } = options;
  const tags = ['perpetual'];
  const auth = { auth: true };

  api.get('/Perp/markets', {
    schema: {
      tags,
      operationId: 'listPerpMarkets',
      summary: 'The perpetual markets and their rules',
      response: { 200: envelope(PerpMarketList) },
    },
    handler: async (request) => ok(request, await perp.markets()),
  });

  api.get('/Perp/ticker', {
    schema: {
      tags,
      operationId: 'getPerpTicker',
      summary: 'Mark, index, last, funding estimate and next funding time',
      querystring: PerpSymbolQuery,
      response: { 200: envelope(PerpTicker) },
    },
    config: { errors: ['MARKET_NOT_OPEN'] },
    handler: async (request) => ok(request, await perp.ticker(request.query.symbol)),
  });

  api.get('/Perp/depth', {
    schema: {
      tags,
      operationId: 'getPerpDepth',
      summary: 'The order book, best levels first',
      querystring: PerpDepthQuery,
      response: { 200: envelope(PerpDepth) },
    },
    config: { errors: [...MARKET] },
    handler: async (request) => ok(request, await perp.depth(request.query.symbol, request.query.levels)),
  });

  api.get('/Perp/trades', {
    schema: {
      tags,
      operationId: 'listPerpTrades',
      summary: 'The market’s latest trades, newest first',
      querystring: PerpSymbolQuery,
      response: { 200: envelope(PerpPublicTradeList) },
    },
    config: { errors: ['MARKET_NOT_OPEN'] },
    handler: async (request) => ok(request, await perp.trades(request.query.symbol)),
  });

  api.get('/Perp/rates', {
    schema: {
      tags,
      operationId: 'listPerpFundingRates',
      summary: 'The market’s funding events, newest first',
      querystring: PerpRatesQuery,
      response: { 200: envelope(PerpFundingRatePage) },
    },
    config: { errors: ['MARKET_NOT_OPEN'] },
    handler: async (request) =>
      ok(request, await perp.rates(request.query.symbol, historyPage(request.query))),
  });

  api.get('/Perp/account', {
    schema: {
      tags,
      operationId: 'getPerpAccount',
      summary: 'The caller’s leverage, available USDT, position and open orders in a market',
      querystring: PerpSymbolQuery,
      response: { 200: envelope(PerpAccount) },
    },
    config: { ...auth, errors: ['MARKET_NOT_OPEN'] },
    handler: async (request) =>
      ok(request, await perp.account(requireAuth(request).userId, request.query.symbol)),
  });

  api.post('/Perp/leverage', {
    schema: {
      tags,
      operationId: 'setPerpLeverage',
      summary: 'Choose the leverage (1–5x) while no position or order is open',
      body: PerpLeverageBody,
      response: { 200: envelope(PerpAccount) },
    },
    config: { ...auth, errors: LEVERAGE_ERRORS },
    handler: async (request) =>
      ok(request, await perp.setLeverage(requireAuth(request), request.body.symbol, request.body.leverage)),
  });

  api.post('/Perp/place', {
    schema: {
      tags,
      operationId: 'placePerpOrder',
      summary:
        'Place a limit, market, stop or take-profit order; a flip answers its close and open orders; idempotent by key',
      body: PerpPlaceBody,
      response: { 200: envelope(PerpOrderList) },
    },
    config: { ...auth, errors: PERP_PLACE_ERRORS },
    handler: async (request) => {
      const b = request.body;
      const orders = await perp.place(requireAuth(request), {
        symbol: b.symbol,
        side: b.side,
        type: b.type,
        price: b.price === undefined ? undefined : parseAmount(b.price),
        qty: b.qty === undefined ? undefined : parseAmount(b.qty),
        triggerPrice: b.trigger_price === undefined ? undefined : parseAmount(b.trigger_price),
        triggerRef: b.trigger_ref,
        priceProtect: b.price_protect,
        reduceOnly: b.reduce_only,
        closePosition: b.close_position,
        postOnly: b.post_only,
        idempotencyKey: b.idempotency_key,
      });
      return ok(request, orders, 'ORDER_PLACED');
    },
  });

  api.post('/Perp/cancel', {
    schema: {
      tags,
      operationId: 'cancelPerpOrder',
      summary: 'Cancel an open order or a waiting trigger; its hold is released',
      body: PerpCancelBody,
      response: { 200: envelope(PerpOrder) },
    },
    config: { ...auth, errors: CANCEL_ERRORS },
    handler: async (request) =>
      ok(request, await perp.cancel(requireAuth(request).userId, BigInt(request.body.id)), 'ORDER_CANCELLED'),
  });

  api.post('/Perp/close', {
    schema: {
      tags,
      operationId: 'closePerpPosition',
      summary: 'Close the whole position at market (reduce-only, up to the band)',
      body: PerpSymbolBody,
      response: { 200: envelope(PerpOrderList) },
    },
    config: { ...auth, errors: [...PERP_PLACE_ERRORS, 'POSITION_NOT_FOUND'] },
    handler: async (request) =>
      ok(
        request,
        await perp.close(requireAuth(request), request.body.symbol, request.body.idempotency_key),
        'ORDER_PLACED',
      ),
  });

  api.post('/Perp/tpsl', {
    schema: {
      tags,
      operationId: 'setPerpStops',
      summary: 'Set the position’s stop-loss and take-profit (one cancels the other)',
      body: PerpTpslBody,
      response: { 200: envelope(PerpOrderList) },
    },
    config: { ...auth, errors: STOPS_ERRORS },
    handler: async (request) => {
      const b = request.body;
      const orders = await perp.attachStops(requireAuth(request), b.symbol, {
        stopLoss: b.stop_loss === undefined ? undefined : parseAmount(b.stop_loss),
        takeProfit: b.take_profit === undefined ? undefined : parseAmount(b.take_profit),
        ref: b.trigger_ref,
      });
      return ok(request, orders);
    },
  });

  api.post('/Perp/margin', {
    schema: {
      tags,
      operationId: 'changePerpMargin',
      summary: 'Add margin from available USDT, or remove it while the position stays safe',
      body: PerpMarginBody,
      response: { 200: envelope(PerpAccount) },
    },
    config: { ...auth, errors: MARGIN_ERRORS },
    handler: async (request) => {
      const b = request.body;
      return ok(
        request,
        await perp.margin(
          requireAuth(request),
          b.symbol,
          b.direction,
          parseAmount(b.amount),
          b.idempotency_key,
        ),
      );
    },
  });

  api.get('/Perp/orders', {
    schema: {
      tags,
      operationId: 'listPerpOrders',
      summary: 'The caller’s orders, newest first, 20 a page',
      querystring: PerpOrderHistoryQuery,
      response: { 200: envelope(PerpOrderPage) },
    },
    config: { ...auth, errors: ['MARKET_NOT_OPEN'] },
    handler: async (request) => {
      const q = request.query;
      return ok(
        request,
        await perp.orders(
          requireAuth(request).userId,
          { symbol: q.symbol, status: q.status },
          historyPage(q),
        ),
      );
    },
  });

  api.get('/Perp/order', {
    schema: {
      tags,
      operationId: 'getPerpOrder',
      summary: 'One of the caller’s orders with its fills',
      querystring: PerpOrderQuery,
      response: { 200: envelope(PerpOrderDetail) },
    },
    config: { ...auth, errors: ['ORDER_NOT_FOUND'] },
    handler: async (request) =>
      ok(request, await perp.order(requireAuth(request).userId, BigInt(request.query.id))),
  });

  api.get('/Perp/funding', {
    schema: {
      tags,
      operationId: 'listPerpFundingPayments',
      summary: 'The caller’s funding payments, newest first',
      querystring: PerpHistoryQuery,
      response: { 200: envelope(PerpFundingPage) },
    },
    config: { ...auth, errors: ['MARKET_NOT_OPEN'] },
    handler: async (request) =>
      ok(
        request,
        await perp.funding(requireAuth(request).userId, request.query.symbol, historyPage(request.query)),
      ),
  });

  api.get('/Perp/liquidations', {
    schema: {
      tags,
      operationId: 'listPerpLiquidations',
      summary: 'The caller’s liquidations and auto-deleveraging, newest first',
      querystring: PerpHistoryQuery,
      response: { 200: envelope(PerpLiquidationPage) },
    },
    config: { ...auth, errors: ['MARKET_NOT_OPEN'] },
    handler: async (request) =>
      ok(
        request,
        await perp.liquidations(
          requireAuth(request).userId,
          request.query.symbol,
          historyPage(request.query),
        ),
      ),
  });
}
