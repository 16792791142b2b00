import { BroadcastBody, BroadcastList } from '@bourse/shared/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok, TokenQuery } from '../../platform/http.ts';
import { staffActorOf } from '../../platform/staff-actor.ts';
import { toSafeNumber } from '../../platform/time.ts';
import { BROADCAST_ERRORS, type NoticesService } from './service.ts';

/** `/admin-api/notices/broadcasts`: broadcasts sent, and a new one to every account (audited). */
export async function noticesAdminRoutes(
  app: FastifyInstance,
  deps: { notices: NoticesService },
): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['staff-accounts'];

  api.get('/notices/broadcasts', {
    config: { staff: 'notices.broadcast' },
    schema: {
      tags,
      operationId: 'adminListBroadcasts',
      summary: 'Broadcast notices sent, newest first',
      querystring: TokenQuery,
      response: { 200: envelope(BroadcastList) },
    },
    handler: async (request) => {
      const list = await deps.notices.listBroadcasts();
      return ok(request, { list: list.map((b) => ({ ...b, id: toSafeNumber(b.id) })) });
    },
  });

  api.post('/notices/broadcasts', {
    config: { staff: 'notices.broadcast', errors: BROADCAST_ERRORS },
    schema: {
      tags,
      operationId: 'adminSendBroadcast',
      summary: 'Send a notice to every account, with a title and body per locale (ja-JP required; audited)',
      body: BroadcastBody,
      response: { 200: envelope(z.object({ id: z.number().int() })) },
    },
    handler: async (request) => {
      const id = await deps.notices.broadcastAsStaff(staffActorOf(request), { texts: request.body.texts });
      return ok(request, { id: toSafeNumber(id) });
    },
  });
}
