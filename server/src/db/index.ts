import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { DbConfig } from '../config.ts';
import { ensurePrivateDir, makeOwnerOnly } from '../platform/data-dir.ts';
import { ChangeTracker } from './change-tracker.ts';
import { CommitGroup } from './commit-group.ts';
import { type SyncFn, WalDurability } from './durability.ts';
import { PgChangeFeed } from './pg-change-feed.ts';
import { namedStatementClient, StatementNames } from './pg-named-statements.ts';
import { keepWithoutStat4Samples } from './sqlite-statistics.ts';
import { withStatementCache } from './sqlite-statements.ts';
import type { TableClock } from './table-clock.ts';
import { trackingDialect } from './tracking-dialect.ts';
import { WalCheckpointer } from './wal-checkpointer.ts';
import { attachReadWorker, ReadWorker } from './read-worker.ts';
import type { Database } from './types.ts';

export type Db = Kysely<Database>;
export type Dialect = DbConfig['kind'];

export interface DbHandle {
  db: Db;
  dialect: Dialect;
  /**
   * When each table last changed, for reads cached in this process: on SQLite from the writes this
   * process makes (another process's commit counts as a change to everything), on PostgreSQL from the
   * database's change log, which sees every instance's commits (see PgChangeFeed).
   */
  changes: TableClock;
  /**
   * SQLite's group commit (see {@link WalDurability}): readers await `settled()` before showing what
   * they read. Null on PostgreSQL (its commits are durable when they return) and in memory.
   */
  durability: WalDurability | null;
  /** SQLite's WAL checkpoints, off the event loop (see {@link WalCheckpointer}); null elsewhere. */
  checkpointer?: WalCheckpointer | null;
  /** SQLite's shared write transaction (see {@link CommitGroup}); null elsewhere or when turned off. */
  group?: CommitGroup | null;
  close(): Promise<void>;
}

/**
 * A PostgreSQL pool with the app's connection rules: a connection attempt gives up after a while, so
 * requests during an outage fail (503) rather than queue for ever, and a lost connection, idle or
 * checked out, never ends the process.
 */
function pgPool(cfg: Extract<DbConfig, { kind: 'postgres' }>, max: number): pg.Pool {
  const pool = new pg.Pool({
    connectionString: cfg.url,
    max,
    connectionTimeoutMillis: 5000,
    // The hot statements go named, planned once per connection (see pg-named-statements.ts).
    ...(cfg.namedStatements === false ? {} : { Client: namedStatementClient(new StatementNames()) }),
  });
  // An idle connection the server drops (a PostgreSQL restart, an admin terminating it) emits
  // 'error' on the pool; unhandled, that would crash the process. The pool replaces it on next use.
  pool.on('error', (err) => {
    process.emitWarning(`PostgreSQL idle connection lost: ${err.message}`);
  });
  // A connection that dies while checked out emits 'error' on the client itself, where the pool's
  // idle handler is not attached: without a listener of its own that 'error' would end the process.
  // Its query fails (the request answers 503), and the pool discards it on release as not queryable.
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  return pool;
}

/** Connections of the main PostgreSQL pool. */
const PG_POOL_SIZE = 10;

/** `walSync` replaces the WAL flush (tests watch it; the default is fs.fdatasync). */
export function createDb(cfg: DbConfig, opts: { walSync?: SyncFn } = {}): DbHandle {
  if (cfg.kind === 'postgres') {
    const pool = pgPool(cfg, PG_POOL_SIZE);
    const changes = new PgChangeFeed(pool);
    const db = new Kysely<Database>({ dialect: trackingDialect(new PostgresDialect({ pool }), changes) });
    const close = async () => {
      changes.close();
      await db.destroy();
    };
    return { db, dialect: 'postgres', changes, durability: null, close };
  }
  if (cfg.file !== ':memory:') ensurePrivateDir(path.dirname(cfg.file));
  const sqlite = new SQLite(cfg.file);
  // Owner only, before WAL mode is set: SQLite gives the -wal and -shm files the database file's mode.
  // Files left by an older version are narrowed too.
  if (cfg.file !== ':memory:') for (const f of ['', '-wal', '-shm']) makeOwnerOnly(`${cfg.file}${f}`);
  // Durability first: no acknowledged write may be lost to a crash (ARCHITECTURE.md section 9). A
  // commit writes the WAL without fsync (NORMAL); WalDurability flushes it off the event loop before
  // the write is acknowledged or shown, which is what FULL promised, without a flush per write.
  // Where WAL is unavailable (an in-memory database, a file system without shared memory) SQLite
  // keeps another journal mode, and FULL makes each commit durable by itself.
  const wal = sqlite.pragma('journal_mode = WAL', { simple: true }) === 'wal';
  sqlite.pragma(wal ? 'synchronous = NORMAL' : 'synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // Pages in memory (docs/decisions/ 2026-11-28 "SQLite's page cache and memory mapping"): with
  // SQLite's 2 MB default a list page of scattered rows read most of its pages with read() calls.
  sqlite.pragma(`cache_size = ${-Math.round((cfg.cacheMb ?? 64) * 1024)}`);
  sqlite.pragma(`mmap_size = ${Math.round((cfg.mmapMb ?? 1024) * 1024 * 1024)}`);
  const stopStatistics = keepWithoutStat4Samples(sqlite);
  const changes = new ChangeTracker(sqlite);
  // Checkpoints off the event loop (see WalCheckpointer); inline again should its worker fail.
  const checkpointer = wal ? new WalCheckpointer(sqlite) : null;
  const durability = wal
    ? new WalDurability(`${cfg.file}-wal`, opts.walSync, () => checkpointer?.committed())
    : null;
  // Concurrent writes share a COMMIT, made just before the flush that acknowledges them (CommitGroup).
  const group =
    durability && cfg.commitGroups !== false
      ? new CommitGroup(sqlite, {
          committed: () => {
            durability.groupCommitted();
            checkpointer?.groupCommitted();
          },
          lost: (err) => {
            durability.lost(err);
            changes.changed('all');
          },
        })
      : null;
  const db = new Kysely<Database>({
    dialect: trackingDialect(
      new SqliteDialect({ database: withStatementCache(sqlite) }),
      changes,
      durability,
      group,
    ),
  });
  // List pages on a thread of their own (ReadWorker): only for a file in WAL mode, whose committed
  // state a second connection sees.
  const reads =
    wal && cfg.readWorker !== false
      ? new ReadWorker(sqlite, () => !group?.isOpen && !sqlite.inTransaction, {
          cacheSize: -Math.round((cfg.cacheMb ?? 64) * 1024),
          mmapSize: Math.round((cfg.mmapMb ?? 1024) * 1024 * 1024),
        })
      : null;
  if (reads) attachReadWorker(db, reads);
  const close = async () => {
    stopStatistics();
    await reads?.close();
    await durability?.close();
    group?.close();
    await checkpointer?.close();
    await db.destroy();
  };
  return { db, dialect: 'sqlite', changes, durability, checkpointer, group, close };
}

export const nowIso = () => new Date().toISOString();

/** Runs fn in a transaction, joining the caller's when one is already open (services compose). */
export function withTx<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}
