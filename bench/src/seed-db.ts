import Database from 'better-sqlite3';
import pg from 'pg';

/**
 * A bench-only connection to a running bench server's database, to seed it directly (far faster than
 * through the API) on either engine. SQL is written once with `?` placeholders; only plain inserts and
 * portable queries go through it, so both engines read it alike.
 */
export interface SeedDb {
  engine: 'sqlite' | 'postgres';
  all<T>(sql: string, params?: unknown[]): Promise<T[]>;
  get<T>(sql: string, params?: unknown[]): Promise<T | undefined>;
  /** Inserts rows in one transaction (batched statements on PostgreSQL). */
  insert(table: string, columns: readonly string[], rows: unknown[][]): Promise<void>;
  /** Sets one column of rows by id, in one transaction. */
  setColumn(table: string, column: string, values: [id: string, value: unknown][]): Promise<void>;
  /**
   * Fresh planner statistics. On SQLite the first ANALYZE also makes the server's connection reload
   * the schema (sqlite_stat1 is a schema change), and the WAL is checkpointed.
   */
  analyze(): Promise<void>;
  close(): Promise<void>;
}

/** `?` → `$1, $2, ...` (the bench's queries hold no `?` inside literals). */
export function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

function openSqlite(file: string): SeedDb {
  const db = new Database(file);
  db.pragma('busy_timeout = 10000');
  db.pragma('foreign_keys = ON');
  // The bench's own connection: a crash while seeding only loses a throwaway database.
  db.pragma('synchronous = OFF');
  return {
    engine: 'sqlite',
    all: async <T>(sql: string, params: unknown[] = []) => db.prepare(sql).all(...params) as T[],
    get: async <T>(sql: string, params: unknown[] = []) => db.prepare(sql).get(...params) as T | undefined,
    async insert(table, columns, rows) {
      const stmt = db.prepare(
        `insert into ${table} (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`,
      );
      db.transaction(() => {
        for (const row of rows) stmt.run(...row);
      })();
    },
    async setColumn(table, column, values) {
      const stmt = db.prepare(`update ${table} set ${column} = ? where id = ?`);
      db.transaction(() => {
        for (const [id, value] of values) stmt.run(value, id);
      })();
    },
    async analyze() {
      db.exec('ANALYZE');
      db.pragma('wal_checkpoint(TRUNCATE)');
    },
    close: async () => {
      db.close();
    },
  };
}

/** Parameters per statement: well under PostgreSQL's 65,535, large enough to need few round trips. */
const PG_PARAMS_PER_STATEMENT = 20_000;

async function openPostgres(url: string): Promise<SeedDb> {
  const client = new pg.Client({ connectionString: url });
  // A connection the cluster drops mid-seed fails the query that uses it; the 'error' event must not
  // also end the bench.
  client.on('error', () => {});
  await client.connect();
  return {
    engine: 'postgres',
    all: async <T>(sql: string, params: unknown[] = []) =>
      (await client.query(numbered(sql), params)).rows as T[],
    get: async <T>(sql: string, params: unknown[] = []) =>
      (await client.query(numbered(sql), params)).rows[0] as T | undefined,
    async insert(table, columns, rows) {
      const per = Math.max(1, Math.floor(PG_PARAMS_PER_STATEMENT / columns.length));
      await client.query('begin');
      try {
        for (let i = 0; i < rows.length; i += per) {
          const batch = rows.slice(i, i + per);
          let n = 0;
          const values = batch.map(() => `(${columns.map(() => `$${++n}`).join(', ')})`).join(', ');
          await client.query(`insert into ${table} (${columns.join(', ')}) values ${values}`, batch.flat());
        }
        await client.query('commit');
      } catch (err) {
        await client.query('rollback').catch(() => {});
        throw err;
      }
    },
    async setColumn(table, column, values) {
      const per = Math.floor(PG_PARAMS_PER_STATEMENT / 2);
      await client.query('begin');
      try {
        for (let i = 0; i < values.length; i += per) {
          const batch = values.slice(i, i + per);
          const list = batch.map((_, j) => `($${2 * j + 1}, $${2 * j + 2})`).join(', ');
          await client.query(
            `update ${table} set ${column} = v.value from (values ${list}) as v(id, value) where ${table}.id = v.id`,
            batch.flat(),
          );
        }
        await client.query('commit');
      } catch (err) {
        await client.query('rollback').catch(() => {});
        throw err;
      }
    },
    async analyze() {
      await client.query('analyze');
    },
    close: () => client.end(),
  };
}

/** Opens the database of a bench server by its DATABASE_URL (`file:...` or `postgres://...`). */
export async function openSeedDb(databaseUrl: string): Promise<SeedDb> {
  if (databaseUrl.startsWith('file:')) return openSqlite(databaseUrl.slice('file:'.length));
  return openPostgres(databaseUrl);
}
