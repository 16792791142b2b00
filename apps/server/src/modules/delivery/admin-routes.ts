import { parseAmount } from '@bourse/shared';
import {
  AdminContractList,
  AdminContractListQuery,
  AdminContractRecord,
  AdminDeliveryProductList,
  AdminTrialGrant,
  AdminTrialGrantList,
  DeliveryExposureList,
  DeliveryProductBody,
  GrantTrialBody,
  HousePnl,
  HousePnlQuery,
  TrialGrantListQuery,
  TrialPlanBody,
  TrialPlanList,
  TrialSettings,
  TrialSettingsBody,
} from '@bourse/shared/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok, TokenQuery } from '../../platform/http.ts';
import { staffActorOf } from '../../platform/staff-actor.ts';
import {
  type DeliveryBackOffice,
  GET_CONTRACT_ERRORS,
  GRANT_TRIAL_ERRORS,
  SAVE_PLAN_ERRORS,
  SAVE_PRODUCT_ERRORS,
  SET_TRIAL_SETTINGS_ERRORS,
} from './back-office.ts';
import { parseRatio } from './settlement.ts';

const SymbolParams = z.object({
  symbol: z
    .string()
    .transform((v) => v.toUpperCase())
    .refine((v) => /^[A-Z0-9]{2,24}$/.test(v), { error: 'MARKET_NOT_OPEN' }),
});
const IdParams = z.object({ id: z.string().regex(/^\d{1,18}$/, { error: 'PARAM_ERROR' }) });

/**
 * `/admin-api/delivery/*`: products, periods and ratios, trial plans and grants, exposure, the
 * house's profit and loss, and contracts read only. No route here, or anywhere, edits a contract.
 */
