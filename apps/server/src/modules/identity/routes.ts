import { IdentityState, IdentitySubmitBody, IdentityUploadResult, TokenOnly } from '@bourse/shared/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth-hook.ts';
import { envelope, ok } from '../../platform/http.ts';
import { filePart } from '../../platform/uploads.ts';
import { type IdentityService, SUBMIT_ERRORS, UPLOAD_ERRORS } from './service.ts';

const UploadBody = z.object({
  image: filePart('A photo of one side of the document (JPEG, PNG, WebP or GIF, at most 5 MiB).'),
  token: z.string().max(200).optional(),
});

/** `/apiv/user/authrz`, `/apiv/user/upauthimg`, `/apiv/user/upauthrz`: the caller's real-name verification. */
export async function identityRoutes(
  app: FastifyInstance,
  options: { identity: IdentityService },
): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { identity } = options;
  const tags = ['identity'];
  const config = { auth: true };

  api.get('/user/authrz', {
    schema: {
      tags,
      operationId: 'getIdentity',
      summary: 'The caller’s real-name verification: state, masked name, rejection reason',
      querystring: TokenOnly,
      response: { 200: envelope(IdentityState) },
    },
    config,
    handler: async (request) => {
      const state = await identity.state(requireAuth(request).userId);
      return ok(request, {
        status: state.status,
        type: state.type,
        realname: state.realName,
        country: state.country,
        submitted_at: state.submittedAt,
        reviewed_at: state.reviewedAt,
        reason: state.reason,
      });
    },
  });

  api.post('/user/upauthimg', {
    schema: {
      tags,
      operationId: 'uploadIdentityImage',
      summary: 'Upload one identity image (multipart `image`); stored privately, answers its handle',
      body: UploadBody,
      response: { 200: envelope(IdentityUploadResult) },
    },
    config: {
      ...config,
      upload: true,
      errors: UPLOAD_ERRORS,
    },
    handler: async (request) => {
      const image = await identity.upload(requireAuth(request), request.body.image);
      return ok(request, { image });
    },
  });

  api.post('/user/upauthrz', {
    schema: {
      tags,
      operationId: 'submitIdentity',
      summary:
        'Submit real-name verification: type, real name, country or region, mobile, document number (kept only as a keyed hash), front and back images',
      body: IdentitySubmitBody,
      response: { 200: envelope(z.null()) },
    },
    config: {
      ...config,
      errors: SUBMIT_ERRORS,
    },
    handler: async (request) => {
      const b = request.body;
      await identity.submit(requireAuth(request), {
        type: b.type,
        realName: b.realname,
        country: b.country,
        mobile: b.mobile,
        documentNumber: b.idno,
        front: b.front,
        back: b.back,
      });
      return ok(request, null, 'IDENTITY_SUBMITTED');
    },
  });
}
