import { LOCALES } from '@bourse/i18n';
import { AppError } from '@bourse/shared';
import {
  BroadcastBody,
  BroadcastList,
  IdentityApproveBody,
  IdentityIdParams,
  IdentityImageParams,
  IdentityPolicy,
  IdentityQueue,
  IdentityQueueQuery,
  IdentityRejectBody,
  IdentityReview,
  OutboxList,
  OutboxQuery,
} from '@bourse/shared/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../platform/db.ts';
import { envelope, ok } from '../../platform/http.ts';
import { toSafeNumber } from '../../platform/time.ts';
import type { AuditService } from '../audit/service.ts';
import type { IdentityService } from '../identity/service.ts';
import type { MailService } from '../mail/service.ts';
import type { NoticesService } from '../notices/service.ts';
import { requireStaff, staffRef } from './hook.ts';

const TokenQuery = z.object({ token: z.string().max(200).optional() });

export interface AccountBackOfficeDeps {
  db: Db;
  audit: AuditService;
  identity: () => IdentityService | undefined;
  notices: () => NoticesService | undefined;
  mail: () => MailService | undefined;
}

function present<T>(get: () => T | undefined): T {
  const service = get();
  if (!service) throw new AppError('NOT_FOUND');
  return service;
}

type Review = Awaited<ReturnType<IdentityService['view']>>;
function toWire(r: Review) {
  return { ...r, id: toSafeNumber(r.id), userId: toSafeNumber(r.userId) };
}

/**
 * `/admin-api/identity/*` (the compliance review queue, audited views of a submission and its
 * images, decisions, and the verification policy), `/admin-api/notices/broadcasts` and
 * `/admin-api/mail/outbox`.
 */
export async function accountStaffRoutes(app: FastifyInstance, deps: AccountBackOfficeDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['staff-accounts'];
  const identity = () => present(deps.identity);

  api.get('/identity', {
    config: { staff: 'identity.read' },
    schema: {
      tags,
      operationId: 'adminListIdentities',
      summary: 'Submissions by state: under review oldest first, decided newest first',
      querystring: IdentityQueueQuery,
      response: { 200: envelope(IdentityQueue) },
    },
    handler: async (request) => {
      const { list, hasMore } = await identity().queue(request.query.status, request.query.page);
      return ok(request, { list: list.map(toWire), hasMore });
    },
  });

  api.get('/identity/:id', {
    config: { staff: 'identity.read', errors: ['RECORD_NOT_FOUND'] },
    schema: {
      tags,
      operationId: 'adminGetIdentity',
      summary: 'One submission with its personal data (audited)',
      params: IdentityIdParams,
      querystring: TokenQuery,
      response: { 200: envelope(IdentityReview) },
    },
    handler: async (request) =>
      ok(request, toWire(await identity().view(staffRef(request), BigInt(request.params.id)))),
  });

  api.get('/identity/:id/image/:side', {
    config: { staff: 'identity.read', errors: ['RECORD_NOT_FOUND'] },
    schema: {
      tags,
      operationId: 'adminGetIdentityImage',
      summary: 'One identity image as a data URL (each read audited; never served publicly)',
      params: IdentityImageParams,
      querystring: TokenQuery,
      response: { 200: envelope(z.object({ dataUrl: z.string() })) },
    },
    handler: async (request, reply) => {
      const bytes = await identity().image(staffRef(request), BigInt(request.params.id), request.params.side);
      reply.header('cache-control', 'no-store');
      return ok(request, { dataUrl: `data:image/webp;base64,${bytes.toString('base64')}` });
    },
  });

  api.post('/identity/:id/approve', {
    config: {
      staff: 'identity.review',
      errors: [
        'RECORD_NOT_FOUND',
        'ILLEGAL_OPERATION',
        'DOCUMENT_NUMBER_INVALID',
        'DOCUMENT_NUMBER_MISMATCH',
      ],
    },
    schema: {
      tags,
      operationId: 'adminApproveIdentity',
      summary:
        'Approve a submission under review, confirming the document number read on the image; the user is notified (audited)',
      params: IdentityIdParams,
      body: IdentityApproveBody,
      response: { 200: envelope(IdentityReview) },
    },
    handler: async (request) =>
      ok(
        request,
        toWire(
          await identity().decide(staffRef(request), BigInt(request.params.id), {
            approve: true,
            documentNumber: request.body.idno,
          }),
        ),
      ),
  });

  api.post('/identity/:id/reject', {
    config: { staff: 'identity.review', errors: ['RECORD_NOT_FOUND', 'ILLEGAL_OPERATION', 'PARAM_MISSING'] },
    schema: {
      tags,
      operationId: 'adminRejectIdentity',
      summary: 'Reject a submission under review with a reason the user sees (audited)',
      params: IdentityIdParams,
      body: IdentityRejectBody,
      response: { 200: envelope(IdentityReview) },
    },
    handler: async (request) =>
      ok(
        request,
        toWire(
          await identity().decide(staffRef(request), BigInt(request.params.id), {
            approve: false,
            reason: request.body.reason,
          }),
        ),
      ),
  });

  api.get('/identity-policy', {
    config: { staff: 'identity.read' },
    schema: {
      tags,
      operationId: 'adminGetIdentityPolicy',
      summary: 'Which actions need a verified identity',
      querystring: TokenQuery,
      response: { 200: envelope(IdentityPolicy) },
    },
    handler: async (request) => ok(request, await identity().policy()),
  });

  api.post('/identity-policy', {
    config: { staff: 'identity.review', errors: ['CONFIG_AMOUNT_INVALID'] },
    schema: {
      tags,
      operationId: 'adminSetIdentityPolicy',
      summary: 'Set which actions need a verified identity (audited)',
      body: IdentityPolicy,
      response: { 200: envelope(IdentityPolicy) },
    },
    handler: async (request) => {
      await identity().setPolicy(staffRef(request), request.body);
      return ok(request, await identity().policy());
    },
  });

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
      const list = await present(deps.notices).listBroadcasts();
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
      const notices = present(deps.notices);
      const staff = requireStaff(request);
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
      const staff = requireStaff(request);
      const list = await present(deps.mail).outbox(request.query.recipient);
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
