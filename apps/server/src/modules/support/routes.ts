import {
  ChatHistory,
  ChatHistoryQuery,
  ChatImageQuery,
  ChatMessageWire,
  ChatSendBody,
  TokenOnly,
} from '@bourse/shared/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth-hook.ts';
import { envelope, ok } from '../../platform/http.ts';
import { toSafeNumber } from '../../platform/time.ts';
import { filePart } from '../../platform/uploads.ts';
import {
  type ChatMessage,
  IMAGE_FOR_USER_ERRORS,
  SEND_IMAGE_ERRORS,
  SEND_TEXT_ERRORS,
  type SupportService,
} from './service.ts';

export function toWire(message: ChatMessage): ChatMessageWire {
  return {
    id: toSafeNumber(message.id),
    sender: message.sender,
    body: message.body,
    image: message.image,
    staff_name: message.staffName,
    created_at: message.createdAt,
  };
}

const ImageBody = z.object({
  image: filePart('A picture for support (JPEG, PNG, WebP or GIF, at most 5 MiB).'),
  token: z.string().max(200).optional(),
});

/** `/apiv/user/chat*`: the caller's support conversation. */
export async function supportRoutes(
  app: FastifyInstance,
  options: { support: SupportService },
): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { support } = options;
  const tags = ['support'];
  const config = { auth: true };

  api.get('/user/chat', {
    schema: {
      tags,
      operationId: 'getChat',
      summary:
        'The caller’s support messages, newest first (`before`: older than that id), and the unread count',
      querystring: ChatHistoryQuery,
      response: { 200: envelope(ChatHistory) },
    },
    config,
    handler: async (request) => {
      const before = request.query.before;
      const history = await support.history(
        requireAuth(request).userId,
        before === undefined ? undefined : BigInt(before),
      );
      return ok(request, {
        messages: history.messages.map(toWire),
        unread: history.unread,
        has_more: history.hasMore,
      });
    },
  });

  api.post('/user/chatsend', {
    schema: {
      tags,
      operationId: 'sendChat',
      summary: 'Send a text to support (at most 2000 characters; limited per user)',
      body: ChatSendBody,
      response: { 200: envelope(ChatMessageWire) },
    },
    config: { ...config, errors: SEND_TEXT_ERRORS },
    handler: async (request) =>
      ok(request, toWire(await support.sendText(requireAuth(request), request.body.body))),
  });

  api.post('/user/chatimage', {
    schema: {
      tags,
      operationId: 'sendChatImage',
      summary: 'Send a picture to support (multipart `image`; kept private to the conversation)',
      body: ImageBody,
      response: { 200: envelope(ChatMessageWire) },
    },
    config: {
      ...config,
      upload: true,
      errors: SEND_IMAGE_ERRORS,
    },
    handler: async (request) =>
      ok(request, toWire(await support.sendImage(requireAuth(request), request.body.image))),
  });

  api.post('/user/chatread', {
    schema: {
      tags,
      operationId: 'readChat',
      summary: 'Mark support’s messages read',
      body: TokenOnly,
      response: { 200: envelope(z.null()) },
    },
    config,
    handler: async (request) => {
      await support.markReadByUser(requireAuth(request).userId);
      return ok(request, null);
    },
  });

  api.get('/user/chatimg', {
    schema: {
      tags,
      operationId: 'getChatImage',
      summary: 'A picture of the caller’s conversation (image/webp); anyone else’s answers NOT_FOUND',
      querystring: ChatImageQuery,
    },
    config: { ...config, errors: IMAGE_FOR_USER_ERRORS },
    handler: async (request, reply) => {
      const bytes = await support.imageForUser(requireAuth(request).userId, request.query.name);
      return reply
        .header('content-type', 'image/webp')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'private, no-store')
        .send(bytes);
    },
  });
}
