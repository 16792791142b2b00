import type { Db } from '../../platform/db.ts';
import * as repo from './repository.ts';

/** Operator settings (the `settings` table's owner). */
export class SettingsService {
  readonly #db: Db;

  constructor(deps: { db: Db }) {
    this.#db = deps.db;
  }

  /** A setting's value, read on `db` (a transaction when the caller is inside one). */
  get(key: string, db: Db = this.#db): Promise<string | undefined> {
    return repo.findSetting(db, key);
  }

  /** Sets a setting inside the caller's transaction. */
  set(trx: Db, key: string, value: string): Promise<void> {
    return repo.upsertSetting(trx, key, value);
  }
}
