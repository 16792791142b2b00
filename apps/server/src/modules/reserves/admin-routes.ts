import { AppError, parseAmount } from '@bourse/shared';
import {
  AddReserveBody,
  AdminSnapshotList,
  PublishResult,
  ReserveEntry,
  SnapshotIdParams,
} from '@bourse/shared/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope, ok, TokenQuery } from '../../platform/http.ts';
import { staffActorOf } from '../../platform/staff-actor.ts';
import { toSafeNumber } from '../../platform/time.ts';
import { ADD_RESERVE_ERRORS, PUBLISH_ERRORS, type ReservesService } from './service.ts';

/**
 * `/admin-api/reserves/*`: proof-of-reserves snapshots (pending and published) with their reserve
 * entries and the publication key's fingerprint; attaching an entry (its signature is checked
 * against the snapshot's message) and publishing, both audited.
 */
export async function reservesAdminRoutes(
  app: FastifyInstance,
  options: { reserves: ReservesService },
): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['staff-reserves'];
  const reserves = options.reserves;

  api.get('/reserves/snapshots', {
    config: { staff: 'reserves.read' },
    schema: {
      tags,
      operationId: 'adminListReserveSnapshots',
      summary: 'Snapshots (pending and published), their reserve entries and the publication key',
      querystring: TokenQuery,
      response: { 200: envelope(AdminSnapshotList) },
    },
    handler: async (request) => {
      const service = reserves;
      const list = await service.listForStaff();
      return ok(request, {
        publicKey: service.publicKey,
        fingerprint: service.fingerprint,
        list: list.map((s) => ({ ...s, id: toSafeNumber(s.id), ledgerSeq: toSafeNumber(s.ledgerSeq) })),
      });
    },
  });

  api.post('/reserves/snapshots/:id/entries', {
    config: {
      staff: 'reserves.manage',
      errors: ADD_RESERVE_ERRORS,
    },
    schema: {
      tags,
      operationId: 'adminAddReserveEntry',
      summary: 'Attach a reserve entry to a pending snapshot; its signature must verify (audited)',
      params: SnapshotIdParams,
      body: AddReserveBody,
      response: { 200: envelope(ReserveEntry) },
    },
    handler: async (request) => {
      const body = request.body;
      const entry = await reserves.addReserve(staffActorOf(request), BigInt(request.params.id), {
        asset: body.asset,
        chain: body.chain,
        address: body.address,
        balance: parseAmount(body.balance),
        height: BigInt(body.height),
        blockHash: body.blockHash,
        sig: body.sig,
      });
      return ok(request, entry);
    },
  });

  api.post('/reserves/snapshots/:id/publish', {
    config: { staff: 'reserves.manage', errors: PUBLISH_ERRORS },
    schema: {
      tags,
      operationId: 'adminPublishReserveSnapshot',
      summary: 'Sign and publish the pending snapshots up to this one, oldest first (audited)',
      params: SnapshotIdParams,
      response: { 200: envelope(PublishResult) },
    },
    handler: async (request) => {
      const published = await reserves.publish({
        upTo: BigInt(request.params.id),
        staff: staffActorOf(request),
      });
      if (published === 0) throw new AppError('POR_NO_SNAPSHOT');
      return ok(request, { published });
    },
  });
}
