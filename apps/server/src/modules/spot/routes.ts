import { parseAmount } from '@bourse/shared';
import {
  CancelAllBody,
  CancelAllResult,
  CancelOrderBody,
  DepthQuery,
  DepthSnapshot,
  MyTradePage,
  MyTradesQuery,
  OpenOrdersQuery,
  OrderHistoryQuery,
  OrderQuery,
  PlaceOrderBody,
  PublicTradeList,
  RecentTradesQuery,
  SpotMarketList,
  SpotOrder,
  SpotOrderDetail,
  SpotOrderList,
  SpotOrderPage,
  SpotTickerList,
  TradeCandleList,
  TradeKlineQuery,
} from '@bourse/shared/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireAuth } from '../../platform/auth-hook.ts';
import { historyPage } from '../../platform/history-page.ts';
import { envelope, ok } from '../../platform/http.ts';
import {
  CANCEL_ALL_ERRORS,
  CANCEL_ERRORS,
  CANDLES_ERRORS,
  DEPTH_ERRORS,
  MY_TRADES_ERRORS,
  OPEN_ORDERS_ERRORS,
  ORDER_DETAIL_ERRORS,
  ORDER_HISTORY_ERRORS,
  PLACE_ERRORS,
  RECENT_TRADES_ERRORS,
  type SpotService,
  TICKERS_ERRORS,
} from './service.ts';

const optionalAmount = (value: string | undefined) => (value === undefined ? undefined : parseAmount(value));

