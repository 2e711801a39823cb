import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { describe } from 'vitest';
import { type BuiltApp, buildApp } from '../src/app.ts';
import { type AppConfig, loadConfig } from '../src/config.ts';
import { createAccount } from '../src/modules/users/users.service.ts';
import { acceptInvitation } from '../src/modules/organizations/memberships.service.ts';
import { addMember, createOrganization } from '../src/modules/organizations/organizations.service.ts';
import { memberAccounts } from '../src/modules/users/users.member-accounts.ts';

export const TEST_DB = (process.env.TEST_DB ?? 'sqlite') as 'sqlite' | 'postgres';
const pgAdminUrl = process.env.TEST_PG_URL;

if (TEST_DB === 'postgres' && !pgAdminUrl) {
  console.warn('\n!!! PostgreSQL not available (TEST_PG_URL unset): server-postgres tests SKIPPED !!!\n');
}
/** `describe` for API suites: runs on the engine of this project (sqlite / postgres). */
export const apiSuite = TEST_DB === 'postgres' && !pgAdminUrl ? describe.skip : describe;

export const PASSWORD = 'correct-horse-9';

export interface TestApp extends BuiltApp {
  config: AppConfig;
  close(): Promise<void>;
  /** Starts listening on a free loopback port (for SSE and other real-HTTP tests); returns the base URL. */
  listen(): Promise<string>;
  /** Creates an account directly (no HTTP) and returns its id. */
  createUser(
    level: string,
    overrides?: { email?: string; first_name?: string; password?: string },
  ): Promise<TestUser>;
  login(email: string, password?: string): Promise<string>;
  req(opts: {
    method: InjectOptions['method'];
    url: string;
    token?: string;
    body?: unknown;
    form?: Record<string, string>;
  }): Promise<LightMyRequestResponse>;
  createOrg(owner: TestUser, name?: string): Promise<string>;
  /** `owner` (an admin of the organization) invites `member`, who accepts: a real member at `level`. */
  addToOrg(
    owner: TestUser,
    orgId: string,
    member: TestUser,
    level?: 'user' | 'manager' | 'admin',
  ): Promise<void>;
}

export interface TestUser {
  id: string;
  email: string;
  user_level: string;
  token: string;
}

/**
 * Waits (up to 2 s) until no connection to the database is left. A closed app's pool has ended its
 * connections but their backends may still be going; dropped WITH (FORCE) at that moment they are
 * terminated "by administrator command", and the pool reports each as an idle connection lost (a
 * warning in the test output, for nothing). What is still connected after the wait is forced.
 */
async function connectionsGone(admin: pg.Client, database: string): Promise<void> {
  const deadline = Date.now() + 2000;
  while (Date.now() < deadline) {
    const { rows } = await admin.query<{ n: number }>(
      'select count(*)::int as n from pg_stat_activity where datname = $1',
      [database],
    );
    if (rows[0].n === 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function freshDatabaseUrl(): Promise<{ url: string; drop: () => Promise<void> }> {
  if (TEST_DB === 'postgres') {
    const name = `t_${randomUUID().replace(/-/g, '')}`;
    const admin = new pg.Client({ connectionString: pgAdminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(pgAdminUrl as string);
    u.pathname = `/${name}`;
    return {
      url: u.toString(),
      drop: async () => {
        const c = new pg.Client({ connectionString: pgAdminUrl });
        await c.connect();
        try {
          await connectionsGone(c, name);
          await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        } finally {
          await c.end();
        }
      },
    };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'cc-test-'));
  return {
    url: `file:${path.join(dir, 'test.db')}`,
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface TestAppOptions {
  /** Every log line the app writes, parsed (set LOG_LEVEL in `env` to a level that emits them). */
  logLines?: Record<string, unknown>[];
}

export async function createTestApp(
  env: Record<string, string> = {},
  opts: TestAppOptions = {},
): Promise<TestApp> {
  const { url, drop } = await freshDatabaseUrl();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cc-data-'));
  const config = loadConfig({
    DATABASE_URL: url,
    JWT_SECRET: 'test-secret-that-is-long-enough-0123456789',
    LOG_LEVEL: 'silent',
    DEMO_SEED: 'false',
    RATE_LIMIT_AUTH_MAX: '10000',
    // Per-user limits out of the way; server/src/platform/limits/limits.test.ts sets them low.
    LIMIT_CHAT_TURNS_PER_MINUTE: '10000',
    LIMIT_RUN_STARTS_PER_MINUTE: '10000',
    LIMIT_UPLOADS_PER_MINUTE: '10000',
    LIMIT_STREAM_TICKETS_PER_MINUTE: '10000',
    LIMIT_CONCURRENT_STREAMS: '10000',
    FILES_DIR: path.join(dataDir, 'files'),
    ...env,
  });
  const lines = opts.logLines;
  const logStream = lines ? { write: (line: string) => void lines.push(JSON.parse(line)) } : undefined;
  const built = await buildApp(config, { serveWeb: env.WEB_DIST !== undefined, logStream });
  await built.app.ready();
  let counter = 0;

  const req: TestApp['req'] = ({ method, url: u, token, body, form }) => {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      return built.app.inject({ method, url: u, headers, payload: new URLSearchParams(form).toString() });
    }
    return built.app.inject({
      method,
      url: u,
      headers,
      ...(body !== undefined ? { payload: body as object } : {}),
    });
  };

  const login = async (email: string, password = PASSWORD) => {
    const res = await req({ method: 'POST', url: '/api/auth/token', form: { username: email, password } });
    if (res.statusCode !== 200) throw new Error(`login failed for ${email}: ${res.statusCode} ${res.body}`);
    return res.json().access_token as string;
  };

  return {
    ...built,
    config,
    req,
    login,
    async listen() {
      const address = await built.app.listen({ port: 0, host: '127.0.0.1' });
      return address.replace('localhost', '127.0.0.1');
    },
    async close() {
      await built.app.close();
      await built.ctx.db.destroy().catch(() => {});
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
    async createUser(level, o = {}) {
      counter += 1;
      const email = o.email ?? `${level}${counter}-${randomUUID().slice(0, 6)}@test.example`;
      const id = await createAccount(built.ctx, {
        email,
        password: o.password ?? PASSWORD,
        user_level: level,
        first_name: o.first_name ?? `${level[0].toUpperCase()}${level.slice(1)}${counter}`,
        last_name: 'Tester',
      });
      return { id, email, user_level: level, token: await login(email, o.password ?? PASSWORD) };
    },
    async createOrg(owner, name = `Org ${randomUUID().slice(0, 6)}`) {
      const org = await createOrganization(
        built.ctx,
        {
          id: owner.id,
          email: owner.email,
          user_level: owner.user_level,
          first_name: null,
          last_name: null,
          organization_id: null,
        },
        name,
        'api',
      );
      return org.id;
    },
    async addToOrg(owner, orgId, member, level = 'user') {
      const auth = (u: TestUser) => ({
        id: u.id,
        email: u.email.toLowerCase(),
        user_level: u.user_level,
        first_name: null,
        last_name: null,
        organization_id: null,
      });
      const invite = await addMember(
        built.ctx,
        auth(owner),
        orgId,
        {
          email: member.email.toLowerCase(),
          org_access_level: level,
        },
        'api',
        memberAccounts,
      );
      await acceptInvitation(built.ctx, auth(member), invite.id, 'api');
    },
  };
}
