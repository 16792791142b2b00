import { parseAmount } from '@bourse/shared';
import {
  AdminMiningOrderList,
  AdminMiningProductBody,
  AdminMiningStatusBody,
  AdminPoolFundBody,
  AdminPoolList,
  MiningProduct,
} from '@bourse/shared/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok, TokenQuery } from '../../platform/http.ts';
import { staffActorOf } from '../../platform/staff-actor.ts';
import { CREATE_PRODUCT_ERRORS, FUND_POOL_ERRORS, type MiningService, SET_STATUS_ERRORS } from './service.ts';

const IdParams = z.object({ id: z.string().regex(/^\d{1,18}$/, { error: 'PARAM_ERROR' }) });
const CoinParams = z.object({ coin: z.string().regex(/^[A-Z0-9]{2,16}$/, { error: 'COIN_UNAVAILABLE' }) });

/**
 * `/admin-api/mining/*`: machines (create, open, pause), the output pools (balances, days covered,
 * funding from the treasury). Every write is audited; nothing here sets what was sold or earned.
 */
export async function miningAdminRoutes(
  app: FastifyInstance,
  options: { mining: MiningService },
): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['staff-mining'];
  const mining = options.mining;

  api.get('/mining/products', {
    config: { staff: 'mining.read' },
    schema: {
      tags,
      operationId: 'adminListMiningProducts',
      summary: 'Machines with price, output, capacity left and status',
      querystring: TokenQuery,
      response: { 200: envelope(z.object({ list: z.array(MiningProduct) })) },
    },
    handler: async (request) => ok(request, { list: await mining.listProducts() }),
  });

  api.post('/mining/products', {
    config: { staff: 'mining.manage', errors: CREATE_PRODUCT_ERRORS },
    schema: {
      tags,
      operationId: 'adminCreateMiningProduct',
      summary: 'Create a draft machine; its price is hashrate + days × electricity + management (audited)',
      body: AdminMiningProductBody,
      response: { 200: envelope(z.object({ id: z.string() })) },
    },
    handler: async (request) => {
      const b = request.body;
      const id = await mining.createProduct(staffActorOf(request), {
        name: b.name,
        type: b.type,
        feeHashrate: parseAmount(b.feeHashrate),
        feeElectricityDay: parseAmount(b.feeElectricityDay),
        feeManagement: parseAmount(b.feeManagement),
        coin: b.coin,
        incomeType: b.incomeType,
        dailyQ: parseAmount(b.dailyQ),
        dailyValue: parseAmount(b.dailyValue),
        days: b.days,
        capacity: b.capacity,
        minShareBp: b.minShareBp,
        stepBp: b.stepBp,
        holdCoin: b.holdCoin,
        minHold: parseAmount(b.minHold),
        minReferrals: b.minReferrals,
        maxOrders: b.maxOrders,
        releaseDelayDays: b.releaseDelayDays,
      });
      return ok(request, { id: String(id) });
    },
  });

  api.post('/mining/products/:id/status', {
    config: { staff: 'mining.manage', errors: SET_STATUS_ERRORS },
    schema: {
      tags,
      operationId: 'adminSetMiningProductStatus',
      summary: 'Open a machine for sale, or pause and resume its sales (audited)',
      params: IdParams,
      body: AdminMiningStatusBody,
      response: { 200: envelope(z.null()) },
    },
    handler: async (request) => {
      await mining.setStatus(staffActorOf(request), BigInt(request.params.id), request.body.status);
      return ok(request, null);
    },
  });

  api.get('/mining/orders', {
    config: { staff: 'mining.read' },
    schema: {
      tags,
      operationId: 'adminListMiningOrders',
      summary: 'The latest orders with what each has earned, released and frozen',
      querystring: TokenQuery,
      response: { 200: envelope(AdminMiningOrderList) },
    },
    handler: async (request) => ok(request, { list: await mining.listOrdersForStaff() }),
  });

  api.get('/mining/pools', {
    config: { staff: 'mining.read' },
    schema: {
      tags,
      operationId: 'adminListMiningPools',
      summary: 'Each output coin’s pool: balance, a day’s output, days covered (warning under 7)',
      querystring: TokenQuery,
      response: { 200: envelope(AdminPoolList) },
    },
    handler: async (request) => ok(request, { list: await mining.pools() }),
  });

  api.post('/mining/pools/:coin/fund', {
    config: {
      staff: 'mining.fund',
      errors: FUND_POOL_ERRORS,
    },
    schema: {
      tags,
      operationId: 'adminFundMiningPool',
      summary: 'Fund a coin’s output pool from the treasury (a ledger entry, once per key; audited)',
      params: CoinParams,
      body: AdminPoolFundBody,
      response: { 200: envelope(z.null()) },
    },
    handler: async (request) => {
      await mining.fundPool(
        staffActorOf(request),
        request.params.coin,
        parseAmount(request.body.amount),
        request.body.idempotency_key,
      );
      return ok(request, null);
    },
  });
}
