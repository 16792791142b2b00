import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

/** One file of a backup: its path inside the backup (with `/`), its size and SHA-256 (hex). */
export interface FileRecord {
  path: string;
  bytes: number;
  sha256: string;
}

/** The SHA-256 of a file, read as a stream (memory stays bounded, whatever its size). */
export async function hashFile(file: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of fs.createReadStream(file)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

/** Copies `from` to `to` (creating its folder) and answers the SHA-256 of what was written, in one read. */
export async function copyHashing(
  from: string,
  to: string,
  mode?: number,
): Promise<{ sha256: string; bytes: number }> {
  await fs.promises.mkdir(path.dirname(to), { recursive: true });
  const hash = createHash('sha256');
  let bytes = 0;
  await pipeline(
    fs.createReadStream(from),
    async function* (source: AsyncIterable<Buffer>) {
      for await (const chunk of source) {
        hash.update(chunk);
        bytes += chunk.length;
        yield chunk;
      }
    },
    fs.createWriteStream(to, { flags: 'wx', mode }),
  );
  // why: the data must be on disk before a manifest or a restore says it is there.
  const handle = await fs.promises.open(to, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  return { sha256: hash.digest('hex'), bytes };
}

/** Every regular file under `dir`, as paths relative to it with `/`, sorted; none when it is absent. */
export async function listFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (relative: string): Promise<void> => {
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(path.join(dir, relative), { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) await walk(child);
      else if (entry.isFile()) found.push(child);
    }
  };
  await walk('');
  return found.sort();
}

/** Syncs a folder's entry list, so files renamed or created in it survive a power cut. */
export async function syncDir(dir: string): Promise<void> {
  const handle = await fs.promises.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
