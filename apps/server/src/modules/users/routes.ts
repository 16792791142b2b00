import {
  ChangePasswordBody,
  TeamInfo,
  TeamQuery,
  TokenOnly,
  UserInfo,
  WithdrawPasswordBody,
} from '@bourse/shared/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth-hook.ts';
import { envelope, ok } from '../../platform/http.ts';
import {
  CHANGE_PASSWORD_ERRORS,
  SET_WITHDRAW_PASSWORD_ERRORS,
  TEAM_ERRORS,
  type UsersService,
} from './service.ts';

/** `/apiv/User/*`: the signed-in user's profile and passwords. */
export async function usersRoutes(app: FastifyInstance, options: { users: UsersService }): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { users } = options;
  const tags = ['users'];
  const config = { auth: true };

  api.get('/User/getUserInfo', {
    schema: {
      tags,
      operationId: 'getUserInfo',
      summary: 'The signed-in user',
      querystring: TokenOnly,
      response: { 200: envelope(z.object({ userInfo: UserInfo })) },
    },
    config,
    handler: async (request) =>
      ok(request, { userInfo: await users.getUserInfo(requireAuth(request).userId) }),
  });

  api.post('/user/sub_respwd', {
    schema: {
      tags,
      operationId: 'changePassword',
      summary: 'Change the login password: ends other sessions, blocks withdrawals for 24 hours',
      body: ChangePasswordBody,
      response: { 200: envelope(z.null()) },
    },
    config: {
      ...config,
      errors: CHANGE_PASSWORD_ERRORS,
    },
    handler: async (request) => {
      const { oldpwd, newpwd, renewpwd } = request.body;
      await users.changePassword(requireAuth(request), {
        oldPassword: oldpwd,
        newPassword: newpwd,
        repeatPassword: renewpwd,
      });
      return ok(request, null, 'PASSWORD_CHANGED');
    },
  });

  api.post('/User/sub_withdrawpwd', {
    schema: {
      tags,
      operationId: 'setWithdrawPassword',
      summary: 'Set or change the withdrawal password (oldpaypassword required when one is set)',
      body: WithdrawPasswordBody,
      response: { 200: envelope(z.null()) },
    },
    config: {
      ...config,
      errors: SET_WITHDRAW_PASSWORD_ERRORS,
    },
    handler: async (request) => {
      const { paypassword, repaypassword, oldpaypassword } = request.body;
      await users.setWithdrawPassword(requireAuth(request), {
        newPassword: paypassword,
        repeatPassword: repaypassword,
        oldPassword: oldpaypassword,
      });
      return ok(request, null, 'WITHDRAW_PASSWORD_SET');
    },
  });

  api.post('/user/online', {
    schema: {
      tags,
      operationId: 'getSupportUrl',
      summary: 'The online-support chat URL',
      body: TokenOnly,
      response: { 200: envelope(z.string()) },
    },
    config,
    handler: async (request) => ok(request, await users.getSupportUrl()),
  });

  api.get('/user/tgcode', {
    schema: {
      tags,
      operationId: 'getInvitationTeam',
      summary: 'The caller’s invitation code, team counts per generation and one generation’s members',
      querystring: TeamQuery,
      response: { 200: envelope(TeamInfo) },
    },
    config: { ...config, errors: TEAM_ERRORS },
    handler: async (request) => {
      const { generation, page } = request.query;
      const team = await users.team(requireAuth(request).userId, { generation, page: page ?? 1 });
      return ok(request, {
        invite_code: team.inviteCode,
        counts: team.counts,
        generation,
        page: page ?? 1,
        members: team.members.map((m) => ({ name: m.name, joined_at: m.joinedAt, verified: m.verified })),
        has_more: team.hasMore,
      });
    },
  });
}
