import { PlatformHalt, ResumeBody } from '@bourse/shared/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope, ok } from '../../platform/http.ts';
import { staffActorOf } from '../../platform/staff-actor.ts';
import { toSafeNumber } from '../../platform/time.ts';
import { CLEAR_HALT_ERRORS, type PlatformHaltService } from './service.ts';

/** `/admin-api/platform/resume`: staff clear a platform halt, with a reason (audited). */
export async function haltAdminRoutes(
  app: FastifyInstance,
  deps: { halt: PlatformHaltService },
): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post('/platform/resume', {
    config: { staff: 'platform.resume', errors: CLEAR_HALT_ERRORS },
    schema: {
      tags: ['staff-accounts'],
      operationId: 'adminResumePlatform',
      summary:
        'Clear the platform halt after a failed ledger check: the check runs again first and must pass (audited, with the reason)',
      body: ResumeBody,
      response: { 200: envelope(PlatformHalt) },
    },
    handler: async (request) => {
      const cleared = await deps.halt.clearAsStaff(staffActorOf(request), { reason: request.body.reason });
      return ok(request, { ...cleared, id: toSafeNumber(cleared.id) });
    },
  });
}