/** Spot trading's customer API (`/Trade/*`) and public market data (`/Market/*`). */
export async function spotRoutes(app: FastifyInstance, options: { spot: SpotService }): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { spot } = options;
  const tags = ['spot'];
  const config = { auth: true };

  api.post('/Trade/place', {
    schema: {
      tags,
      operationId: 'placeSpotOrder',
      summary:
        'Place a limit (gtc, ioc, fok, post-only), market, stop-limit, stop-market or take-profit order; funds are held at acceptance; idempotent by key',
      body: PlaceOrderBody,
      response: { 200: envelope(SpotOrder) },
    },
    config: {
      ...config,
      errors: PLACE_ERRORS,
    },
    handler: async (request) => {
      const body = request.body;
      const order = await spot.place(requireAuth(request), {
        symbol: body.symbol,
        side: body.side,
        type: body.type,
        tif: body.tif,
        price: optionalAmount(body.price),
        qty: optionalAmount(body.qty),
        quoteAmount: optionalAmount(body.quote_amount),
        triggerPrice: optionalAmount(body.trigger_price),
        idempotencyKey: body.idempotency_key,
      });
      return ok(request, order, 'ORDER_PLACED');
    },
  });

  api.post('/Trade/cancel', {
    schema: {
      tags,
      operationId: 'cancelSpotOrder',
      summary: 'Cancel one of the caller’s open orders; what it still held is released',
      body: CancelOrderBody,
      response: { 200: envelope(SpotOrder) },
    },
    config: {
      ...config,
      errors: CANCEL_ERRORS,
    },
    handler: async (request) => {
      const order = await spot.cancel(requireAuth(request).userId, BigInt(request.body.id));
      return ok(request, order, 'ORDER_CANCELLED');
    },
  });

  api.post('/Trade/cancelall', {
    schema: {
      tags,
      operationId: 'cancelAllSpotOrders',
      summary: 'Cancel every open order of the caller, on one market or all',
      body: CancelAllBody,
      response: { 200: envelope(CancelAllResult) },
    },
    config: { ...config, errors: CANCEL_ALL_ERRORS },
    handler: async (request) =>
      ok(request, await spot.cancelAll(requireAuth(request).userId, request.body.symbol), 'ORDER_CANCELLED'),
  });

  api.get('/Trade/openorders', {
    schema: {
      tags,
      operationId: 'listOpenSpotOrders',
      summary: 'The caller’s open orders, newest first',
      querystring: OpenOrdersQuery,
      response: { 200: envelope(SpotOrderList) },
    },
    config: { ...config, errors: OPEN_ORDERS_ERRORS },
    handler: async (request) =>
      ok(request, await spot.openOrders(requireAuth(request).userId, request.query.symbol)),
  });

  api.get('/Trade/tradebill', {
    schema: {
      tags,
      operationId: 'listSpotOrders',
      summary: 'The caller’s orders, newest first, 20 a page, optionally by status',
      querystring: OrderHistoryQuery,
      response: { 200: envelope(SpotOrderPage) },
    },
    config: { ...config, errors: ORDER_HISTORY_ERRORS },
    handler: async (request) =>
      ok(
        request,
        await spot.orderHistory(requireAuth(request).userId, {
          symbol: request.query.symbol,
          status: request.query.status,
          ...historyPage(request.query),
        }),
      ),
  });

  api.get('/Trade/billinfo', {
    schema: {
      tags,
      operationId: 'getSpotOrder',
      summary: 'One of the caller’s orders with its fills',
      querystring: OrderQuery,
      response: { 200: envelope(SpotOrderDetail) },
    },
    config: { ...config, errors: ORDER_DETAIL_ERRORS },
    handler: async (request) =>
      ok(request, await spot.orderDetail(requireAuth(request).userId, BigInt(request.query.id))),
  });

  api.get('/Trade/mytrades', {
    schema: {
      tags,
      operationId: 'listMySpotTrades',
      summary: 'The caller’s fills, newest first, 20 a page',
      querystring: MyTradesQuery,
      response: { 200: envelope(MyTradePage) },
    },
    config: { ...config, errors: MY_TRADES_ERRORS },
    handler: async (request) =>
      ok(
        request,
        await spot.myTrades(requireAuth(request).userId, {
          symbol: request.query.symbol,
          ...historyPage(request.query),
        }),
      ),
  });

  api.get('/Market/spot', {
    schema: {
      tags,
      operationId: 'listSpotMarkets',
      summary: 'Spot markets: coins, tick and lot sizes, minimum notional, fees, status',
      response: { 200: envelope(SpotMarketList) },
    },
    handler: async (request) => ok(request, await spot.markets()),
  });

  api.get('/Market/spottickers', {
    schema: {
      tags,
      operationId: 'listSpotTickers',
      summary: '24-hour statistics of every spot market from its own trades, with the index',
      response: { 200: envelope(SpotTickerList) },
    },
    config: { errors: TICKERS_ERRORS },
    handler: async (request) => ok(request, await spot.tickers()),
  });

  api.get('/Market/depth', {
    schema: {
      tags,
      operationId: 'getSpotDepth',
      summary: 'The order book: price levels with total quantity, best first, and its sequence',
      querystring: DepthQuery,
      response: { 200: envelope(DepthSnapshot) },
    },
    config: { errors: DEPTH_ERRORS },
    handler: async (request) => ok(request, await spot.depth(request.query.symbol, request.query.levels)),
  });

  api.get('/Market/trades', {
    schema: {
      tags,
      operationId: 'listSpotTrades',
      summary: 'The market’s latest trades, newest first; side is the taker’s',
      querystring: RecentTradesQuery,
      response: { 200: envelope(PublicTradeList) },
    },
    config: { errors: RECENT_TRADES_ERRORS },
    handler: async (request) =>
      ok(request, await spot.recentTrades(request.query.symbol, request.query.limit)),
  });

  api.get('/Market/candles', {
    schema: {
      tags,
      operationId: 'listSpotCandles',
      summary: 'Candles of the market’s own trades, oldest first, ending before `before`',
      querystring: TradeKlineQuery,
      response: { 200: envelope(TradeCandleList) },
    },
    config: { errors: CANDLES_ERRORS },
    handler: async (request) => ok(request, await spot.candles(request.query)),
  });
}
