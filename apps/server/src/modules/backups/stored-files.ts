import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';

/**
 * One file kept in the database (`stored_files`, PostgreSQL): its store, name, size and SHA-256
 * (hex). A backup's manifest lists them; the bytes travel inside the database's dump.
 */
export interface StoredFileRecord {
  store: string;
  name: string;
  bytes: number;
  sha256: string;
}

/**
 * Every file the PostgreSQL store keeps, with its SHA-256 computed by the database. why: run in
 * the snapshot the dump is made in, so the list is exactly what the dump holds; hashing there
 * keeps the bytes out of this process's memory.
 */
export async function listStoredFiles(db: Db): Promise<StoredFileRecord[]> {
  // why: a backup made before files moved into the database has no such table (and no such files).
  const present = await sql<{ present: boolean }>`
    select to_regclass('stored_files') is not null as present`.execute(db);
  if (!present.rows[0]?.present) return [];
  const { rows } = await sql<{ store: string; name: string; size: bigint; sha256: string }>`
    select store, name, octet_length(bytes)::int8 as size, encode(sha256(bytes), 'hex') as sha256
    from stored_files order by store, name`.execute(db);
  return rows.map((row) => ({
    store: row.store,
    name: row.name,
    bytes: Number(row.size),
    sha256: row.sha256,
  }));
}

/** One line per file the restored store lacks, holds changed, or holds beyond the manifest's list. */
export function compareStoredFiles(
  expected: readonly StoredFileRecord[],
  actual: readonly StoredFileRecord[],
): string[] {
  const key = (file: StoredFileRecord) => `${file.store}/${file.name}`;
  const found = new Map(actual.map((file) => [key(file), file]));
  const differences: string[] = [];
  for (const file of expected) {
    const other = found.get(key(file));
    found.delete(key(file));
    if (!other) differences.push(`${key(file)}: a file the manifest lists is not in the database`);
    else if (other.sha256 !== file.sha256 || other.bytes !== file.bytes)
      differences.push(
        `${key(file)}: checksum differs from the manifest (the file is damaged or was changed)`,
      );
  }
  for (const file of found.values())
    differences.push(`${key(file)}: in the database, the manifest has no such file`);
  return differences;
}
