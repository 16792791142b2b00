import type { FastifyRequest } from 'fastify';

/**
 * Who acts in the back office, as every staff use case takes it: the staff member's id and name,
 * the audit log's actor (`staff:<id>`) and the address the request came from. The `/admin-api`
 * hook resolves it from the staff session; each domain's staff use cases write it into their
 * audit records.
 */
export interface StaffActor {
  staffId: bigint;
  username: string;
  /** `staff:<id>`, the audit log's actor. */
  actor: string;
  ip: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the `/admin-api` hook before a route behind a staff session runs; null elsewhere. */
    staff: StaffActor | null;
  }
}

/**
 * The staff member acting in a route behind the `/admin-api` hook, reduced to the four fields the
 * domains' use cases take (the session's own fields stay with the staff module).
 */
export function staffActorOf(request: FastifyRequest): StaffActor {
  const staff = request.staff;
  if (!staff) throw new Error('route is not behind the staff hook');
  return { staffId: staff.staffId, username: staff.username, actor: staff.actor, ip: staff.ip };
}
