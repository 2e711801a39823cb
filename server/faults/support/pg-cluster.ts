import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe } from 'vitest';
import { freePort } from './built-server.ts';

/**
 * A throwaway PostgreSQL cluster the fault tests own, so they can cut its connections and restart it
 * (the shared one of scripts/with-postgres.mjs belongs to the API suite). Same recipe as that script:
 * trust auth, loopback only, a socket in the temp dir, fsync off; as root it runs as `postgres`.
 */
export interface PgCluster {
  /** Superuser URL of the `postgres` database. */
  adminUrl: string;
  /** URL of a new empty database. */
  createDatabase(): Promise<string>;
  /** Ends every backend of `database` (`pg_terminate_backend`) but our own; returns how many. */
  terminateBackends(database: string): Promise<number>;
  stop(): void;
  start(): void;
  destroy(): void;
}

const isRoot = process.getuid?.() === 0;

export function findPgBinDir(): string | null {
  const candidates = [process.env.PG_BIN_DIR, ...(process.env.PATH ?? '').split(path.delimiter)].filter(
    (d): d is string => Boolean(d),
  );
  const base = '/usr/lib/postgresql';
  if (existsSync(base)) {
    const versions = readdirSync(base)
      .filter((v) => /^\d+(\.\d+)?$/.test(v))
      .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a));
    for (const v of versions) candidates.push(path.join(base, v, 'bin'));
  }
  return (
    candidates.find((d) => existsSync(path.join(d, 'initdb')) && existsSync(path.join(d, 'pg_ctl'))) ?? null
  );
}

const PG_BIN_DIR = findPgBinDir();
if (!PG_BIN_DIR) {
  console.warn('\n!!! PostgreSQL not available (no initdb/pg_ctl): PostgreSQL fault tests SKIPPED !!!\n');
}
/** `describe` for scenarios that need a PostgreSQL cluster of their own: skipped, loudly, without one. */
export const pgDescribe = PG_BIN_DIR ? describe : describe.skip;

function run(binDir: string, bin: string, args: string[], cwd: string): void {
  const full = path.join(binDir, bin);
  const [cmd, argv] = isRoot ? ['runuser', ['-u', 'postgres', '--', full, ...args]] : [full, args];
  const r = spawnSync(cmd, argv, { encoding: 'utf8', cwd });
  if (r.status !== 0) throw new Error(`${bin} ${args.join(' ')} failed:\n${r.stdout}${r.stderr}`);
}

export async function startPgCluster(): Promise<PgCluster> {
  const binDir = PG_BIN_DIR;
  if (!binDir) throw new Error('PostgreSQL is not installed (no initdb/pg_ctl)');
  const base = isRoot ? '/tmp' : tmpdir();
  const dir = mkdtempSync(path.join(base, 'cc-faults-pg-'));
  const data = path.join(dir, 'data');
  const log = path.join(dir, 'postgres.log');
  if (isRoot) spawnSync('chown', ['-R', 'postgres:postgres', dir]);
  run(
    binDir,
    'initdb',
    ['-D', data, '-U', 'postgres', '--auth', 'trust', '-E', 'UTF8', '--locale', 'C', '--no-sync'],
    base,
  );
  const port = await freePort();
  appendFileSync(
    path.join(data, 'postgresql.conf'),
    `\nport = ${port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '${dir}'\n` +
      "max_connections = 100\nfsync = off\nfull_page_writes = off\nlog_min_messages = 'warning'\n",
  );
  const ctl = (...args: string[]) =>
    run(binDir, 'pg_ctl', ['-D', data, '-l', log, '-w', '-t', '60', ...args], base);
  ctl('start');
  let running = true;
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const admin = async <T>(fn: (c: pg.Client) => Promise<T>): Promise<T> => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      return await fn(c);
    } finally {
      await c.end();
    }
  };
  let n = 0;
  return {
    adminUrl,
    async createDatabase() {
      const name = `faults_${process.pid}_${++n}`;
      await admin((c) => c.query(`CREATE DATABASE ${name}`));
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async terminateBackends(database) {
      const r = await admin((c) =>
        c.query(
          'select count(*)::int as n from (select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()) t',
          [database],
        ),
      );
      return r.rows[0].n as number;
    },
    stop() {
      ctl('-m', 'fast', 'stop');
      running = false;
    },
    start() {
      ctl('start');
      running = true;
    },
    destroy() {
      if (running) ctl('-m', 'immediate', 'stop');
      running = false;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
