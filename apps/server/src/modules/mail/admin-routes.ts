import { OutboxList, OutboxQuery } from '@bourse/shared/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope, ok } from '../../platform/http.ts';
import { staffActorOf } from '../../platform/staff-actor.ts';
import { toSafeNumber } from '../../platform/time.ts';
import type { MailService } from './service.ts';

/** `/admin-api/mail/outbox`: the mail Bourse wrote, newest first (each reading audited). */
export async function mailAdminRoutes(app: FastifyInstance, deps: { mail: MailService }): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['staff-accounts'];

  api.get('/mail/outbox', {
    config: { staff: 'mail.read' },
    schema: {
      tags,
      operationId: 'adminListOutbox',
      summary: 'Mail written by Bourse, newest first (the delivery when no SMTP is configured; audited)',
      querystring: OutboxQuery,
      response: { 200: envelope(OutboxList) },
    },
    handler: async (request) => {
      const list = await deps.mail.outboxForStaff(staffActorOf(request), {
        recipient: request.query.recipient,
      });
      return ok(request, {
        list: list.map((m) => ({
          ...m,
          id: toSafeNumber(m.id),
          userId: m.userId === null ? null : toSafeNumber(m.userId),
        })),
      });
    },
  });
}
