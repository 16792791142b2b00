import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db.ts';
import type { AuditService } from '../audit/service.ts';
import type { SettingsService } from '../settings/service.ts';
import { contentRoutes } from './routes.ts';
import { ContentService } from './service.ts';

export function registerContentModule(
  api: FastifyInstance,
  deps: {
    db: Db;
    clock: Clock;
    audit: AuditService;
    settings: SettingsService;
    reserveEvidence: () => Promise<boolean>;
    leverageOffered: () => Promise<number>;
  },
): ContentService {
  const service = new ContentService(deps);
  api.register(contentRoutes, { content: service });
  return service;
}
