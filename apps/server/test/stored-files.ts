import fs from 'node:fs';
import path from 'node:path';
import type { FileStoreName } from '../src/platform/uploads.ts';
import type { TestServer } from './harness.ts';

/**
 * The names a server's file store holds, sorted: its folder of `DATA_DIR` on SQLite, its rows of
 * `stored_files` on PostgreSQL (where every node reads the same files).
 */
export async function storedNames(server: TestServer, store: FileStoreName = 'uploads'): Promise<string[]> {
  const handle = server.app.ctx.store;
  if (handle.dialect === 'postgres') {
    const rows = await handle.db
      .selectFrom('stored_files')
      .select('name')
      .where('store', '=', store)
      .orderBy('name')
      .execute();
    return rows.map((row) => row.name);
  }
  const dir = path.join(server.store.dataDir, store);
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
}
