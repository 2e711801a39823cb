import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { inlineLimits, limitSlotsOf, withStatementCache } from './sqlite-statements.ts';

describe('a LIMIT is SQL text on SQLite (no recompiling at every run)', () => {
  it('finds each `limit ?` placeholder and its parameter, not counting quoted text', () => {
    const sql = `select "a?" from t where x = ? and y = '?' union select 1 from u where z = ? limit ? offset ?`;
    const slots = limitSlotsOf(sql);
    expect(slots).toEqual([{ at: sql.indexOf('limit ?') + 6, param: 2 }]);
    expect(limitSlotsOf('select * from t where unlimited = ? LIMIT\n?')).toEqual([
      { at: 'select * from t where unlimited = ? LIMIT\n'.length, param: 1 },
    ]);
    expect(limitSlotsOf('select * from t where id = ?')).toEqual([]);
  });

  it('puts integer limits into the text and keeps the other parameters in order', () => {
    const sql = 'select * from (select * from t where a = ? limit ?) where b = ? limit ? offset ?';
    expect(inlineLimits(sql, limitSlotsOf(sql), ['x', 5, 'y', 50, 100])).toEqual({
      sql: 'select * from (select * from t where a = ? limit 5) where b = ? limit 50 offset ?',
      params: ['x', 'y', 100],
    });
    // Anything but a plain integer stays a parameter (SQLite judges it as before).
    expect(inlineLimits(sql, limitSlotsOf(sql), ['x', 5, 'y', '50; drop table t', 0])).toBeNull();
    expect(inlineLimits(sql, limitSlotsOf(sql), ['x', 1.5, 'y', 50, 0])).toBeNull();
  });

  it('runs Kysely queries with their limits as literals, one cached statement per limit', async () => {
    const raw = new SQLite(':memory:');
    raw.exec('create table t (id integer primary key, name text)');
    for (let i = 1; i <= 10; i++) raw.prepare('insert into t (name) values (?)').run(`n${i}`);
    const prepared: string[] = [];
    const prepare = raw.prepare.bind(raw);
    raw.prepare = ((source: string) => {
      prepared.push(source);
      return prepare(source);
    }) as typeof raw.prepare;
    const db = new Kysely<{ t: { id: number; name: string } }>({
      dialect: new SqliteDialect({ database: withStatementCache(raw) }),
    });
    const page = (limit: number, offset: number) =>
      db
        .selectFrom('t')
        .select('name')
        .where('id', '>', 1)
        .orderBy('id')
        .limit(limit)
        .offset(offset)
        .execute();
    expect((await page(2, 0)).map((r) => r.name)).toEqual(['n2', 'n3']);
    expect((await page(3, 1)).map((r) => r.name)).toEqual(['n3', 'n4', 'n5']);
    expect((await page(2, 4)).map((r) => r.name)).toEqual(['n6', 'n7']);
    expect(prepared.filter((s) => /limit \d/.test(s))).toEqual([
      'select "name" from "t" where "id" > ? order by "id" limit 2 offset ?',
      'select "name" from "t" where "id" > ? order by "id" limit 3 offset ?',
    ]);
    // Writes with a limited subquery go through run(), with the same rewriting.
    await db
      .deleteFrom('t')
      .where('id', 'in', (eb) => eb.selectFrom('t').select('id').orderBy('id').limit(4))
      .execute();
    expect(raw.prepare('select count(*) as n from t').get()).toEqual({ n: 6 });
    await db.destroy();
  });
});
