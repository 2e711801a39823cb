import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_DB } from '../../test/helpers.ts';
import { createDb } from './index.ts';
import { dropStat4Samples } from './sqlite-statistics.ts';

const count = (db: SQLite.Database, table: string) =>
  (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;

/** A database file with an indexed table that ANALYZE has sampled (sqlite_stat1 and sqlite_stat4). */
function analyzedDatabase(dir: string) {
  const file = path.join(dir, 'app.db');
  const db = new SQLite(file);
  db.exec(
    'create table items (id integer primary key, owner text not null); create index items_owner on items (owner)',
  );
  const insert = db.prepare('insert into items (owner) values (?)');
  db.transaction(() => {
    for (let i = 0; i < 2000; i++) insert.run(`owner-${i % 40}`);
  })();
  db.exec('analyze');
  return { file, db };
}

// sqlite_stat4 exists on the embedded SQLite database only.
describe.skipIf(TEST_DB !== 'sqlite')('no STAT4 samples on SQLite (no recompiling at every run)', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(tmpdir(), 'cc-stat4-'));
    dirs.push(dir);
    return dir;
  };

  it('empties sqlite_stat4 and keeps sqlite_stat1', () => {
    const { db } = analyzedDatabase(tempDir());
    expect(count(db, 'sqlite_stat4')).toBeGreaterThan(0);
    const stat1 = count(db, 'sqlite_stat1');
    expect(stat1).toBeGreaterThan(0);
    expect(dropStat4Samples(db)).toBe(true);
    expect(count(db, 'sqlite_stat4')).toBe(0);
    expect(count(db, 'sqlite_stat1')).toBe(stat1);
    // Nothing left to drop; a database never analyzed has nothing either.
    expect(dropStat4Samples(db)).toBe(false);
    expect(dropStat4Samples(new SQLite(':memory:'))).toBe(false);
    db.close();
  });

  it('leaves an open transaction alone', () => {
    const { db } = analyzedDatabase(tempDir());
    db.exec('begin');
    expect(dropStat4Samples(db)).toBe(false);
    db.exec('commit');
    expect(count(db, 'sqlite_stat4')).toBeGreaterThan(0);
    db.close();
  });

  it('the server drops the samples of the database it opens', async () => {
    const { file, db } = analyzedDatabase(tempDir());
    db.close();
    const handle = createDb({ kind: 'sqlite', file });
    await handle.close();
    const after = new SQLite(file, { readonly: true });
    expect(count(after, 'sqlite_stat4')).toBe(0);
    expect(count(after, 'sqlite_stat1')).toBeGreaterThan(0);
    after.close();
  });
});
