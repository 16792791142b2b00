import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db.ts';
import type { FileStore } from '../../platform/uploads.ts';
import type { AuditService } from '../audit/service.ts';
import type { SettingsService } from '../settings/service.ts';
import type { MsbCertificate } from './msb-certificate.ts';
import { registerMsbCertificate } from './msb-routes.ts';
import { contentRoutes } from './routes.ts';
import { ContentService, type PublishedReserves } from './service.ts';

/** The operator's texts, terms and claims (`service`) and the MSB certificate image (`msb`). */
export interface ContentModule {
  service: ContentService;
  msb: MsbCertificate;
}

export function registerContentModule(
  api: FastifyInstance,
  deps: {
    db: Db;
    clock: Clock;
    audit: AuditService;
    settings: SettingsService;
    /** The public uploads, where the certificate image is stored. */
    files: FileStore;
    latestReserves: () => Promise<PublishedReserves | undefined>;
    leverageOffered: () => Promise<number>;
  },
): ContentModule {
  const { files, ...rest } = deps;
  const service = new ContentService(rest);
  api.register(contentRoutes, { content: service });
  const msb = registerMsbCertificate(api, { db: deps.db, settings: deps.settings, audit: deps.audit, files });
  return { service, msb };
}
