import { fromAtoms, parseAmount } from '@bourse/shared';
import {
  AdminAgentList,
  AdminAgentQuery,
  AdminProjectBody,
  AdminProjectList,
  AdminRecordList,
  AdminRewardList,
  AdminRewardQuery,
  AgentDecisionBody,
  DisableBody,
  ReasonBody,
  ReferralConfigBody,
  ReferralConfigInfo,
} from '@bourse/shared/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok, TokenQuery } from '../../platform/http.ts';
import { staffActorOf } from '../../platform/staff-actor.ts';
import { DECIDE_ERRORS } from './agents.ts';
import {
  CANCEL_PROJECT_ERRORS,
  CREATE_PROJECT_ERRORS,
  FUND_INVENTORY_ERRORS,
  LIST_PROJECT_RECORDS_FOR_STAFF_ERRORS,
  SCHEDULE_PROJECT_ERRORS,
  SET_DISABLED_ERRORS,
  UPDATE_PROJECT_ERRORS,
} from './back-office.ts';
import { type ReferralConfig, SET_REFERRAL_CONFIG_ERRORS, VOID_REWARD_ERRORS } from './rewards.ts';
import type { LaunchpadService, ProjectTerms } from './service.ts';

const IdParams = z.object({ id: z.string().regex(/^\d{1,18}$/, { error: 'PARAM_ERROR' }) });

function toTerms(body: z.output<typeof AdminProjectBody>, defaultBudgetBp: bigint): ProjectTerms {
  return {
    name: body.name,
    coin: body.coin,
    coinName: body.coinName,
    coinDecimals: body.coinDecimals,
    quote: body.quote,
    startAt: body.startAt,
    endAt: body.endAt,
    totalIssue: parseAmount(body.totalIssue),
    price: parseAmount(body.price),
    lockDays: body.lockDays,
    perMin: parseAmount(body.perMin),
    perMax: parseAmount(body.perMax),
    individualLimit: parseAmount(body.individualLimit),
    maxPurchases: body.maxPurchases,
    softCap: parseAmount(body.softCap),
    mode: body.mode,
    referralBudgetBp: body.referralBudgetBp === undefined ? defaultBudgetBp : BigInt(body.referralBudgetBp),
    descriptions: body.descriptions,
  };
}

function toConfigWire(config: ReferralConfig) {
  return {
    ratesBp: config.ratesBp.map(Number) as [number, number, number],
    generations: config.generations,
    capPerProject: fromAtoms(config.capPerProject),
    capPerMonth: fromAtoms(config.capPerMonth),
    budgetBp: Number(config.budgetBp),
    blockedCountries: config.blockedCountries,
    acknowledgedBy: config.acknowledgedBy,
    acknowledgedAt: config.acknowledgedAt,
  };
}

/**
 * `/admin-api/launchpad/*` and `/admin-api/agents*`: projects (draft, inventory, schedule, forbid,
 * cancel), their records and rewards read only, reward voids, the referral programme and agents.
 * Every write is audited by the launchpad module. No route here, or anywhere, sets a project's
 * progress or sold amount or a user's allocation: those are sums of the records.
 */
