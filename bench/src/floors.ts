import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { BENCH_DIR } from './config.ts';
import { freePort, sleep } from './own-server.ts';

/** The floor servers of bench/floors/, each a single-file Fastify app run as a process of its own. */
export type FloorName = 'list-floor' | 'auth-floor' | 'write-floor' | 'chat-floor' | 'fanout-floor';

export interface FloorServer {
  name: FloorName;
  baseURL: string;
  pid: number;
  stop: () => Promise<void>;
}

/**
 * Starts a floor on a free loopback port against `databaseUrl` (the product server's database of
 * the same pass) with the product's token secret, so the same bearer tokens work on both; `env` adds
 * what a floor needs beyond that (the chat floor's model URL). Waits for GET /healthz.
 */
export async function startFloor(
  name: FloorName,
  opts: { databaseUrl?: string; secret?: string; env?: Record<string, string> } = {},
): Promise<FloorServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(BENCH_DIR, 'floors', `${name}.ts`)],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        PORT: String(port),
        ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : {}),
        ...(opts.secret ? { JWT_SECRET: opts.secret } : {}),
        ...opts.env,
      },
    },
  );
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGTERM');
    await Promise.race([gone, sleep(5_000).then(() => child.kill('SIGKILL'))]);
  };
  const baseURL = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      if ((await fetch(`${baseURL}/healthz`)).status === 200)
        return { name, baseURL, pid: child.pid ?? 0, stop };
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  await stop();
  throw new Error(`the ${name} floor did not start`);
}
