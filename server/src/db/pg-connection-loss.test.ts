import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureWarnings } from '../../test/expected-warnings.ts';
import { freshDatabaseUrl, TEST_DB } from '../../test/helpers.ts';
import { createDb, type DbHandle } from './index.ts';
import { isDatabaseUnavailable } from './unavailable.ts';

const pgReady = TEST_DB === 'postgres' && !!process.env.TEST_PG_URL;

// The pool's own behaviour when PostgreSQL drops a connection (pg_terminate_backend, a restart): the
// query on it fails as "unavailable", the process survives, and the next query gets a fresh connection.
describe.runIf(pgReady)('PostgreSQL connection loss', () => {
  let handle: DbHandle;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const db = await freshDatabaseUrl();
    drop = db.drop;
    handle = createDb({ kind: 'postgres', url: db.url });
  });
  afterAll(async () => {
    await handle?.close();
    await drop?.();
  });

  it.each(['db'] as const)(
    'a busy connection of %s terminated mid-query fails that query and the pool recovers',
    async (pool) => {
      const errors: unknown[] = [];
      const onUncaught = (err: unknown) => errors.push(err);
      process.on('uncaughtException', onUncaught);
      // On a busy machine the socket may close only after the connection went back to the pool: the
      // pool then reports it as an idle connection lost (db/index.ts), which is expected here.
      const warnings = captureWarnings();
      try {
        const failure = await handle[pool].connection().execute(async (conn) => {
          const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(conn);
          const busy = sql`select pg_sleep(5)`.execute(conn).then(
            () => null,
            (err: unknown) => err,
          );
          const admin = new pg.Client({ connectionString: process.env.TEST_PG_URL });
          await admin.connect();
          await admin.query('select pg_terminate_backend($1)', [rows[0].pid]);
          await admin.end();
          const err = await busy;
          // Still checked out when the socket closes (as inside a transaction that then rolls back): its
          // 'error' event lands on the client, not on the pool's idle handler.
          await new Promise((r) => setTimeout(r, 100));
          return err;
        });
        expect(isDatabaseUnavailable(failure)).toBe(true);
        expect(errors).toEqual([]);
        const { rows } = await sql<{ one: number }>`select 1 as one`.execute(handle[pool]);
        expect(rows[0].one).toBe(1);
        expect(warnings.messages.filter((m) => !/^PostgreSQL idle connection lost: /.test(m))).toEqual([]);
      } finally {
        process.off('uncaughtException', onUncaught);
        warnings.restore();
      }
    },
  );

  it('a server that is not there is "unavailable", not a bug', async () => {
    // Port 1: nothing listens there, so the connection is refused.
    const down = createDb({ kind: 'postgres', url: 'postgres://postgres@127.0.0.1:1/none' });
    try {
      const err = await sql`select 1`.execute(down.db).then(
        () => null,
        (e: unknown) => e,
      );
      expect(isDatabaseUnavailable(err)).toBe(true);
    } finally {
      await down.close();
    }
  });
});
