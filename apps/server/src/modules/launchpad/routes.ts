import { toAtoms } from '@bourse/shared';
import {
  AgentCentre,
  AgentCentreQuery,
  AgentStatusInfo,
  IssueBuyBody,
  IssueDetail,
  IssueDetailQuery,
  IssueListQuery,
  IssuePageQuery,
  IssueProjectList,
  IssueRecord,
  IssueRecordList,
  RewardList,
} from '@bourse/shared/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth-hook.ts';
import { historyPage } from '../../platform/history-page.ts';
import { envelope, ok } from '../../platform/http.ts';
import { APPLY_ERRORS, CENTRE_ERRORS, REWARDS_CSV_ERRORS, REWARDS_ERRORS } from './agents.ts';
import { GET_PROJECT_ERRORS } from './projects.ts';
import type { LaunchpadService } from './service.ts';
import { SUBSCRIBE_ERRORS } from './subscriptions.ts';

/** The launchpad's customer API (`/Issue/*`) and the agent centre (`/Agent/*`); all need a session. */
export async function launchpadRoutes(
  app: FastifyInstance,
  options: { launchpad: LaunchpadService },
): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { launchpad } = options;
  const tags = ['launchpad'];
  const config = { auth: true };

  api.get('/Issue/index', {
    schema: {
      tags,
      operationId: 'listIssueProjects',
      summary: 'Subscription projects with state, countdown times and progress (Σ records ÷ total issue)',
      querystring: IssueListQuery,
      response: { 200: envelope(IssueProjectList) },
    },
    config,
    handler: async (request) => {
      const list = await launchpad.listProjects(request.locale);
      return ok(request, { list, server_time: list[0]?.server_time ?? Date.now() });
    },
  });

  api.get('/Issue/details', {
    schema: {
      tags,
      operationId: 'getIssueProject',
      summary:
        'One project: terms, the user’s subscriptions, and the cost and expected allocation of `num` tokens',
      querystring: IssueDetailQuery,
      response: { 200: envelope(IssueDetail) },
    },
    config: { ...config, errors: GET_PROJECT_ERRORS },
    handler: async (request) =>
      ok(
        request,
        await launchpad.getProject(
          BigInt(request.query.id),
          requireAuth(request).userId,
          request.locale,
          request.query.num === undefined ? undefined : toAtoms(request.query.num),
        ),
      ),
  });

  api.post('/Issue/buy', {
    schema: {
      tags,
      operationId: 'subscribeIssue',
      summary:
        'Subscribe `num` tokens: paid and locked at once (first come, first served) or frozen until the end (pro-rata); idempotent by key',
      body: IssueBuyBody,
      response: { 200: envelope(IssueRecord) },
    },
    config: {
      ...config,
      errors: SUBSCRIBE_ERRORS,
    },
    handler: async (request) => {
      const record = await launchpad.subscribe(requireAuth(request), {
        projectId: BigInt(request.body.id),
        quantity: toAtoms(request.body.num),
        idempotencyKey: request.body.idempotency_key,
      });
      return ok(request, record, 'LP_SUBSCRIBED');
    },
  });

  api.get('/Issue/issuelog', {
    schema: {
      tags,
      operationId: 'listIssueRecords',
      summary:
        'The user’s subscription records: project, unit price, quantity, freeze cycle, times, amount paid, status',
      querystring: IssuePageQuery,
      response: { 200: envelope(IssueRecordList) },
    },
    config,
    handler: async (request) =>
      ok(request, await launchpad.listRecords(requireAuth(request).userId, historyPage(request.query))),
  });

  api.get('/Issue/rewards', {
    schema: {
      tags,
      operationId: 'listReferralRewards',
      summary: 'The user’s referral rewards from their team’s subscriptions, with the month’s total',
      querystring: IssuePageQuery,
      response: { 200: envelope(RewardList) },
    },
    config,
    handler: async (request) =>
      ok(request, await launchpad.listRewards(requireAuth(request).userId, historyPage(request.query))),
  });

  api.get('/Agent/status', {
    schema: {
      tags,
      operationId: 'getAgentStatus',
      summary: 'Whether the user is an agent: none, pending, approved, rejected or suspended',
      querystring: IssueListQuery,
      response: { 200: envelope(AgentStatusInfo) },
    },
    config,
    handler: async (request) => ok(request, await launchpad.agents.status(requireAuth(request).userId)),
  });

  api.post('/Agent/apply', {
    schema: {
      tags,
      operationId: 'applyAgent',
      summary: 'Apply to become an agent; staff review the application',
      body: z.object({ token: z.string().max(200).optional() }),
      response: { 200: envelope(z.null()) },
    },
    config: { ...config, errors: APPLY_ERRORS },
    handler: async (request) => {
      await launchpad.agents.apply(requireAuth(request).userId);
      return ok(request, null, 'AGENT_APPLIED');
    },
  });

  api.get('/Agent/index', {
    schema: {
      tags,
      operationId: 'getAgentCentre',
      summary: 'The agent centre: team per generation (masked), total paid per member, daily rewards',
      querystring: AgentCentreQuery,
      response: { 200: envelope(AgentCentre) },
    },
    config: { ...config, errors: CENTRE_ERRORS },
    handler: async (request) =>
      ok(
        request,
        await launchpad.agents.centre(requireAuth(request).userId, {
          generation: request.query.generation,
          page: request.query.page,
        }),
      ),
  });

  api.get('/Agent/rewards', {
    schema: {
      tags,
      operationId: 'listAgentRewards',
      summary: 'The agent’s reward records with status',
      querystring: IssuePageQuery,
      response: { 200: envelope(RewardList) },
    },
    config: { ...config, errors: REWARDS_ERRORS },
    handler: async (request) =>
      ok(request, await launchpad.agents.rewards(requireAuth(request).userId, historyPage(request.query))),
  });

  api.get('/Agent/export', {
    schema: {
      tags,
      operationId: 'exportAgentRewards',
      summary: 'The agent’s reward records as CSV',
      querystring: IssueListQuery,
    },
    config: { ...config, errors: REWARDS_CSV_ERRORS },
    handler: async (request, reply) => {
      const csv = await launchpad.agents.rewardsCsv(requireAuth(request).userId);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="rewards.csv"')
        .send(csv);
    },
  });
}
