import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ARTIFACTS_DIR, REPO_ROOT } from './paths.ts';

const AI_PROVIDER_ENV = [
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'GOOGLE_GENERATIVE_AI_API_KEY',
  'SEARCH_PROVIDER',
  'SEARCH_URL',
  'SEARCH_API_KEY',
];

/** Password of every seeded demo account in the end-to-end run. */
export const DEMO_PASSWORD = 'demo-password-1';
export const CONTACT_EMAIL = 'beta@commandcentre.example';

export interface RunningServer {
  baseURL: string;
  port: number;
  tmpDir: string;
  logFile: string;
  stop: () => Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function tail(file: string, lines = 40): string {
  if (!existsSync(file)) return '(no server log)';
  return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
}

/**
 * Starts the BUILT app (`node server/dist/main.js`: the API and the built SPA on one port) on a free
 * loopback port with a fresh SQLite database and the demo workspace, and waits until it is healthy
 * and ready. Its output goes to e2e/artifacts/server.log.
 */
export async function startBuiltServer(extraEnv: Record<string, string> = {}): Promise<RunningServer> {
  const main = path.join(REPO_ROOT, 'server', 'dist', 'main.js');
  const index = path.join(REPO_ROOT, 'web', 'dist', 'index.html');
  for (const f of [main, index]) {
    if (!existsSync(f))
      throw new Error(`${path.relative(REPO_ROOT, f)} is missing: run \`npm run build\` first`);
  }
  const tmpDir = mkdtempSync(path.join(tmpdir(), 'cc-e2e-'));
  // Serve a snapshot of the built SPA: a rebuild of web/dist during the run (another terminal, a watcher)
  // must not swap the assets under the running tests.
  const webDist = path.join(tmpDir, 'web-dist');
  cpSync(path.dirname(index), webDist, { recursive: true });
  const port = await freePort();
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const logFile = path.join(ARTIFACTS_DIR, 'server.log');
  const log = createWriteStream(logFile);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: `file:${path.join(tmpDir, 'e2e.db')}`,
    DEMO_SEED: 'true',
    DEMO_PASSWORD,
    JWT_SECRET: randomBytes(48).toString('base64url'),
    RATE_LIMIT_AUTH_MAX: '1000',
    // The journeys share the demo accounts across parallel workers: per-user limits out of the way.
    LIMIT_CHAT_TURNS_PER_MINUTE: '10000',
    LIMIT_RUN_STARTS_PER_MINUTE: '10000',
    LIMIT_UPLOADS_PER_MINUTE: '10000',
    LIMIT_STREAM_TICKETS_PER_MINUTE: '10000',
    LIMIT_CONCURRENT_STREAMS: '10000',
    LOG_LEVEL: 'warn',
    CONTACT_EMAIL,
    FILES_DIR: path.join(tmpDir, 'files'),
    WEB_DIST: webDist,
    ...extraEnv,
  };
  // The journeys run on the deterministic offline AI engine, whatever keys the machine has.
  for (const key of AI_PROVIDER_ENV) if (!(key in extraEnv)) delete env[key];
  const child: ChildProcess = spawn(process.execPath, [main], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  let exited: string | null = null;
  child.on('exit', (code, signal) => {
    exited = `exited with ${code ?? signal}`;
  });

  const baseURL = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      const timedOut = await Promise.race([gone.then(() => false), sleep(10_000).then(() => true)]);
      if (timedOut) {
        child.kill('SIGKILL');
        await gone;
      }
    }
    log.end();
    rmSync(tmpDir, { recursive: true, force: true });
  };

  try {
    await waitUntilReady(baseURL, () => exited, 60_000);
  } catch (err) {
    await stop();
    throw new Error(`${(err as Error).message}\n--- server log (${logFile}) ---\n${tail(logFile)}`);
  }
  return { baseURL, port, tmpDir, logFile, stop };
}

/** GET /healthz answers 200 {status:'ok'}, then GET /readyz answers 200 (a 404 means "no readiness route"). */
async function waitUntilReady(baseURL: string, exited: () => string | null, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  let healthy = false;
  while (Date.now() < deadline) {
    const why = exited();
    if (why) throw new Error(`the server ${why} before it was ready`);
    try {
      if (!healthy) {
        const res = await fetch(`${baseURL}/healthz`);
        const body = (await res.json().catch(() => null)) as { status?: string } | null;
        last = `GET /healthz -> ${res.status} ${JSON.stringify(body)}`;
        healthy = res.status === 200 && body?.status === 'ok';
      }
      if (healthy) {
        const res = await fetch(`${baseURL}/readyz`);
        last = `GET /readyz -> ${res.status}`;
        if (res.status === 200 || res.status === 404) return;
      }
    } catch (err) {
      last = (err as Error).message;
    }
    await sleep(200);
  }
  throw new Error(`the server at ${baseURL} was not ready after ${timeoutMs} ms (last: ${last})`);
}
