import type { FastifyBaseLogger } from 'fastify';
import { type BackOfficeDeps, BackOfficeService } from './operations.ts';
import { type StaffDeps, StaffService } from './service.ts';

export interface StaffModuleDeps extends StaffDeps, Omit<BackOfficeDeps, 'db' | 'clock' | 'audit'> {
  /** The first owner's credentials (`ADMIN_USER`, `ADMIN_PASSWORD`); unset = a one-time password. */
  firstOwner: { username?: string; password?: string };
  log: FastifyBaseLogger;
}

export interface StaffModule {
  /** Staff accounts, sessions and permissions: the `/admin-api` hook authenticates through it. */
  service: StaffService;
  /** The staff's own use cases: users, adjustments, the dashboard, the audit log. */
  backOffice: BackOfficeService;
}

/**
 * The back office's own side: staff accounts, sessions, permissions, the dashboard and manual
 * adjustments. `app.ts` opens the `/admin-api` scope with `registerStaffHook` and `staffRoutes`
 * first, then each domain registers its own admin routes there. Creates the first owner at the
 * first start.
 */
export async function registerStaffModule(deps: StaffModuleDeps): Promise<StaffModule> {
  const service = new StaffService(deps);
  const backOffice = new BackOfficeService(deps);
  const secrets = await service.sealPlainSecrets();
  if (secrets.sealed > 0) deps.log.info({ sealed: secrets.sealed }, 'back office: TOTP secrets encrypted');
  if (secrets.unreadable > 0) {
    // why: fail closed, but say why those staff cannot sign in: the key is not the one they were sealed with.
    deps.log.error(
      { unreadable: secrets.unreadable },
      'back office: some TOTP secrets cannot be read with this STAFF_SECRET_KEY; those staff cannot sign in until it is restored or they are enrolled again',
    );
  }
  const created = await service.bootstrapOwner(deps.firstOwner);
  if (created?.oneTimePassword) {
    // why: printed once, at the start that creates the account; the owner must change it at first login.
    deps.log.warn(
      `Back office: first owner "${created.username}" created with the one-time password ${created.oneTimePassword} — sign in at /admin/ to set your own password and two-factor code.`,
    );
  } else if (created) {
    deps.log.info({ username: created.username }, 'back office: first owner created from ADMIN_USER');
  }
  return { service, backOffice };
}
