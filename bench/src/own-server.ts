import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import type http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEMO_PASSWORD, REPO_ROOT } from './config.ts';
import { freshDatabaseUrl } from './engine.ts';

/** Helpers of the scenario groups that measure a server process of their own (chat, comms streams, runs). */

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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

/**
 * The environment of a bench server: loopback port, its database (see freshDatabaseUrl), files in
 * `dir`, demo workspace, no rate limits.
 */
export function benchServerEnv(port: number, dir: string, databaseUrl: string): NodeJS.ProcessEnv {
  return {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    FILES_DIR: path.join(dir, 'files'),
    DEMO_SEED: 'true',
    DEMO_PASSWORD,
    JWT_SECRET: randomBytes(48).toString('base64url'),
    RATE_LIMIT_AUTH_MAX: '100000000',
    LOGIN_MAX_FAILURES: '100000000',
    // Load tests drive thousands of chats, runs and streams from a few demo accounts.
    LIMIT_CHAT_TURNS_PER_MINUTE: '100000000',
    LIMIT_RUN_STARTS_PER_MINUTE: '100000000',
    LIMIT_UPLOADS_PER_MINUTE: '100000000',
    LIMIT_STREAM_TICKETS_PER_MINUTE: '100000000',
    LIMIT_CONCURRENT_STREAMS: '100000000',
    LOG_LEVEL: 'warn',
  };
}

/**
 * Extra Node.js flags for every bench server process, e.g. to profile one:
 * `BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" npm run bench` (Node refuses --cpu-prof in NODE_OPTIONS).
 */
export function serverNodeArgs(): string[] {
  return (process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
}

export interface LoopDelay {
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
}

/** Preloaded into every bench server process: reports its event-loop delay on SIGUSR2 (bench-only). */
export const LOOP_PROBE = path.join(REPO_ROOT, 'bench', 'probes', 'loop-delay.mjs');

/**
 * The event-loop delay of a server started with LOOP_PROBE since the previous call (the first call
 * only starts the count): the server writes it to `file` on SIGUSR2.
 */
export function loopDelayOf(child: ChildProcess, file: string): () => Promise<LoopDelay> {
  return async () => {
    const before = existsSync(file) ? readFileSync(file, 'utf8') : '';
    child.kill('SIGUSR2');
    for (let i = 0; i < 100; i++) {
      await sleep(20);
      const now = existsSync(file) ? readFileSync(file, 'utf8') : '';
      if (now && now !== before) return JSON.parse(now) as LoopDelay;
    }
    throw new Error('the bench server did not report its event-loop delay');
  };
}

export interface OwnServer {
  baseURL: string;
  pid: number;
  /** Its DATABASE_URL. */
  databaseUrl: string;
  /** Its event-loop delay since the previous call (the first call only starts the count). */
  loopDelay: () => Promise<LoopDelay>;
  stop: () => Promise<void>;
}

/**
 * Starts the built server (`server/dist/main.js`) as a process of its own and waits for GET /healthz.
 * `withoutEnv` names variables of this machine the server must not see (e.g. real model keys).
 * Its database is a fresh one of the active engine (engine.ts), or `databaseUrl` (another bench
 * server's, e.g. to measure the same data with other settings).
 */
export async function startOwnServer(opts: {
  name: string;
  env?: Record<string, string>;
  withoutEnv?: readonly string[];
  databaseUrl?: string;
  /** Run server/src/main.ts through tsx instead of the build (the bench's tests, which run before any build). */
  fromSource?: boolean;
}): Promise<OwnServer> {
  const dir = mkdtempSync(path.join(tmpdir(), `cc-bench-${opts.name}-`));
  const port = await freePort();
  const databaseUrl = opts.databaseUrl ?? (await freshDatabaseUrl(dir));
  const inherited: NodeJS.ProcessEnv = { ...process.env };
  for (const key of opts.withoutEnv ?? []) delete inherited[key];
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...serverNodeArgs(),
      '--import',
      LOOP_PROBE,
      ...(opts.fromSource
        ? ['--import', 'tsx', path.join(REPO_ROOT, 'server', 'src', 'main.ts')]
        : [path.join(REPO_ROOT, 'server', 'dist', 'main.js')]),
    ],
    {
      cwd: REPO_ROOT,
      // BENCH_SERVER_STDOUT=<file>: the servers' stdout appended there (e.g. BENCH_NODE_ARGS=--trace-gc-nvp).
      stdio: [
        'ignore',
        process.env.BENCH_SERVER_STDOUT ? openSync(process.env.BENCH_SERVER_STDOUT, 'a') : 'ignore',
        'inherit',
      ],
      env: {
        ...inherited,
        ...benchServerEnv(port, dir, databaseUrl),
        BENCH_LOOP_FILE: path.join(dir, 'loop-delay.json'),
        ...opts.env,
      },
    },
  );
  const baseURL = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      await Promise.race([gone, sleep(10_000).then(() => child.kill('SIGKILL'))]);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      if ((await fetch(`${baseURL}/healthz`)).status === 200)
        return {
          baseURL,
          pid: child.pid ?? 0,
          databaseUrl,
          loopDelay: loopDelayOf(child, path.join(dir, 'loop-delay.json')),
          stop,
        };
    } catch {
      // not yet
    }
    await sleep(200);
  }
  await stop();
  throw new Error(`the ${opts.name} bench server did not start`);
}

/** An access token for a demo user. */
export async function signIn(baseURL: string, email: string): Promise<string> {
  const res = await fetch(`${baseURL}/api/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: email, password: DEMO_PASSWORD }).toString(),
  });
  if (res.status !== 200) throw new Error(`sign-in of ${email}: ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** The p-th percentile (nearest rank); `digits` rounds it for a note. */
export function pct(values: number[], p: number, digits?: number): number {
  if (!values.length) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const v = s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] as number;
  if (digits === undefined) return v;
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

/** Reads an SSE/chunked response block by block, calling onData for each `data:` payload with its arrival time. */
export function readEvents(
  res: http.IncomingMessage,
  onData: (data: string, at: number, event?: string) => void,
) {
  res.setEncoding('utf8');
  let buffer = '';
  res.on('data', (chunk: string) => {
    const at = performance.now();
    buffer += chunk;
    let idx = buffer.indexOf('\n\n');
    while (idx !== -1) {
      const block = buffer.slice(0, idx);
      buffer = buffer.slice(idx + 2);
      let event: string | undefined;
      let data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        if (line.startsWith('data:')) data += line.slice(5).trim();
      }
      if (data) onData(data, at, event);
      idx = buffer.indexOf('\n\n');
    }
  });
}

/** Sign-ins in flight at once (argon2id is deliberately slow; the machine has few cores). */
const SIGN_IN_CONCURRENCY = 4;

/** Access tokens for these demo-password users, in their order. */
export async function signInAll(baseURL: string, emails: readonly string[]): Promise<string[]> {
  const tokens: string[] = new Array(emails.length);
  let next = 0;
  const worker = async () => {
    while (next < emails.length) {
      const i = next++;
      tokens[i] = await signIn(baseURL, emails[i] as string);
    }
  };
  await Promise.all(Array.from({ length: SIGN_IN_CONCURRENCY }, worker));
  return tokens;
}