export async function launchpadAdminRoutes(
  app: FastifyInstance,
  options: { launchpad: LaunchpadService },
): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['staff-launchpad'];
  const launchpad = options.launchpad;
  const done = z.null();

  api.get('/launchpad/projects', {
    config: { staff: 'launchpad.read' },
    schema: {
      tags,
      operationId: 'adminListLaunchpadProjects',
      summary: 'Every project with its state, inventory held and totals from its records',
      querystring: TokenQuery,
      response: { 200: envelope(AdminProjectList) },
    },
    handler: async (request) => ok(request, { list: await launchpad.listProjectsForStaff() }),
  });

  api.post('/launchpad/projects', {
    config: {
      staff: 'launchpad.manage',
      errors: CREATE_PROJECT_ERRORS,
    },
    schema: {
      tags,
      operationId: 'adminCreateLaunchpadProject',
      summary: 'Create a draft project and its coin (audited)',
      body: AdminProjectBody,
      response: { 200: envelope(z.object({ id: z.string() })) },
    },
    handler: async (request) => {
      const config = await launchpad.referralConfig();
      const id = await launchpad.createProject(staffActorOf(request), toTerms(request.body, config.budgetBp));
      return ok(request, { id: String(id) });
    },
  });

  api.post('/launchpad/projects/:id', {
    config: {
      staff: 'launchpad.manage',
      errors: UPDATE_PROJECT_ERRORS,
    },
    schema: {
      tags,
      operationId: 'adminUpdateLaunchpadProject',
      summary: 'Change a draft’s terms (audited); a published project’s terms never change',
      params: IdParams,
      body: AdminProjectBody,
      response: { 200: envelope(done) },
    },
    handler: async (request) => {
      const config = await launchpad.referralConfig();
      await launchpad.updateProject(
        staffActorOf(request),
        BigInt(request.params.id),
        toTerms(request.body, config.budgetBp),
      );
      return ok(request, null);
    },
  });

  api.post('/launchpad/projects/:id/inventory', {
    config: {
      staff: 'launchpad.manage',
      errors: FUND_INVENTORY_ERRORS,
    },
    schema: {
      tags,
      operationId: 'adminFundLaunchpadInventory',
      summary:
        'Record the issuer’s tokens arriving in the project’s inventory (issuer → inventory, once; audited)',
      params: IdParams,
      response: { 200: envelope(done) },
    },
    handler: async (request) => {
      await launchpad.fundInventory(staffActorOf(request), BigInt(request.params.id));
      return ok(request, null);
    },
  });

  api.post('/launchpad/projects/:id/schedule', {
    config: {
      staff: 'launchpad.manage',
      errors: SCHEDULE_PROJECT_ERRORS,
    },
    schema: {
      tags,
      operationId: 'adminScheduleLaunchpadProject',
      summary: 'Publish a draft; refused until its inventory holds the total issue (audited)',
      params: IdParams,
      response: { 200: envelope(done) },
    },
    handler: async (request) => {
      await launchpad.scheduleProject(staffActorOf(request), BigInt(request.params.id));
      return ok(request, null);
    },
  });

  api.post('/launchpad/projects/:id/disabled', {
    config: { staff: 'launchpad.manage', errors: SET_DISABLED_ERRORS },
    schema: {
      tags,
      operationId: 'adminDisableLaunchpadProject',
      summary: 'Forbid (or allow again) subscriptions to a published project, with a reason (audited)',
      params: IdParams,
      body: DisableBody,
      response: { 200: envelope(done) },
    },
    handler: async (request) => {
      await launchpad.setDisabled(
        staffActorOf(request),
        BigInt(request.params.id),
        request.body.disabled,
        request.body.reason,
      );
      return ok(request, null);
    },
  });

  api.post('/launchpad/projects/:id/cancel', {
    config: {
      staff: 'launchpad.manage',
      errors: CANCEL_PROJECT_ERRORS,
    },
    schema: {
      tags,
      operationId: 'adminCancelLaunchpadProject',
      summary:
        'Cancel before distribution: every subscription refunded in full, tokens back to the issuer (audited)',
      params: IdParams,
      body: ReasonBody,
      response: { 200: envelope(done) },
    },
    handler: async (request) => {
      await launchpad.cancelProject(staffActorOf(request), BigInt(request.params.id), request.body.reason);
      return ok(request, null);
    },
  });

  api.get('/launchpad/projects/:id/records', {
    config: { staff: 'launchpad.read', errors: LIST_PROJECT_RECORDS_FOR_STAFF_ERRORS },
    schema: {
      tags,
      operationId: 'adminListLaunchpadRecords',
      summary: 'A project’s subscription records, read only',
      params: IdParams,
      querystring: TokenQuery,
      response: { 200: envelope(AdminRecordList) },
    },
    handler: async (request) =>
      ok(request, { list: await launchpad.listProjectRecordsForStaff(BigInt(request.params.id)) }),
  });

  api.get('/launchpad/rewards', {
    config: { staff: 'launchpad.read' },
    schema: {
      tags,
      operationId: 'adminListReferralRewards',
      summary: 'Referral rewards, by project and status',
      querystring: AdminRewardQuery,
      response: { 200: envelope(AdminRewardList) },
    },
    handler: async (request) =>
      ok(
        request,
        await launchpad.listRewardsForStaff(
          {
            projectId: request.query.project === undefined ? undefined : BigInt(request.query.project),
            status: request.query.status,
          },
          request.query.page,
        ),
      ),
  });

  api.post('/launchpad/rewards/:id/void', {
    config: {
      staff: 'launchpad.manage',
      errors: VOID_REWARD_ERRORS,
    },
    schema: {
      tags,
      operationId: 'adminVoidReferralReward',
      summary: 'Void a pending reward with a reason; its money goes back to the issuer (audited)',
      params: IdParams,
      body: ReasonBody,
      response: { 200: envelope(done) },
    },
    handler: async (request) => {
      await launchpad.voidReward(staffActorOf(request), BigInt(request.params.id), request.body.reason);
      return ok(request, null);
    },
  });

  api.get('/launchpad/referral', {
    config: { staff: 'launchpad.read' },
    schema: {
      tags,
      operationId: 'adminGetReferralConfig',
      summary: 'The referral programme: rates, generations, caps, budget, blocked countries, acknowledgement',
      querystring: TokenQuery,
      response: { 200: envelope(ReferralConfigInfo) },
    },
    handler: async (request) => ok(request, toConfigWire(await launchpad.referralConfig())),
  });

  api.post('/launchpad/referral', {
    config: {
      staff: 'launchpad.referral',
      errors: SET_REFERRAL_CONFIG_ERRORS,
    },
    schema: {
      tags,
      operationId: 'adminSetReferralConfig',
      summary:
        'Set the referral programme (owner only; audited); generations 2–3 need the recorded acknowledgement of the legal warning',
      body: ReferralConfigBody,
      response: { 200: envelope(ReferralConfigInfo) },
    },
    handler: async (request) => {
      const body = request.body;
      const saved = await launchpad.setReferralConfig(staffActorOf(request), {
        ratesBp: body.ratesBp.map(BigInt) as [bigint, bigint, bigint],
        generations: body.generations,
        capPerProject: parseAmount(body.capPerProject),
        capPerMonth: parseAmount(body.capPerMonth),
        budgetBp: BigInt(body.budgetBp),
        blockedCountries: body.blockedCountries,
        acknowledge: body.acknowledge,
      });
      return ok(request, toConfigWire(saved));
    },
  });

  api.get('/agents', {
    config: { staff: 'agents.review' },
    schema: {
      tags,
      operationId: 'adminListAgents',
      summary: 'Agent applications and agents',
      querystring: AdminAgentQuery,
      response: { 200: envelope(AdminAgentList) },
    },
    handler: async (request) =>
      ok(request, await launchpad.agents.list(request.query.status, request.query.page)),
  });

  api.post('/agents/:id/decision', {
    config: {
      staff: 'agents.review',
      errors: DECIDE_ERRORS,
    },
    schema: {
      tags,
      operationId: 'adminDecideAgent',
      summary:
        'Approve or reject an application, suspend or reinstate an agent, optionally with own rates (audited)',
      params: IdParams,
      body: AgentDecisionBody,
      response: { 200: envelope(done) },
    },
    handler: async (request) => {
      await launchpad.agents.decide(
        staffActorOf(request),
        BigInt(request.params.id),
        request.body.decision,
        request.body.note,
        request.body.ratesBp,
      );
      return ok(request, null);
    },
  });
}
