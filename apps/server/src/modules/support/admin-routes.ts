import {
  ChatMessageWire,
  SupportConversationList,
  SupportIdParams,
  SupportImageParams,
  SupportReplyBody,
  SupportThread,
} from '@bourse/shared/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok, TokenQuery } from '../../platform/http.ts';
import { staffActorOf } from '../../platform/staff-actor.ts';
import { toSafeNumber } from '../../platform/time.ts';
import { toWire } from './routes.ts';
import {
  IMAGE_FOR_STAFF_ERRORS,
  OPEN_FOR_STAFF_ERRORS,
  REPLY_ERRORS,
  type SupportService,
} from './service.ts';

/** The staff token, and `before` to page a conversation back (the other routes ignore it). */
const SupportQuery = TokenQuery.extend({ before: z.coerce.number().int().min(1).optional() });

/**
 * `/admin-api/support/*`: the chat console. Conversations (unread first), one conversation with
 * the user's context (opening it marks it read, audited), replies (audited) and images.
 */
export async function supportAdminRoutes(
  app: FastifyInstance,
  options: { support: SupportService },
): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['staff-support'];
  const support = options.support;

  api.get('/support/conversations', {
    config: { staff: 'support.chat' },
    schema: {
      tags,
      operationId: 'adminListConversations',
      summary: 'Support conversations: unread first, then the most recent',
      querystring: SupportQuery,
      response: { 200: envelope(SupportConversationList) },
    },
    handler: async (request) => {
      const list = await support.conversations();
      return ok(request, {
        list: list.map((c) => ({ ...c, id: toSafeNumber(c.id), userId: toSafeNumber(c.userId) })),
      });
    },
  });

  api.get('/support/conversations/:id', {
    config: { staff: 'support.chat', errors: OPEN_FOR_STAFF_ERRORS },
    schema: {
      tags,
      operationId: 'adminGetConversation',
      summary: 'One conversation with the user’s context; opening it marks it read (audited)',
      params: SupportIdParams,
      querystring: SupportQuery,
      response: { 200: envelope(SupportThread) },
    },
    handler: async (request) => {
      const before = request.query.before;
      const thread = await support.openForStaff(
        staffActorOf(request),
        BigInt(request.params.id),
        before === undefined ? undefined : BigInt(before),
      );
      return ok(request, {
        id: toSafeNumber(thread.id),
        user: { ...thread.user, id: toSafeNumber(thread.user.id) },
        messages: thread.messages.map(toWire),
        hasMore: thread.hasMore,
      });
    },
  });

  api.post('/support/conversations/:id/reply', {
    config: { staff: 'support.chat', errors: REPLY_ERRORS },
    schema: {
      tags,
      operationId: 'adminReplyConversation',
      summary: 'Answer the user; their open app shows it at once (audited)',
      params: SupportIdParams,
      body: SupportReplyBody,
      response: { 200: envelope(ChatMessageWire) },
    },
    handler: async (request) =>
      ok(
        request,
        toWire(await support.reply(staffActorOf(request), BigInt(request.params.id), request.body.body)),
      ),
  });

  api.get('/support/images/:name', {
    config: { staff: 'support.chat', errors: IMAGE_FOR_STAFF_ERRORS },
    schema: {
      tags,
      operationId: 'adminGetChatImage',
      summary: 'A picture sent in a conversation, as a data URL',
      params: SupportImageParams,
      querystring: SupportQuery,
      response: { 200: envelope(z.object({ dataUrl: z.string() })) },
    },
    handler: async (request, reply) => {
      const bytes = await support.imageForStaff(request.params.name);
      reply.header('cache-control', 'no-store');
      return ok(request, { dataUrl: `data:image/webp;base64,${bytes.toString('base64')}` });
    },
  });
}
