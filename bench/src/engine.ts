import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { type Engine, REPO_ROOT } from './config.ts';

/**
 * The engine the servers started from now on use. One at a time: run.ts measures every group on one
 * engine, then switches. A module-level setting (not a parameter) so the groups that start servers of
 * their own (runs, comms streams, chat) follow it without knowing about engines.
 */
let active: { engine: Engine; adminUrl: string | null } = { engine: 'sqlite', adminUrl: null };

export function useEngine(engine: Engine, adminUrl: string | null): void {
  if (engine === 'postgres' && !adminUrl) throw new Error('PostgreSQL needs the cluster URL (TEST_PG_URL)');
  active = { engine, adminUrl };
}

export function activeEngine(): Engine {
  return active.engine;
}

/**
 * A fresh database for one bench server: a SQLite file in the server's temporary directory, or a new
 * database in the throwaway PostgreSQL cluster (dropped with the cluster when the bench ends).
 */
export async function freshDatabaseUrl(dir: string): Promise<string> {
  if (active.engine === 'sqlite' || !active.adminUrl) return `file:${path.join(dir, 'bench.db')}`;
  const name = `bench_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: active.adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(active.adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Set by run.ts on the copy of itself that runs inside scripts/with-postgres.mjs. */
const WRAPPED = 'BENCH_IN_WITH_POSTGRES';

/**
 * When PostgreSQL is wanted and no cluster is at hand, runs this very bench again inside
 * `scripts/with-postgres.mjs` (which starts a throwaway cluster, passes its URL as TEST_PG_URL and
 * removes it afterwards, also when interrupted) and resolves with its exit code; null means "carry on
 * here". Reusing the script keeps one recipe for the cluster.
 */
export async function runInsidePostgresCluster(engines: readonly Engine[]): Promise<number | null> {
  if (!engines.includes('postgres') || process.env.TEST_PG_URL || process.env[WRAPPED]) return null;
  const child = spawn(
    process.execPath,
    [
      path.join(REPO_ROOT, 'scripts', 'with-postgres.mjs'),
      process.execPath,
      ...process.execArgv,
      ...process.argv.slice(1),
    ],
    { stdio: 'inherit', env: { ...process.env, [WRAPPED]: '1' } },
  );
  // with-postgres.mjs forwards these to the bench and then removes the cluster: wait for it.
  const ignore = () => {};
  process.on('SIGINT', ignore);
  process.on('SIGTERM', ignore);
  return new Promise((resolve) => {
    child.on('error', (err) => {
      console.error(`could not start scripts/with-postgres.mjs: ${err.message}`);
      resolve(1);
    });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

/** The cluster the bench may use for PostgreSQL (null: PostgreSQL is not installed, see the notice). */
export function postgresAdminUrl(): string | null {
  return process.env.TEST_PG_URL || null;
}

/**
 * The groups of one engine's pass: all of them in the first pass; afterwards only the engine-specific
 * ones (a group marked `once` measures the web build or the browser, the same on every engine).
 */
export function groupsOfPass<G extends { once?: boolean }>(groups: readonly G[], firstPass: boolean): G[] {
  return firstPass ? [...groups] : groups.filter((g) => !g.once);
}
