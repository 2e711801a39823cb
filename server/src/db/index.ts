import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { DbConfig } from '../config.ts';
import { ChangeTracker } from './change-tracker.ts';
import { withStatementCache } from './sqlite-statements.ts';
import { trackingDialect } from './tracking-dialect.ts';
import type { Database } from './types.ts';

export type Db = Kysely<Database>;
export type Dialect = DbConfig['kind'];

export interface DbHandle {
  db: Db;
  dialect: Dialect;
  /**
   * When each table last changed, for reads cached in this process. Only on SQLite: there one process
   * sees every write (another process's commit counts as a change to everything); PostgreSQL is the
   * scale-out deployment, where other instances write unseen, so nothing is cached there.
   */
  changes: ChangeTracker | null;
  close(): Promise<void>;
}

export function createDb(cfg: DbConfig): DbHandle {
  if (cfg.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: cfg.url, max: 10 });
    // An idle connection the server drops (a PostgreSQL restart, an admin terminating it) emits
    // 'error' on the pool; unhandled, that would crash the process. The pool replaces it on next use.
    pool.on('error', (err) => {
      process.emitWarning(`PostgreSQL idle connection lost: ${err.message}`);
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', changes: null, close: () => db.destroy() };
  }
  if (cfg.file !== ':memory:') mkdirSync(path.dirname(cfg.file), { recursive: true });
  const sqlite = new SQLite(cfg.file);
  // Durability first: no acknowledged write may be lost to a crash (ARCHITECTURE.md section 9).
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const changes = new ChangeTracker(sqlite);
  const db = new Kysely<Database>({
    dialect: trackingDialect(new SqliteDialect({ database: withStatementCache(sqlite) }), changes),
  });
  return { db, dialect: 'sqlite', changes, close: () => db.destroy() };
}

export const nowIso = () => new Date().toISOString();

/** Runs fn in a transaction, joining the caller's when one is already open (services compose). */
export function withTx<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}
