import { sql } from 'kysely';
import type { Db, Dialect } from './index.ts';

/**
 * A fixed PostgreSQL advisory lock key pair for "start-up schema and seed work" (numbers no other code
 * uses: the bytes of "cc-s" and "tart").
 */
const LOCK = sql`${0x63632d73}::int4, ${0x74617274}::int4`;

/**
 * Runs `fn` while holding the start-up lock, so instances started at once on one PostgreSQL database
 * migrate and seed one after the other: the second finds the schema current and the users there, and
 * seeds nothing (without it, both saw an empty database and one died on a duplicate key). The lock is
 * held on a connection of its own, so `fn` works through the pool as usual; PostgreSQL releases it if
 * this process dies. SQLite is one instance by design (its file lock serialises the writes).
 */
export async function withStartupLock<T>(db: Db, dialect: Dialect, fn: () => Promise<T>): Promise<T> {
  if (dialect !== 'postgres') return fn();
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${LOCK})`.execute(conn);
    try {
      return await fn();
    } finally {
      // A connection that died took its lock with it: nothing left to release then.
      await sql`select pg_advisory_unlock(${LOCK})`.execute(conn).catch(() => {});
    }
  });
}
