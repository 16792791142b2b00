import {
  IdentityApproveBody,
  IdentityIdParams,
  IdentityImageParams,
  IdentityPolicy,
  IdentityQueue,
  IdentityQueueQuery,
  IdentityRejectBody,
  IdentityReview,
} from '@bourse/shared/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok, TokenQuery } from '../../platform/http.ts';
import { staffActorOf } from '../../platform/staff-actor.ts';
import { toSafeNumber } from '../../platform/time.ts';
import {
  DECIDE_APPROVE_ERRORS,
  DECIDE_REJECT_ERRORS,
  type IdentityService,
  IMAGE_ERRORS,
  SET_POLICY_ERRORS,
  VIEW_ERRORS,
} from './service.ts';

type Review = Awaited<ReturnType<IdentityService['view']>>;
function toWire(r: Review) {
  return { ...r, id: toSafeNumber(r.id), userId: toSafeNumber(r.userId) };
}

/**
 * `/admin-api/identity/*`: the compliance review queue, audited views of a submission and its
 * images, decisions, and the verification policy.
 */
export async function identityAdminRoutes(
  app: FastifyInstance,
  options: { identity: IdentityService },
): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['staff-accounts'];
  const { identity } = options;

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
      const { list, hasMore } = await identity.queue(request.query.status, request.query.page);
      return ok(request, { list: list.map(toWire), hasMore });
    },
  });

  api.get('/identity/:id', {
    config: { staff: 'identity.read', errors: VIEW_ERRORS },
    schema: {
      tags,
      operationId: 'adminGetIdentity',
      summary: 'One submission with its personal data (audited)',
      params: IdentityIdParams,
      querystring: TokenQuery,
      response: { 200: envelope(IdentityReview) },
    },
    handler: async (request) =>
      ok(request, toWire(await identity.view(staffActorOf(request), BigInt(request.params.id)))),
  });

  api.get('/identity/:id/image/:side', {
    config: { staff: 'identity.read', errors: IMAGE_ERRORS },
    schema: {
      tags,
      operationId: 'adminGetIdentityImage',
      summary: 'One identity image as a data URL (each read audited; never served publicly)',
      params: IdentityImageParams,
      querystring: TokenQuery,
      response: { 200: envelope(z.object({ dataUrl: z.string() })) },
    },
    handler: async (request, reply) => {
      const bytes = await identity.image(
        staffActorOf(request),
        BigInt(request.params.id),
        request.params.side,
      );
      reply.header('cache-control', 'no-store');
      return ok(request, { dataUrl: `data:image/webp;base64,${bytes.toString('base64')}` });
    },
  });

  api.post('/identity/:id/approve', {
    config: {
      staff: 'identity.review',
      errors: DECIDE_APPROVE_ERRORS,
    },
    schema: {
      tags,
      operationId: 'adminApproveIdentity',
      summary:
        'Approve a submission under review, confirming the document number and issuing country read on the image; the user is notified (audited)',
      params: IdentityIdParams,
      body: IdentityApproveBody,
      response: { 200: envelope(IdentityReview) },
    },
    handler: async (request) =>
      ok(
        request,
        toWire(
          await identity.decide(staffActorOf(request), BigInt(request.params.id), {
            approve: true,
            documentNumber: request.body.idno,
            country: request.body.country,
          }),
        ),
      ),
  });

  api.post('/identity/:id/reject', {
    config: { staff: 'identity.review', errors: DECIDE_REJECT_ERRORS },
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
          await identity.decide(staffActorOf(request), BigInt(request.params.id), {
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
    handler: async (request) => ok(request, await identity.policy()),
  });

  api.post('/identity-policy', {
    config: { staff: 'identity.review', errors: SET_POLICY_ERRORS },
    schema: {
      tags,
      operationId: 'adminSetIdentityPolicy',
      summary: 'Set which actions need a verified identity (audited)',
      body: IdentityPolicy,
      response: { 200: envelope(IdentityPolicy) },
    },
    handler: async (request) => {
      await identity.setPolicy(staffActorOf(request), request.body);
      return ok(request, await identity.policy());
    },
  });
}
