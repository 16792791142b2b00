import { LOCALES } from '@bourse/i18n';
import { AppError } from '@bourse/shared';
import { BroadcastBody, BroadcastList } from '@bourse/shared/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../platform/db.ts';
import { envelope, ok, TokenQuery } from '../../platform/http.ts';
import { staffActorOf } from '../../platform/staff-actor.ts';
import { toSafeNumber } from '../../platform/time.ts';
import type { AuditService } from '../audit/service.ts';
import type { NoticesService } from './service.ts';

/** `/admin-api/notices/broadcasts`: broadcasts sent, and a new one to every account (audited). */
export async function noticesAdminRoutes(
  app: FastifyInstance,
  deps: { db: Db; audit: AuditService; notices: NoticesService },
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
    config: { staff: 'notices.broadcast', errors: ['PARAM_ERROR'] },
    schema: {
      tags,
      operationId: 'adminSendBroadcast',
      summary: 'Send a notice to every account, with a title and body per locale (ja-JP required; audited)',
      body: BroadcastBody,
      response: { 200: envelope(z.object({ id: z.number().int() })) },
    },
    handler: async (request) => {
      const { notices } = deps;
      const staff = staffActorOf(request);
      const texts = Object.fromEntries(
        Object.entries(request.body.texts).filter(([locale]) =>
          (LOCALES as readonly string[]).includes(locale),
        ),
      );
      if (!texts['ja-JP']) throw new AppError('PARAM_ERROR');
      const id = await deps.db.transaction().execute(async (trx) => {
        const created = await notices.broadcast(trx, texts, staff.staffId);
        await deps.audit.record(trx, {
          actor: staff.actor,
          action: 'notices.broadcast',
          target: `notice:${created}`,
          after: { locales: Object.keys(texts), title: texts['ja-JP']?.title },
          ip: staff.ip,
        });
        return created;
      });
      notices.changed(null);
      return ok(request, { id: toSafeNumber(id) });
    },
  });
}
