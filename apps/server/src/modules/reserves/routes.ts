import { AppError } from '@bourse/shared';
import { InclusionProof, ProofQuery, ReserveStatement, SnapshotList } from '@bourse/shared/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireAuth } from '../../platform/auth-hook.ts';
import { envelope, ok } from '../../platform/http.ts';
import type { Limit } from '../../platform/rate-limit.ts';
import { PROOF_ERRORS, type ReservesService, STATEMENT_ERRORS } from './service.ts';

/** `/apiv/por/*`: the published snapshot headers, and the caller's own inclusion proof. */
export async function reservesRoutes(
  app: FastifyInstance,
  options: { reserves: ReservesService; proofLimit: Limit },
): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { reserves, proofLimit } = options;
  const tags = ['reserves'];

  api.get('/por/snapshots', {
    schema: {
      tags,
      operationId: 'listReserveSnapshots',
      summary: 'The signed proof-of-reserves snapshot headers, newest first, and the publication key',
      response: { 200: envelope(SnapshotList) },
    },
    handler: async (request) =>
      ok(request, {
        public_key: reserves.publicKey,
        fingerprint: reserves.fingerprint,
        list: await reserves.headers(),
      }),
  });

  api.get('/por/proof', {
    config: { auth: true, errors: ['TOO_MANY_REQUESTS', ...PROOF_ERRORS] },
    schema: {
      tags,
      operationId: 'getMyReserveProof',
      summary:
        'The caller’s own inclusion proof in a snapshot (the latest when none is named); rate-limited per session',
      querystring: ProofQuery,
      response: { 200: envelope(InclusionProof) },
    },
    handler: async (request) => {
      const auth = requireAuth(request);
      // why: per session, so one account cannot scrape many proofs (the design's section 10).
      if (!(await proofLimit.take(`session:${auth.sessionId}`))) throw new AppError('TOO_MANY_REQUESTS');
      const id = request.query.snapshot_id;
      return ok(request, await reserves.proof(auth.userId, id === undefined ? undefined : BigInt(id)));
    },
  });

  api.get('/por/statement', {
    config: { auth: true, errors: STATEMENT_ERRORS },
    schema: {
      tags,
      operationId: 'getMyReserveStatement',
      summary:
        'The caller’s counted balances per asset at a snapshot’s ledger sequence, from their statement',
      querystring: ProofQuery,
      response: { 200: envelope(ReserveStatement) },
    },
    handler: async (request) => {
      const id = request.query.snapshot_id;
      return ok(
        request,
        await reserves.statement(requireAuth(request).userId, id === undefined ? undefined : BigInt(id)),
      );
    },
  });
}
