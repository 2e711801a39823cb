import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const BUILT_MAIN = path.join(REPO_ROOT, 'server', 'dist', 'main.js');
export const ADMIN = { email: 'faults-admin@example.com', password: 'faults-admin-password-1' };

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

export interface BuiltServer {
  url: string;
  child: ChildProcess;
  output(): string;
  /** True while the process runs. */
  alive(): boolean;
  /** Sends a signal and waits for the exit. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** One JWT secret per test run, so tokens stay valid across a restart of the same database. */
const JWT_SECRET = randomBytes(48).toString('base64url');

/**
 * Starts the built server (`server/dist/main.js`, as an operator runs it) as a child process on a free
 * loopback port; resolves once `/readyz` answers 200. The first admin comes from ADMIN_EMAIL, the AI
 * runs offline, rate limits are out of the way of the writers.
 */
export async function startBuiltServer(env: Record<string, string>): Promise<BuiltServer> {
  if (!existsSync(BUILT_MAIN))
    throw new Error('server/dist/main.js is missing: run `npm run build -w server`');
  const inherited = { ...process.env };
  for (const key of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'GOOGLE_GENERATIVE_AI_API_KEY', 'SEARCH_PROVIDER'])
    delete inherited[key];
  delete inherited.NODE_ENV;
  const port = await freePort();
  const child = spawn(process.execPath, [BUILT_MAIN], {
    cwd: REPO_ROOT,
    env: {
      ...inherited,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'error',
      JWT_SECRET,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      DEMO_SEED: 'false',
      RATE_LIMIT_AUTH_MAX: '10000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    out += c.toString();
  });
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const server: BuiltServer = {
    url,
    child,
    output: () => out,
    alive: () => child.exitCode === null && child.signalCode === null,
    async kill(signal) {
      if (!server.alive()) return;
      child.kill(signal);
      await exited;
    },
  };
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (!server.alive()) throw new Error(`server exited at start (${child.exitCode}):\n${out}`);
    const ok = await fetch(`${url}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return server;
    await new Promise((r) => setTimeout(r, 100));
  }
  await server.kill('SIGKILL');
  throw new Error(`server did not become ready:\n${out}`);
}

export async function login(url: string, email = ADMIN.email, password = ADMIN.password): Promise<string> {
  const res = await fetch(`${url}/api/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: email, password }).toString(),
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}
