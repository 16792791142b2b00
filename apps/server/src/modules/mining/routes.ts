import {
  MiningBuyBody,
  MiningMarket,
  MiningOrder,
  MiningPageQuery,
  MiningProductDetail,
  MiningProductQuery,
  MiningProfitLine,
  MiningRevenueList,
  MiningTokenQuery,
} from '@bourse/shared/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireAuth } from '../../platform/auth-hook.ts';
import { historyPage } from '../../platform/history-page.ts';
import { envelope, ok } from '../../platform/http.ts';
import { BUY_ERRORS, GET_PRODUCT_ERRORS, type MiningService } from './service.ts';

/** The mining market's customer API (`/Orepool/*`); every call needs a session. */
export async function miningRoutes(app: FastifyInstance, options: { mining: MiningService }): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { mining } = options;
  const tags = ['mining'];
  const config = { auth: true };

  api.get('/Orepool/index', {
    schema: {
      tags,
      operationId: 'getMiningMarket',
      summary: 'Machines on sale (price, daily output, days, capacity left, status) and the user’s machines',
      querystring: MiningTokenQuery,
      response: { 200: envelope(MiningMarket) },
    },
    config,
    handler: async (request) => {
      const userId = requireAuth(request).userId;
      return ok(request, { list: await mining.listProducts(), orders: await mining.listOrders(userId) });
    },
  });

  api.get('/Orepool/kjinfo', {
    schema: {
      tags,
      operationId: 'getMiningProduct',
      summary:
        'One machine: fee breakdown, expected output, break-even price; with `share`, what its shared machine has left',
      querystring: MiningProductQuery,
      response: { 200: envelope(MiningProductDetail) },
    },
    config: { ...config, errors: GET_PRODUCT_ERRORS },
    handler: async (request) =>
      ok(request, await mining.getProduct(BigInt(request.query.id), request.query.share)),
  });

  api.post('/Orepool/buy', {
    schema: {
      tags,
      operationId: 'buyMiningMachine',
      summary:
        'Buy a whole machine or a share of one (through a first buyer’s share link); idempotent by key',
      body: MiningBuyBody,
      response: { 200: envelope(MiningOrder) },
    },
    config: {
      ...config,
      errors: BUY_ERRORS,
    },
    handler: async (request) => {
      const order = await mining.buy(requireAuth(request), {
        productId: BigInt(request.body.id),
        shareBp: request.body.share_bp,
        shareCode: request.body.share,
        idempotencyKey: request.body.idempotency_key,
      });
      return ok(request, order, 'MINE_BOUGHT');
    },
  });

  api.get('/Orepool/profitline', {
    schema: {
      tags,
      operationId: 'getMiningProfitLine',
      summary: 'The user’s output per coin and day with its running total (the profit curve)',
      querystring: MiningTokenQuery,
      response: { 200: envelope(MiningProfitLine) },
    },
    config,
    handler: async (request) => ok(request, await mining.profitLine(requireAuth(request).userId)),
  });

  api.get('/Orepool/Profitlist', {
    schema: {
      tags,
      operationId: 'listMiningRevenues',
      summary: 'The user’s daily output, newest first: amount, price used (by value), released or not',
      querystring: MiningPageQuery,
      response: { 200: envelope(MiningRevenueList) },
    },
    config,
    handler: async (request) =>
      ok(request, await mining.listRevenues(requireAuth(request).userId, historyPage(request.query))),
  });
}
