import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ContentService } from '../content/service.ts';
import type { DeliveryBackOffice } from '../delivery/back-office.ts';
import type { LaunchpadService } from '../launchpad/service.ts';
import type { IndexSourcesBackOffice } from '../markets/back-office.ts';
import type { MiningService } from '../mining/service.ts';
import type { MarketMakerService } from '../mm/service.ts';
import type { ReservesService } from '../reserves/service.ts';
import type { SpotBackOffice } from '../spot/back-office.ts';
import type { SupportService } from '../support/service.ts';
import { type AccountBackOfficeDeps, accountStaffRoutes } from './account-routes.ts';
import { contentStaffRoutes } from './content-routes.ts';
import { deliveryStaffRoutes } from './delivery-routes.ts';
import { registerStaffHook } from './hook.ts';
import { indexSourcesStaffRoutes } from './index-sources-routes.ts';
import { launchpadStaffRoutes } from './launchpad-routes.ts';
import { MakerBackOffice } from './maker-settings.ts';
import { miningStaffRoutes } from './mining-routes.ts';
import { type BackOfficeDeps, BackOfficeService } from './operations.ts';
import { reservesStaffRoutes } from './reserves-routes.ts';
import { staffRoutes } from './routes.ts';
import { type StaffDeps, StaffService } from './service.ts';
import { spotStaffRoutes } from './spot-routes.ts';
import { supportStaffRoutes } from './support-routes.ts';

export interface StaffModuleDeps extends StaffDeps, Omit<BackOfficeDeps, 'db' | 'clock' | 'audit'> {
  /** The first owner's credentials (`ADMIN_USER`, `ADMIN_PASSWORD`); unset = a one-time password. */
  firstOwner: { username?: string; password?: string };
  log: FastifyBaseLogger;
  /** The delivery module's back-office side; its routes answer NOT_FOUND until it is registered. */
  delivery?: () => DeliveryBackOffice | undefined;
  /** The spot module's back-office side; its routes answer NOT_FOUND until it is registered. */
  spot?: () => SpotBackOffice | undefined;
  /** The market maker's settings; its routes answer NOT_FOUND until it is registered. */
  marketMaker?: () => MarketMakerService | undefined;
  /** Proof of reserves; its routes answer NOT_FOUND until it is registered. */
  reserves?: () => ReservesService | undefined;
  /** Identity review, broadcasts and the mail outbox; their routes answer NOT_FOUND until registered. */
  accounts?: Omit<AccountBackOfficeDeps, 'db' | 'audit'>;
  /** The support chat; its routes answer NOT_FOUND until it is registered. */
  support?: () => SupportService | undefined;
  /** Announcements, help, pages and claims; their routes answer NOT_FOUND until registered. */
  content?: () => ContentService | undefined;
  /** The launchpad, referral rewards and agents; their routes answer NOT_FOUND until registered. */
  launchpad?: () => LaunchpadService | undefined;
  /** The mining market; its routes answer NOT_FOUND until it is registered. */
  mining?: () => MiningService | undefined;
  /** The index's sources and their per-market mappings; NOT_FOUND until registered. */
  indexSources?: () => IndexSourcesBackOffice | undefined;
}

/**
 * The back office's server side: `/admin-api/*` in a scope of its own, with its own auth hook,
 * staff accounts and sessions. Creates the first owner at the first start.
 */
export async function registerStaffModule(
  app: FastifyInstance,
  deps: StaffModuleDeps,
): Promise<{ staff: StaffService; backOffice: BackOfficeService }> {
  const staff = new StaffService(deps);
  const backOffice = new BackOfficeService(deps);
  await app.register(
    async (scope) => {
      registerStaffHook(scope, staff);
      await scope.register(staffRoutes, { staff, backOffice });
      await scope.register(deliveryStaffRoutes, { delivery: () => deps.delivery?.() });
      const maker = new MakerBackOffice({
        db: deps.db,
        audit: deps.audit,
        maker: () => deps.marketMaker?.(),
      });
      await scope.register(spotStaffRoutes, { spot: () => deps.spot?.(), maker });
      await scope.register(reservesStaffRoutes, { reserves: () => deps.reserves?.() });
      await scope.register(accountStaffRoutes, {
        db: deps.db,
        audit: deps.audit,
        identity: () => deps.accounts?.identity(),
        notices: () => deps.accounts?.notices(),
        mail: () => deps.accounts?.mail(),
      });
      await scope.register(supportStaffRoutes, { support: () => deps.support?.() });
      await scope.register(contentStaffRoutes, { content: () => deps.content?.() });
      await scope.register(launchpadStaffRoutes, { launchpad: () => deps.launchpad?.() });
      await scope.register(miningStaffRoutes, { mining: () => deps.mining?.() });
      await scope.register(indexSourcesStaffRoutes, { indexSources: () => deps.indexSources?.() });
    },
    { prefix: '/admin-api' },
  );
  const secrets = await staff.sealPlainSecrets();
  if (secrets.sealed > 0) deps.log.info({ sealed: secrets.sealed }, 'back office: TOTP secrets encrypted');
  if (secrets.unreadable > 0) {
    // why: fail closed, but say why those staff cannot sign in: the key is not the one they were sealed with.
    deps.log.error(
      { unreadable: secrets.unreadable },
      'back office: some TOTP secrets cannot be read with this STAFF_SECRET_KEY; those staff cannot sign in until it is restored or they are enrolled again',
    );
  }
  const created = await staff.bootstrapOwner(deps.firstOwner);
  if (created?.oneTimePassword) {
    // why: printed once, at the start that creates the account; the owner must change it at first login.
    deps.log.warn(
      `Back office: first owner "${created.username}" created with the one-time password ${created.oneTimePassword} — sign in at /admin/ to set your own password and two-factor code.`,
    );
  } else if (created) {
    deps.log.info({ username: created.username }, 'back office: first owner created from ADMIN_USER');
  }
  return { staff, backOffice };
}
