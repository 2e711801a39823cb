import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../../server/src/app.ts';
import { loadConfig } from '../../server/src/config.ts';
import { seedIfEmpty } from '../../server/src/db/seed/demo.ts';
import { DEMO_PASSWORD } from '../src/config.ts';
import { seedWorkspace } from '../src/scenarios/workspace-seed.ts';

/**
 * The app in this process on a throwaway SQLite database with the demo workspace (the probes measure
 * server CPU through app.inject), and the demo ceo's Authorization header. `env` adds settings.
 * PROBE_PG=1 under scripts/with-postgres.mjs: a fresh database on that cluster instead. PROBE_SEED=1:
 * the workspace-lists data set too, and its busy user's header instead.
 */
export async function probeApp(name: string, env: Record<string, string> = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), `${name}-`));
  const databaseUrl = process.env.PROBE_PG ? await freshPgDatabase(name) : `file:${dir}/app.db`;
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: databaseUrl,
    FILES_DIR: `${dir}/files`,
    DEMO_SEED: 'true',
    DEMO_PASSWORD,
    JWT_SECRET: randomBytes(48).toString('base64url'),
    LOG_LEVEL: 'warn',
    ...env,
  });
  const { app, ctx } = await buildApp(config, { serveWeb: false });
  await seedIfEmpty(ctx);
  const user = process.env.PROBE_SEED ? (await seedWorkspace(databaseUrl)).heavy.email : 'ceo@demo.example';
  const tok = await app.inject({
    method: 'POST',
    url: '/api/auth/token',
    payload: new URLSearchParams({ username: user, password: DEMO_PASSWORD }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  const auth = { authorization: `Bearer ${tok.json().access_token}` };
  return { app, ctx, auth };
}

async function freshPgDatabase(name: string): Promise<string> {
  const admin = process.env.TEST_PG_URL;
  if (!admin) throw new Error('PROBE_PG=1 needs TEST_PG_URL (run under scripts/with-postgres.mjs)');
  const db = `${name.replace(/\W/g, '_')}_${randomBytes(3).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`create database ${db}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${db}`;
  return url.toString();
}
