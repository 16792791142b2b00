import { AppError } from '@bourse/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readToken } from '../../platform/auth-hook.ts';
import { clientOf } from '../../platform/http.ts';
import { PERMISSIONS, type Permission } from './permissions.ts';
import type { StaffContext, StaffService } from './service.ts';

/** What a back-office route needs: a permission, just a staff session, or nothing (login steps). */
export type StaffAccess = Permission | 'session' | 'public';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `/admin-api` only: the permission the route needs; every route there must declare one. */
    staff?: StaffAccess;
  }
}

/**
 * The `/admin-api` auth hook, apart from the customers' one: every route must declare its access
 * (a route without one fails at start), the staff session is resolved and the role checked before
 * the route's schema or handler runs.
 */
export function registerStaffHook(scope: FastifyInstance, staffService: StaffService): void {
  scope.decorateRequest('staff', null);
  scope.addHook('onRoute', (route) => {
    const access = (route.config as { staff?: StaffAccess } | undefined)?.staff;
    const isKnown =
      access === 'public' ||
      access === 'session' ||
      (PERMISSIONS as readonly string[]).includes(access ?? '');
    if (!isKnown && route.method !== 'HEAD') {
      throw new Error(`/admin-api route ${route.method} ${route.url} declares no staff access`);
    }
  });
  scope.addHook('preValidation', async (request) => {
    if (request.body === undefined || request.body === null) request.body = {};
    const access = request.routeOptions.config.staff;
    if (access === 'public') return;
    if (access === undefined) throw new AppError('NOT_FOUND');
    const staff = await staffService.authenticate(readToken(request), clientOf(request));
    if (access !== 'session') staffService.authorize(staff, access);
    request.staff = staff;
  });
}

/** The staff member of a route behind the hook, with their session (staff's own routes need it). */
export function requireStaff(request: FastifyRequest): StaffContext {
  if (!request.staff) throw new Error('route is not behind the staff hook');
  // why: this hook is the only writer of `request.staff` in `/admin-api`, and it writes the session.
  return request.staff as StaffContext;
}
