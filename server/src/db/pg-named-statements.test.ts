import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseUrl, TEST_DB } from '../../test/helpers.ts';
import { createDb, type Db, type DbHandle } from './index.ts';
import { MAX_NAMED, StatementNames } from './pg-named-statements.ts';

const pgReady = TEST_DB === 'postgres' && !!process.env.TEST_PG_URL;

describe('which statements get a name', () => {
  it('a parameterised read or write from its second run, never a search or other statements', () => {
    const names = new StatementNames();
    const read = 'select "id" from "tasks" where "created_by" = $1';
    expect(names.nameOf(read)).toBeNull();
    const name = names.nameOf(read);
    expect(name).toMatch(/^cc_[0-9a-f]{24}$/);
    expect(names.nameOf(read)).toBe(name);
    const search = 'select "id" from "tasks" where lower("title") like $1';
    const fullText = 'select "entity_id" from "search_documents" where tsv @@ plainto_tsquery($1)';
    const ddl = 'alter table "tasks" add column "x" text';
    for (const text of [search, fullText, ddl]) {
      names.nameOf(text);
      expect(names.nameOf(text)).toBeNull();
    }
  });

  it('at most MAX_NAMED texts per process', () => {
    const names = new StatementNames();
    for (let i = 0; i < MAX_NAMED; i++) {
      names.nameOf(`select ${i} where $1::int > 0`);
      expect(names.nameOf(`select ${i} where $1::int > 0`)).not.toBeNull();
    }
    names.nameOf('select -1 where $1::int > 0');
    expect(names.nameOf('select -1 where $1::int > 0')).toBeNull();
    expect(names.size).toBe(MAX_NAMED);
  });
});

describe.runIf(pgReady)('named statements on PostgreSQL', () => {
  let handle: DbHandle;
  let unnamed: DbHandle;
  let url: string;
  let drop: () => Promise<void>;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  /** The texts prepared on this connection. */
  const prepared = async (conn: Db) =>
    (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(conn)).rows.map(
      (r) => r.statement,
    );

  beforeAll(async () => {
    const db = await freshDatabaseUrl();
    url = db.url;
    drop = db.drop;
    handle = createDb({ kind: 'postgres', url });
    unnamed = createDb({ kind: 'postgres', url, namedStatements: false });
    await admin('create table named_probe (id int primary key, title text not null)');
    await admin("insert into named_probe values (1, 'one'), (2, 'two')");
  });
  afterAll(async () => {
    await handle?.close();
    await unnamed?.close();
    await drop?.();
  });

  it('a statement run again is prepared on the connection and answers the same', async () => {
    await handle.db.connection().execute(async (conn) => {
      const titles: string[] = [];
      for (const id of [1, 2, 1]) {
        const { rows } = await sql<{ title: string }>`select title from named_probe where id = ${id}`.execute(
          conn,
        );
        titles.push(rows[0].title);
      }
      expect(titles).toEqual(['one', 'two', 'one']);
      expect(await prepared(conn)).toContain('select title from named_probe where id = $1');
    });
  });

  it('PG_NAMED_STATEMENTS=0: nothing is prepared', async () => {
    await unnamed.db.connection().execute(async (conn) => {
      for (const id of [1, 2, 1]) await sql`select title from named_probe where id = ${id}`.execute(conn);
      expect(await prepared(conn)).toEqual([]);
    });
  });

  it('a migration elsewhere that changes a statement’s columns: the next run answers with them', async () => {
    await handle.db.connection().execute(async (conn) => {
      const read = () =>
        sql<Record<string, unknown>>`select * from named_probe where id = ${1}`.execute(conn);
      await read();
      await read();
      expect(await prepared(conn)).toContain('select * from named_probe where id = $1');
      await admin("alter table named_probe add column note text not null default 'n'");
      // Without dropping the statement PostgreSQL answers "cached plan must not change result type".
      expect((await read()).rows).toEqual([{ id: 1, title: 'one', note: 'n' }]);
      expect((await read()).rows).toEqual([{ id: 1, title: 'one', note: 'n' }]);
    });
  });

  it('inside a transaction the change fails that transaction only; the next one runs', async () => {
    const read = (db: Db) =>
      sql<Record<string, unknown>>`select * from named_probe where id = ${2}`.execute(db);
    await handle.db.connection().execute(async (conn) => {
      await read(conn);
      await read(conn);
      await admin('alter table named_probe add column extra int not null default 7');
      const failed = await conn
        .transaction()
        .execute((trx) => read(trx))
        .then(
          () => null,
          (err: { code?: string }) => err.code,
        );
      expect(failed).toBe('0A000');
      const again = await conn.transaction().execute((trx) => read(trx));
      expect(again.rows).toEqual([{ id: 2, title: 'two', note: 'n', extra: 7 }]);
    });
  });
});
