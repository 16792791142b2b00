import fs from 'node:fs/promises';
import path from 'node:path';
import type { Clock } from './clock.ts';
import type { DbHandle } from './db.ts';
import {
  assertStoredName,
  FILE_STORES,
  type FileStore,
  type FileStoreName,
  isStoredName,
  LocalFileStore,
  STORED_IMAGE_TYPE,
} from './uploads.ts';

/**
 * A {@link FileStore} in the database: the rows of one store of the `stored_files` table. why:
 * nodes sharing a PostgreSQL store have no folder in common, so an image saved through one node
 * must be read from the database by the others; it is also then in the database's backup.
 */
export class DbFileStore implements FileStore {
  readonly #handle: DbHandle;
  readonly #store: FileStoreName;
  readonly #clock: Clock;

  constructor(options: { handle: DbHandle; store: FileStoreName; clock: Clock }) {
    this.#handle = options.handle;
    this.#store = options.store;
    this.#clock = options.clock;
  }

  async save(name: string, bytes: Buffer, contentType: string): Promise<void> {
    assertStoredName(name);
    // why: a plain insert, never an upsert: names are random, so a clash is a fault to report,
    // not a file to overwrite.
    await this.#handle.db
      .insertInto('stored_files')
      .values({
        store: this.#store,
        name,
        bytes,
        content_type: contentType,
        size: BigInt(bytes.length),
        created_at: BigInt(this.#clock.now()),
      })
      .execute();
  }

  async read(name: string): Promise<Buffer | undefined> {
    if (!isStoredName(name)) return undefined;
    const row = await this.#handle.db
      .selectFrom('stored_files')
      .select('bytes')
      .where('store', '=', this.#store)
      .where('name', '=', name)
      .executeTakeFirst();
    return row ? Buffer.from(row.bytes) : undefined;
  }

  async remove(name: string): Promise<void> {
    assertStoredName(name);
    await this.#handle.db
      .deleteFrom('stored_files')
      .where('store', '=', this.#store)
      .where('name', '=', name)
      .execute();
  }
}

/**
 * The one place that decides where uploaded files live: on PostgreSQL (several nodes may share
 * it) every store is in the database; on SQLite (one node) each is a folder of `dataDir`. On
 * PostgreSQL, files a folder of this node still holds (saved there before the stores moved into
 * the database) are imported first, so every node can serve them.
 */
export async function openFileStores(options: {
  handle: DbHandle;
  dataDir: string;
  clock: Clock;
}): Promise<(store: FileStoreName) => FileStore> {
  const { handle, dataDir, clock } = options;
  if (handle.dialect !== 'postgres') return (store) => new LocalFileStore({ dir: path.join(dataDir, store) });
  for (const store of FILE_STORES) await importFolder(handle, store, path.join(dataDir, store), clock);
  return (store) => new DbFileStore({ handle, store, clock });
}

/**
 * Moves the generated-name files of a folder into the store's rows: each file is removed only
 * once its row is committed (a name already there is the same file, imported by an earlier start
 * that stopped before removing it). Other files are left alone.
 */
async function importFolder(
  handle: DbHandle,
  store: FileStoreName,
  dir: string,
  clock: Clock,
): Promise<void> {
  let names: string[];
  try {
    names = (await fs.readdir(dir)).filter(isStoredName);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  for (const name of names) {
    const file = path.join(dir, name);
    let bytes: Buffer;
    try {
      bytes = await fs.readFile(file);
    } catch (error) {
      // why: another node starting on the same folder may have imported and removed it meanwhile.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    await handle.db
      .insertInto('stored_files')
      .values({
        store,
        name,
        bytes,
        content_type: STORED_IMAGE_TYPE,
        size: BigInt(bytes.length),
        created_at: BigInt(clock.now()),
      })
      .onConflict((c) => c.columns(['store', 'name']).doNothing())
      .execute();
    await fs.rm(file, { force: true });
  }
}
