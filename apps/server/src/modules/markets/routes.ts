import type { Ticker } from '@bourse/shared';
import { IndexHistory, IndexHistoryQuery, KlineList, KlineQuery, TickerSchema } from '@bourse/shared/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Clock } from '../../platform/clock.ts';
import { envelope, ok } from '../../platform/http.ts';
import { INDEX_HISTORY_ERRORS, KLINES_ERRORS, type MarketsService } from './service.ts';
import { toIndexCandle, toIndexTick } from './wire.ts';

/** `/apiv/Market/*`: market list with index prices and 24h change, and the index's history. */
export async function marketsRoutes(
  app: FastifyInstance,
  options: { tickers: () => Ticker[]; service: MarketsService; clock: Clock },
): Promise<void> {
  const { service, clock } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get('/Market/tickers', {
    schema: {
      tags: ['markets'],
      operationId: 'listTickers',
      summary: 'Every market with its index price and 24h change',
      response: { 200: envelope(z.array(TickerSchema)) },
    },
    handler: async (request) => ok(request, options.tickers()),
  });

  api.get('/Market/index', {
    schema: {
      tags: ['markets'],
      operationId: 'getIndexHistory',
      summary: 'Recorded index ticks of a market in [from, to], oldest first',
      description:
        'Defaults: `to` now, `from` ten minutes before `to`, `limit` 600 (at most 1000): the first ' +
        '`limit` ticks from `from`. Prices are decimal strings with 8 decimals.',
      querystring: IndexHistoryQuery,
      response: { 200: envelope(IndexHistory) },
    },
    config: { errors: INDEX_HISTORY_ERRORS },
    handler: async (request) => {
      const ticks = await service.indexHistory(request.query, clock.now());
      return ok(request, ticks.map(toIndexTick));
    },
  });

  api.get('/Market/kline', {
    schema: {
      tags: ['markets'],
      operationId: 'listCandles',
      summary: 'Index candles of a market and interval, oldest first',
      description:
        'The newest `limit` candles (300 by default, at most 1000) opening before `before` ' +
        '(default: up to and including the current one).',
      querystring: KlineQuery,
      response: { 200: envelope(KlineList) },
    },
    config: { errors: KLINES_ERRORS },
    handler: async (request) => {
      const candles = await service.klines(request.query);
      return ok(request, candles.map(toIndexCandle));
    },
  });
}
