import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * A worker thread with a SQLite connection of its own, from CommonJS source run with `eval` (the
 * server is bundled into one file, so a worker has no file of its own). Its `workerData` holds the
 * database `file`, the better-sqlite3 `driver` to require, and `data`. It must not keep the process
 * alive: {@link stopSqliteWorker} ends it.
 */
export function startSqliteWorker(source: string, file: string, data: Record<string, unknown>): Worker {
  const worker = new Worker(source, {
    eval: true,
    workerData: { file, driver: createRequire(import.meta.url).resolve('better-sqlite3'), ...data },
  });
  worker.unref();
  return worker;
}

/** Asks the worker to close its connection and end ('close'); ends it after 5 s if it has not. */
export async function stopSqliteWorker(worker: Worker): Promise<void> {
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.postMessage('close');
  const timeout = new Promise<'late'>((resolve) => setTimeout(resolve, 5000, 'late').unref());
  if ((await Promise.race([exited, timeout])) === 'late') await worker.terminate();
}
