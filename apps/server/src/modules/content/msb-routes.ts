import { MsbCertificate as MsbCertificateAnswer } from '@bourse/shared/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../platform/db.ts';
import { envelope, ok, TokenQuery } from '../../platform/http.ts';
import { staffActorOf } from '../../platform/staff-actor.ts';
import { type FileStore, filePart, ImageUploads } from '../../platform/uploads.ts';
import type { AuditService } from '../audit/service.ts';
import type { SettingsService } from '../settings/service.ts';
import { MsbCertificate, SET_MSB_IMAGE_ERRORS } from './msb-certificate.ts';

/**
 * The MSB certificate with its public route; its images go through the platform's upload checks
 * into `files`, the public uploads. Answers the service for the back-office routes.
 */
export function registerMsbCertificate(
  api: FastifyInstance,
  deps: { db: Db; settings: SettingsService; audit: AuditService; files: FileStore },
): MsbCertificate {
  const { files, ...rest } = deps;
  const msb = new MsbCertificate({ ...rest, uploads: new ImageUploads({ store: files }) });
  api.register(msbRoutes, { msb });
  return msb;
}

/** `/apiv/Index/msbcert`: the MSB certificate image shown on `/Index/msb` (public, like the page). */
async function msbRoutes(app: FastifyInstance, options: { msb: MsbCertificate }): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get('/Index/msbcert', {
    schema: {
      tags: ['content'],
      operationId: 'getMsbCertificate',
      summary: "The operator's MSB registration certificate image ('' when none is set)",
      querystring: TokenQuery,
      response: { 200: envelope(MsbCertificateAnswer) },
    },
    handler: async (request) => ok(request, { image_url: await options.msb.imageUrl() }),
  });
}

/** `/admin-api/content-msb*`: set, replace or remove the MSB certificate image (audited). */
export async function msbAdminRoutes(app: FastifyInstance, options: { msb: MsbCertificate }): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['staff-content'];
  const { msb } = options;

  api.get('/content-msb', {
    config: { staff: 'content.read' },
    schema: {
      tags,
      operationId: 'adminGetMsbCertificate',
      summary: 'The MSB certificate image',
      querystring: TokenQuery,
      response: { 200: envelope(MsbCertificateAnswer) },
    },
    handler: async (request) => ok(request, { image_url: await msb.imageUrl() }),
  });

  api.post('/content-msb', {
    config: { staff: 'content.manage', upload: true, errors: SET_MSB_IMAGE_ERRORS },
    schema: {
      tags,
      operationId: 'adminSetMsbCertificate',
      summary: 'Set or replace the MSB certificate image (multipart: image; JPEG, PNG, WebP or GIF; audited)',
      consumes: ['multipart/form-data'],
      body: z.object({ image: filePart('The certificate image (JPEG, PNG, WebP or GIF, at most 5 MiB)') }),
      response: { 200: envelope(MsbCertificateAnswer) },
    },
    handler: async (request) =>
      ok(request, { image_url: await msb.setImage(staffActorOf(request), request.body.image) }),
  });

  api.post('/content-msb/delete', {
    config: { staff: 'content.manage' },
    schema: {
      tags,
      operationId: 'adminRemoveMsbCertificate',
      summary: 'Remove the MSB certificate image (audited)',
      response: { 200: envelope(MsbCertificateAnswer) },
    },
    handler: async (request) => {
      await msb.removeImage(staffActorOf(request));
      return ok(request, { image_url: '' });
    },
  });
}