export async function deliveryAdminRoutes(
  app: FastifyInstance,
  options: { delivery: DeliveryBackOffice },
): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['staff-delivery'];
  const delivery = options.delivery;

  api.get('/delivery/products', {
    config: { staff: 'delivery.read' },
    schema: {
      tags,
      operationId: 'adminListDeliveryProducts',
      summary: 'Every market with its delivery product: status, exposure cap, periods and ratios',
      querystring: TokenQuery,
      response: { 200: envelope(AdminDeliveryProductList) },
    },
    handler: async (request) => ok(request, await delivery.listProducts()),
  });

  api.post('/delivery/products/:symbol', {
    config: {
      staff: 'delivery.manage',
      errors: SAVE_PRODUCT_ERRORS,
    },
    schema: {
      tags,
      operationId: 'adminSaveDeliveryProduct',
      summary: 'Create or replace a market’s product and periods (audited); ratios apply to later contracts',
      params: SymbolParams,
      body: DeliveryProductBody,
      response: { 200: envelope(z.null()) },
    },
    handler: async (request) => {
      const body = request.body;
      await delivery.saveProduct(staffActorOf(request), {
        symbol: request.params.symbol,
        status: body.status,
        maxExposure: parseAmount(body.maxExposure),
        periods: body.periods.map((p) => ({
          seconds: p.seconds,
          ratioBps: parseRatio(p.ratio),
          min: parseAmount(p.min),
          max: parseAmount(p.max),
        })),
      });
      return ok(request, null);
    },
  });

  api.get('/delivery/trial-plans', {
    config: { staff: 'delivery.read' },
    schema: {
      tags,
      operationId: 'adminListTrialPlans',
      summary: 'Trial-money plans (sign-up and campaign)',
      querystring: TokenQuery,
      response: { 200: envelope(TrialPlanList) },
    },
    handler: async (request) => ok(request, await delivery.listPlans()),
  });

  api.post('/delivery/trial-plans', {
    config: { staff: 'delivery.manage', errors: SAVE_PLAN_ERRORS },
    schema: {
      tags,
      operationId: 'adminSaveTrialPlan',
      summary: 'Create (no id) or update a trial-money plan (audited)',
      body: TrialPlanBody,
      response: { 200: envelope(z.object({ id: z.string() })) },
    },
    handler: async (request) => {
      const body = request.body;
      const id = await delivery.savePlan(staffActorOf(request), {
        id: body.id === undefined ? undefined : BigInt(body.id),
        plan: {
          name: body.name,
          amount: parseAmount(body.amount),
          validityDays: body.validityDays,
          profitCapPercent: body.profitCapPercent,
          trigger: body.trigger,
          active: body.active,
        },
      });
      return ok(request, { id: String(id) });
    },
  });

  api.get('/delivery/trial-grants', {
    config: { staff: 'delivery.read' },
    schema: {
      tags,
      operationId: 'adminListTrialGrants',
      summary: 'Trial-money grants, newest first (optionally one user’s)',
      querystring: TrialGrantListQuery,
      response: { 200: envelope(AdminTrialGrantList) },
    },
    handler: async (request) => {
      const { userId, page } = request.query;
      return ok(
        request,
        await delivery.listGrants({ userId: userId === undefined ? undefined : BigInt(userId), page }),
      );
    },
  });

  api.post('/delivery/trial-grants', {
    config: {
      staff: 'delivery.manage',
      errors: GRANT_TRIAL_ERRORS,
    },
    schema: {
      tags,
      operationId: 'adminGrantTrial',
      summary: 'Grant a plan’s trial money to a user (audited; idempotent by key)',
      body: GrantTrialBody,
      response: { 200: envelope(AdminTrialGrant) },
    },
    handler: async (request) => {
      const { userId, planId, key } = request.body;
      const grant = await delivery.grantTrial(staffActorOf(request), {
        userId: BigInt(userId),
        planId: BigInt(planId),
        key,
      });
      return ok(request, grant);
    },
  });

  api.get('/delivery/trial-settings', {
    config: { staff: 'delivery.read' },
    schema: {
      tags,
      operationId: 'adminGetTrialSettings',
      summary: 'The trial turnover multiple: set, least allowed by the payout ratios, and in force',
      querystring: TokenQuery,
      response: { 200: envelope(TrialSettings) },
    },
    handler: async (request) => ok(request, await delivery.trialSettings()),
  });

  api.post('/delivery/trial-settings', {
    config: { staff: 'delivery.manage', errors: SET_TRIAL_SETTINGS_ERRORS },
    schema: {
      tags,
      operationId: 'adminSetTrialSettings',
      summary:
        'Set the trial turnover multiple (audited); refused below 2 / (1 − the highest payout ratio), with the arithmetic',
      body: TrialSettingsBody,
      response: { 200: envelope(TrialSettings) },
    },
    handler: async (request) =>
      ok(
        request,
        await delivery.setTrialSettings(staffActorOf(request), {
          turnoverMultiple: request.body.turnoverMultiple,
        }),
      ),
  });

  api.get('/delivery/exposure', {
    config: { staff: 'delivery.read' },
    schema: {
      tags,
      operationId: 'adminGetDeliveryExposure',
      summary: 'Open exposure per market and direction, with the product’s cap',
      querystring: TokenQuery,
      response: { 200: envelope(DeliveryExposureList) },
    },
    handler: async (request) => ok(request, await delivery.exposure()),
  });

  api.get('/delivery/pnl', {
    config: { staff: 'delivery.read' },
    schema: {
      tags,
      operationId: 'adminGetHousePnl',
      summary: 'The house’s profit and loss over settled contracts, in total and per market',
      querystring: HousePnlQuery,
      response: { 200: envelope(HousePnl) },
    },
    handler: async (request) => {
      const { from, to } = request.query;
      return ok(request, await delivery.pnl({ from, to }));
    },
  });

  api.get('/delivery/contracts', {
    config: { staff: 'delivery.read' },
    schema: {
      tags,
      operationId: 'adminListDeliveryContracts',
      summary: 'Contracts with their settlement data, newest first, filtered (read only)',
      querystring: AdminContractListQuery,
      response: { 200: envelope(AdminContractList) },
    },
    handler: async (request) => {
      const { status, symbol, userId, funding, page } = request.query;
      return ok(
        request,
        await delivery.listContracts({
          status,
          symbol,
          funding,
          userId: userId === undefined ? undefined : BigInt(userId),
          page,
        }),
      );
    },
  });

  api.get('/delivery/contracts/:id', {
    config: { staff: 'delivery.read', errors: GET_CONTRACT_ERRORS },
    schema: {
      tags,
      operationId: 'adminGetDeliveryContract',
      summary: 'One contract with its settlement data (read only)',
      params: IdParams,
      querystring: TokenQuery,
      response: { 200: envelope(AdminContractRecord) },
    },
    handler: async (request) => ok(request, await delivery.getContract(BigInt(request.params.id))),
  });
}
