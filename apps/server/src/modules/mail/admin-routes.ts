import { OutboxList, OutboxQuery } from '@bourse/shared/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../platform/db.ts';
import { envelope, ok } from '../../platform/http.ts';
import { staffActorOf } from '../../platform/staff-actor.ts';
import { toSafeNumber } from '../../platform/time.ts';
import type { AuditService } from '../audit/service.ts';
import type { MailService } from './service.ts';

/** `/admin-api/mail/outbox`: the mail Bourse wrote, newest first (each reading audited). */
export async function mailAdminRoutes(
  app: FastifyInstance,
  deps: { db: Db; audit: AuditService; mail: MailService },
): Promise<void> {
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
      const staff = staffActorOf(request);
      const list = await deps.mail.outbox(request.query.recipient);
      // why: mail holds one-time codes; who read it is on record.
      await deps.audit.record(deps.db, {
        actor: staff.actor,
        action: 'mail.outbox_read',
        target: request.query.recipient ? `mail:${request.query.recipient}` : 'mail:*',
        ip: staff.ip,
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
