import { type ChildProcess, spawn } from 'node:child_process';
import { createConnection, createServer } from 'node:net';

/** A loopback port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      s.close(() => resolve(port));
    });
  });
}

/** Resolves once 127.0.0.1:`port` accepts a connection; rejects when the server died or after 15 s. */
export async function waitForPort(port: number, died: () => boolean, output: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (died()) throw new Error(`the server exited before listening on ${port}:\n${output()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the server did not listen on ${port} within 15 s:\n${output()}`);
}

/**
 * Stops `child` and deletes `dir` when this test process ends, however it ends: a watchdog shell polls
 * this process's pid (Vitest may end a worker without running its exit handlers, and Dovecot's master
 * outlives its parent). Returns the function that dismisses the watchdog after a normal stop.
 */
export function killOnExit(child: ChildProcess, dir: string): () => void {
  const script = `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; kill ${child.pid}; sleep 2; kill -9 ${child.pid}; rm -rf '${dir}'`;
  const watchdog = spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' });
  watchdog.unref();
  return () => watchdog.kill('SIGKILL');
}

/** Stops a server child (TERM, then KILL after 3 s) and waits for its exit. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
    await exited;
  }
}
