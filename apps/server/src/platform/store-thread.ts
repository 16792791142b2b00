import { Worker } from 'node:worker_threads';

/**
 * Starts one of the store's threads (the checkpointer, the read thread) on `script` with `file`,
 * the SQLite store, as its data; unref'd, so it never keeps the process alive on its own.
 */
export function startStoreThread(script: URL, file: string): Worker {
  // why: a thread inherits the process's Node options, and `--input-type` (a script given with
  // `-e`) is refused for a file: the thread died at its start, every time, in such a process.
  // Given explicitly, the options must all be valid for a thread (V8's heap flags are not), so
  // only that case names them.
  const execArgv = process.execArgv.filter((arg) => !arg.startsWith('--input-type'));
  const worker = new Worker(script, {
    workerData: { file },
    ...(execArgv.length < process.execArgv.length ? { execArgv } : {}),
  });
  worker.unref();
  return worker;
}

/** Asks a store thread to close its connection and waits until it has exited. */
export async function stopStoreThread(worker: Worker): Promise<void> {
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  // why: unref'd, the thread would not keep the process alive while it stops; a process whose
  // only remaining work is this wait (a tool closing its store) would exit in the middle of it.
  worker.ref();
  worker.postMessage('stop');
  await exited;
}
