import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { numbered, openSeedDb } from './seed-db.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('SeedDb', () => {
  it('writes PostgreSQL placeholders for the `?` of the shared SQL', () => {
    expect(numbered('select * from t where a = ? and b in (?, ?)')).toBe(
      'select * from t where a = $1 and b in ($2, $3)',
    );
  });

  it('on SQLite, inserts rows and reads them back with `?` parameters', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cc-seed-db-'));
    dirs.push(dir);
    const file = path.join(dir, 'x.db');
    const setup = new Database(file);
    setup.exec('create table t (id text primary key, n integer, note text)');
    setup.close();

    const db = await openSeedDb(`file:${file}`);
    expect(db.engine).toBe('sqlite');
    await db.insert(
      't',
      ['id', 'n', 'note'],
      [
        ['a', 1, null],
        ['b', 2, 'two'],
        ['c', 3, 'three'],
      ],
    );
    await db.analyze();
    expect(await db.get<{ n: number }>('select count(*) as n from t where n >= ?', [2])).toEqual({ n: 2 });
    expect(await db.all('select id, note from t where id in (?, ?) order by id', ['a', 'b'])).toEqual([
      { id: 'a', note: null },
      { id: 'b', note: 'two' },
    ]);
    await db.close();
  });
});
