import fs from 'node:fs';
import path from 'node:path';

/** The file a running server keeps in its `DATA_DIR`: its process id, one line. */
export const DATA_DIR_LOCK_FILE = 'server.pid';

/**
 * Marks `dataDir` as used by this process until `release` (or the process's exit): a restore
 * refuses to write under a running server. A file left by a process that died is taken over.
 * Answers the pid of another live process that held it, if any (the caller warns: two servers on
 * one SQLite folder).
 */
export function holdDataDirLock(dataDir: string): { release(): void; otherHolder: number | undefined } {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, DATA_DIR_LOCK_FILE);
  const otherHolder = runningServerPid(dataDir);
  fs.writeFileSync(file, `${process.pid}\n`);
  const release = (): void => {
    try {
      if (readPid(file) === process.pid) fs.rmSync(file, { force: true });
    } catch {
      // why: a folder already gone has nothing to release.
    }
  };
  process.once('exit', release);
  return { release, otherHolder: otherHolder === process.pid ? undefined : otherHolder };
}

/** The pid of a live process holding `dataDir`'s lock file, or undefined (none, or its holder died). */
export function runningServerPid(dataDir: string): number | undefined {
  const pid = readPid(path.join(dataDir, DATA_DIR_LOCK_FILE));
  if (pid === undefined) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    // why: EPERM is a live process of another user; ESRCH is a holder that died.
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined;
  }
}

function readPid(file: string): number | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number.parseInt(text.trim(), 10);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}
