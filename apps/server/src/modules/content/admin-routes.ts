import { AppError } from '@bourse/shared';
import {
  AdminClaims,
  AdminContentBody,
  AdminContentIdParams,
  AdminContentItem,
  AdminContentList,
  AdminContentQuery,
} from '@bourse/shared/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok, TokenQuery } from '../../platform/http.ts';
import { staffActorOf } from '../../platform/staff-actor.ts';
import { toSafeNumber } from '../../platform/time.ts';
import type { ContentModule } from './module.ts';
import { msbAdminRoutes } from './msb-routes.ts';
import { REMOVE_ERRORS, SAVE_ERRORS, SET_CLAIMS_ERRORS } from './service.ts';

/**
 * `/admin-api/content*`: announcements, help articles and the operator's pages (each write
 * audited, bodies sanitised by the content module), the marketing claims and the MSB certificate.
 */
export async function contentAdminRoutes(
  app: FastifyInstance,
  options: { content: ContentModule },
): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['staff-content'];
  const content = options.content.service;
  await app.register(msbAdminRoutes, { msb: options.content.msb });
  const byId = async (id: bigint) => {
    const item = (await content.listForStaff()).find((row) => row.id === id);
    if (!item) throw new AppError('RECORD_NOT_FOUND');
    return { ...item, id: toSafeNumber(item.id) };
  };

  api.get('/content', {
    config: { staff: 'content.read' },
    schema: {
      tags,
      operationId: 'adminListContent',
      summary: 'Every announcement, help article and page, drafts included, newest first',
      querystring: AdminContentQuery,
      response: { 200: envelope(AdminContentList) },
    },
    handler: async (request) => {
      const list = await content.listForStaff(request.query.kind);
      return ok(request, { list: list.map((item) => ({ ...item, id: toSafeNumber(item.id) })) });
    },
  });

  api.post('/content', {
    config: { staff: 'content.manage', errors: SAVE_ERRORS },
    schema: {
      tags,
      operationId: 'adminCreateContent',
      summary: 'Write an item; its bodies are sanitised and a ja-JP text is required (audited)',
      body: AdminContentBody,
      response: { 200: envelope(AdminContentItem) },
    },
    handler: async (request) => {
      const id = await content.save(staffActorOf(request), request.body);
      return ok(request, await byId(id));
    },
  });

  api.post('/content/:id', {
    config: { staff: 'content.manage', errors: SAVE_ERRORS },
    schema: {
      tags,
      operationId: 'adminUpdateContent',
      summary: 'Rewrite an item: state, pinning, publish time and every locale’s text (audited)',
      params: AdminContentIdParams,
      body: AdminContentBody,
      response: { 200: envelope(AdminContentItem) },
    },
    handler: async (request) => {
      const id = await content.save(staffActorOf(request), request.body, BigInt(request.params.id));
      return ok(request, await byId(id));
    },
  });

  api.post('/content/:id/delete', {
    config: { staff: 'content.manage', errors: REMOVE_ERRORS },
    schema: {
      tags,
      operationId: 'adminDeleteContent',
      summary: 'Delete an item and its texts (audited)',
      params: AdminContentIdParams,
      response: { 200: envelope(z.null()) },
    },
    handler: async (request) => {
      await content.remove(staffActorOf(request), BigInt(request.params.id));
      return ok(request, null);
    },
  });

  api.get('/content-claims', {
    config: { staff: 'content.read' },
    schema: {
      tags,
      operationId: 'adminGetClaims',
      summary: 'The marketing claims, and whether published proof of reserves backs a reserve claim',
      querystring: TokenQuery,
      response: { 200: envelope(AdminClaims) },
    },
    handler: async (request) => ok(request, await content.configuredClaims()),
  });

  api.post('/content-claims', {
    config: { staff: 'content.manage', errors: SET_CLAIMS_ERRORS },
    schema: {
      tags,
      operationId: 'adminSetClaims',
      summary: "Make or withdraw ('') the leverage and reserve claims (audited)",
      body: AdminClaims,
      response: { 200: envelope(AdminClaims) },
    },
    handler: async (request) => {
      await content.setClaims(staffActorOf(request), {
        leverageMax: request.body.leverageMax.trim(),
        reserveBtc: request.body.reserveBtc.trim(),
      });
      return ok(request, await content.configuredClaims());
    },
  });
}
