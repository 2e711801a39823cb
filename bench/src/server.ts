import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './config.ts';
import { freshDatabaseUrl } from './engine.ts';
import {
  benchServerEnv,
  freePort,
  LOOP_PROBE,
  type LoopDelay,
  loopDelayOf,
  serverNodeArgs,
  sleep,
} from './own-server.ts';

export type { LoopDelay };

export interface BenchServer {
  baseURL: string;
  pid: number;
  /** The snapshot of web/dist the server serves (and the bundle sizes are measured on). */
  webDist: string | null;
  /** The server's DATABASE_URL (SQLite file or PostgreSQL database), for groups that seed it directly. */
  databaseUrl: string;
  /** The server's event-loop delay since the previous call (the first call only starts the count). */
  loopDelay: () => Promise<LoopDelay>;
  stop: () => Promise<void>;
}

/**
 * Starts the built server (`node server/dist/main.js`) on a free loopback port with a fresh database
 * of the active engine (engine.ts) and the demo workspace, rate limits out of the way, and waits for GET /healthz.
 */
export async function startServer(): Promise<BenchServer> {
  const main = path.join(REPO_ROOT, 'server', 'dist', 'main.js');
  if (!existsSync(main)) throw new Error('server/dist/main.js is missing: run `npm run build` first');
  const tmpDir = mkdtempSync(path.join(tmpdir(), 'cc-bench-'));
  // A snapshot of the built SPA, so a rebuild during the run cannot change what is served and measured.
  const builtWeb = path.join(REPO_ROOT, 'web', 'dist');
  const webDist = existsSync(path.join(builtWeb, 'index.html')) ? path.join(tmpDir, 'web-dist') : null;
  if (webDist) cpSync(builtWeb, webDist, { recursive: true });
  const port = await freePort();
  const databaseUrl = await freshDatabaseUrl(tmpDir);
  const output: string[] = [];
  const loopFile = path.join(tmpDir, 'loop-delay.json');
  const child: ChildProcess = spawn(process.execPath, [...serverNodeArgs(), '--import', LOOP_PROBE, main], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      ...benchServerEnv(port, tmpDir, databaseUrl),
      MAX_UPLOAD_MB: '100', // the files group uploads 50 MB
      BENCH_LOOP_FILE: loopFile,
      ...(webDist ? { WEB_DIST: webDist } : {}),
    },
  });
  const keep = (b: Buffer) => {
    output.push(b.toString());
    if (output.length > 200) output.shift();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      if (await Promise.race([gone.then(() => false), sleep(10_000).then(() => true)])) {
        child.kill('SIGKILL');
        await gone;
      }
    }
    rmSync(tmpDir, { recursive: true, force: true });
  };

  const loopDelay = loopDelayOf(child, loopFile);

  const baseURL = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const res = await fetch(`${baseURL}/healthz`);
      if (res.status === 200) return { baseURL, pid: child.pid ?? 0, webDist, databaseUrl, loopDelay, stop };
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  await stop();
  throw new Error(`the server did not become healthy:\n${output.join('').split('\n').slice(-30).join('\n')}`);
}
