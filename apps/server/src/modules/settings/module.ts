import type { Db } from '../../platform/db.ts';
import { SettingsService } from './service.ts';

/** The settings module has no routes of its own yet; the back office will add them. */
export function registerSettingsModule(deps: { db: Db }): SettingsService {
  return new SettingsService(deps);
}
