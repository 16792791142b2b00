import { parseAmount } from '@bourse/shared';
import {
  ContractList,
  ContractListQuery,
  ContractQuery,
  ContractRecord,
  DeliveryPage,
  DeliveryPageQuery,
  PlaceContractBody,
} from '@bourse/shared/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireAuth } from '../../platform/auth-hook.ts';
import { historyPage } from '../../platform/history-page.ts';
import { envelope, ok } from '../../platform/http.ts';
import { type DeliveryService, GET_CONTRACT_ERRORS, PLACE_ERRORS } from './service.ts';

/** The delivery contracts' customer API: the spec's `/Contract/*` paths. */
export async function deliveryRoutes(
  app: FastifyInstance,
  options: { delivery: DeliveryService },
): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { delivery } = options;
  const tags = ['delivery'];
  const config = { auth: true };

  api.get('/Contract/index', {
    schema: {
      tags,
      operationId: 'getDeliveryPage',
      summary:
        'Delivery contract page: markets with periods, ratios, bounds and index; balances; trial grants',
      querystring: DeliveryPageQuery,
      response: { 200: envelope(DeliveryPage) },
    },
    config,
    handler: async (request) => ok(request, await delivery.getPage(requireAuth(request).userId)),
  });

  api.post('/Contract/place', {
    schema: {
      tags,
      operationId: 'placeDeliveryContract',
      summary:
        'Buy up or down for a period: the amount is frozen, the opening index recorded; idempotent by key',
      body: PlaceContractBody,
      response: { 200: envelope(ContractRecord) },
    },
    config: {
      ...config,
      errors: PLACE_ERRORS,
    },
    handler: async (request) => {
      const body = request.body;
      const record = await delivery.place(requireAuth(request), {
        symbol: body.symbol,
        direction: body.direction,
        period: body.period,
        amount: parseAmount(body.amount),
        trial: body.trial === '1',
        idempotencyKey: body.idempotency_key,
      });
      return ok(request, record, 'CONTRACT_PLACED');
    },
  });

  api.get('/Contract/ctbill', {
    schema: {
      tags,
      operationId: 'listDeliveryContracts',
      summary: 'The user’s contracts: open (open and settling) or settled (settled and closed), newest first',
      querystring: ContractListQuery,
      response: { 200: envelope(ContractList) },
    },
    config,
    handler: async (request) =>
      ok(
        request,
        await delivery.listContracts(requireAuth(request).userId, {
          status: request.query.status,
          ...historyPage(request.query),
        }),
      ),
  });

  api.get('/Contract/cbillinfo', {
    schema: {
      tags,
      operationId: 'getDeliveryContract',
      summary: 'One of the user’s contracts with its opening and closing index',
      querystring: ContractQuery,
      response: { 200: envelope(ContractRecord) },
    },
    config: { ...config, errors: GET_CONTRACT_ERRORS },
    handler: async (request) =>
      ok(request, await delivery.getContract(requireAuth(request).userId, BigInt(request.query.id))),
  });
}
