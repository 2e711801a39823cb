import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heldFlushes } from '../../test/held-flushes.ts';
import { TEST_DB } from '../../test/helpers.ts';
import { loadConfig } from '../config.ts';
import type { SyncFn } from './durability.ts';
import { createDb, type DbHandle, withTx } from './index.ts';
import { VOLATILE_WRITE } from './tracking-dialect.ts';

const settledWithin = async (p: Promise<unknown>, ms = 50) =>
  Promise.race([
    p.then(
      () => true,
      () => true,
    ),
    new Promise((r) => setTimeout(() => r(false), ms)),
  ]);

const outcome = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (err: { code?: string; message?: string }) => err.code ?? err.message ?? 'error',
  );

// Commit groups exist on the embedded SQLite database only (PostgreSQL commits durably itself).
describe.skipIf(TEST_DB !== 'sqlite')('concurrent writes share a COMMIT (SQLite)', () => {
  let dir: string;
  let file: string;
  let handle: DbHandle;
  let flushes: ReturnType<typeof heldFlushes>;
  let held = false;

  /** A raw insert: the tracking dialect sees a write to `items` (and joins it to the group). */
  const insert = (db: Kysely<unknown>, id: string, v = 'ok') =>
    sql`insert into items (id, v) values (${id}, ${v})`.execute(db);
  /** The ids another connection sees committed. */
  const committedIds = () => {
    const r = new SQLite(file, { readonly: true });
    try {
      return (r.prepare('select id from items order by id').all() as { id: string }[]).map((x) => x.id);
    } finally {
      r.close();
    }
  };
  const release = async (from: number) => {
    for (const c of flushes.calls.slice(from)) c.release();
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(tmpdir(), 'cc-commit-group-'));
    file = path.join(dir, 'app.db');
    flushes = heldFlushes(file);
    const pass: SyncFn = (fd, cb) => (held ? flushes.syncFn(fd, cb) : fs.fdatasync(fd, cb));
    handle = createDb(loadConfig({ DATABASE_URL: `file:${file}`, JWT_SECRET: 'x'.repeat(40) }).db, {
      walSync: pass,
    });
    // A schema statement commits the group first and runs on its own.
    await sql`create table items (id text primary key, v text not null check (v <> 'bad'))`.execute(
      handle.db,
    );
    // heldFlushes counts journals when a flush starts; this test reads its own table.
    await sql`create table journals (id text)`.execute(handle.db);
    held = true;
  });
  afterAll(async () => {
    held = false;
    for (const c of flushes.calls) c.release();
    await handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes made while a flush runs share the next COMMIT and are acknowledged after its flush', async () => {
    const group = handle.group;
    expect(group).toBeTruthy();
    const db = handle.db as unknown as Kysely<unknown>;
    const commits = group?.commits ?? 0;
    const first = flushes.calls.length;
    const a = insert(db, 'a');
    await flushes.started(first + 1);
    // The first write's group committed just before its flush.
    expect(group?.commits).toBe(commits + 1);
    expect(committedIds()).toContain('a');

    const b = insert(db, 'b');
    const c = insert(db, 'c');
    const tx = withTx(handle.db, async (trx) => {
      await insert(trx as unknown as Kysely<unknown>, 'e1');
      await insert(trx as unknown as Kysely<unknown>, 'e2');
    });
    await new Promise((r) => setTimeout(r, 60));
    // Written and shared by one open transaction: nothing committed, nothing acknowledged.
    expect(await settledWithin(Promise.all([b, c, tx]), 10)).toBe(false);
    expect(group?.commits).toBe(commits + 1);
    expect(committedIds()).toEqual(['a']);

    flushes.calls[first].release();
    await a;
    await flushes.started(first + 2);
    // One COMMIT for the four rows of three callers, then their flush.
    expect(group?.commits).toBe(commits + 2);
    expect(committedIds()).toEqual(['a', 'b', 'c', 'e1', 'e2']);
    expect(await settledWithin(Promise.all([b, c, tx]), 10)).toBe(false);
    flushes.calls[first + 1].release();
    await Promise.all([b, c, tx]);
  });

  it('a transaction that fails and a statement that fails undo only their own writes', async () => {
    const db = handle.db as unknown as Kysely<unknown>;
    const first = flushes.calls.length;
    const a = insert(db, 'f-a');
    await flushes.started(first + 1);
    const failing = withTx(handle.db, async (trx) => {
      await insert(trx as unknown as Kysely<unknown>, 'f-tx');
      throw new Error('changed my mind');
    });
    const good = insert(db, 'f-b');
    const refused = insert(db, 'f-c', 'bad');
    const after = insert(db, 'f-d');
    const results = Promise.all([outcome(failing), outcome(good), outcome(refused), outcome(after)]);
    await new Promise((r) => setTimeout(r, 20));
    await release(first);
    await flushes.started(first + 2);
    await release(first + 1);
    const [failed, kept, constraint, later] = await results;
    expect(failed).toBe('changed my mind');
    expect(kept).toBe('ok');
    expect(constraint).toBe('SQLITE_CONSTRAINT_CHECK');
    expect(later).toBe('ok');
    await a;
    const ids = committedIds();
    expect(ids).toEqual(expect.arrayContaining(['f-a', 'f-b', 'f-d']));
    expect(ids).not.toContain('f-tx');
    expect(ids).not.toContain('f-c');
  });

  it('an application transaction is never split by a commit of its group', async () => {
    held = false;
    try {
      let seenMidway: string[] = [];
      await withTx(handle.db, async (trx) => {
        await insert(trx as unknown as Kysely<unknown>, 'p-1');
        // Longer than the group's idle commit (20 ms): it must wait for the transaction to end.
        await new Promise((r) => setTimeout(r, 60));
        seenMidway = committedIds();
        await insert(trx as unknown as Kysely<unknown>, 'p-2');
      });
      expect(seenMidway).not.toContain('p-1');
      expect(committedIds()).toEqual(expect.arrayContaining(['p-1', 'p-2']));
    } finally {
      held = true;
    }
  });

  it('writes the database rolled back with their group are failed (503), never acknowledged', async () => {
    const db = handle.db as unknown as Kysely<unknown>;
    const first = flushes.calls.length;
    const a = insert(db, 'l-a');
    await flushes.started(first + 1);
    const lost = outcome(insert(db, 'l-b'));
    await new Promise((r) => setTimeout(r, 10));
    // What SQLite does by itself after disk full or an I/O error inside a transaction.
    await sql`rollback`.execute(handle.db);
    const next = outcome(insert(db, 'l-c'));
    await new Promise((r) => setTimeout(r, 10));
    await release(first);
    await a;
    for (let i = 0; i < 100 && flushes.calls.length < first + 2; i++)
      await new Promise((r) => setTimeout(r, 5));
    await release(first + 1);
    // SQLITE_ABORT is one of the codes the error handler answers with 503 and Retry-After.
    expect(await lost).toBe('SQLITE_ABORT');
    expect(await next).toBe('ok');
    const ids = committedIds();
    expect(ids).toContain('l-c');
    expect(ids).not.toContain('l-b');
  });

  it('a write nobody waits for (volatile) is committed by itself within moments', async () => {
    const commits = handle.group?.commits ?? 0;
    await sql.raw(`insert into items (id, v) values ('v-1', 'ok') ${VOLATILE_WRITE}`).execute(handle.db);
    expect(committedIds()).not.toContain('v-1');
    for (let i = 0; i < 100 && !committedIds().includes('v-1'); i++)
      await new Promise((r) => setTimeout(r, 5));
    expect(committedIds()).toContain('v-1');
    expect(handle.group?.commits).toBe(commits + 1);
  });

  it('a second connection to the file in this process turns grouping off for both (no wait on itself)', async () => {
    const other = createDb(loadConfig({ DATABASE_URL: `file:${file}`, JWT_SECRET: 'x'.repeat(40) }).db);
    try {
      expect(handle.group?.enabled).toBe(false);
      expect(other.group?.enabled).toBe(false);
      held = false;
      const started = performance.now();
      await Promise.all([
        insert(handle.db as unknown as Kysely<unknown>, 'two-1'),
        insert(other.db as unknown as Kysely<unknown>, 'two-2'),
        insert(handle.db as unknown as Kysely<unknown>, 'two-3'),
      ]);
      // Each write committed by itself: none waited out the other connection's busy timeout.
      expect(performance.now() - started).toBeLessThan(1000);
      expect(committedIds()).toEqual(expect.arrayContaining(['two-1', 'two-2', 'two-3']));
    } finally {
      await other.close();
      held = true;
    }
    expect(handle.group?.enabled).toBe(true);
  });

  it('SQLITE_SHARED_COMMITS=0 commits each write by itself', async () => {
    const cfg = loadConfig({
      DATABASE_URL: `file:${path.join(dir, 'solo.db')}`,
      JWT_SECRET: 'x'.repeat(40),
      SQLITE_SHARED_COMMITS: '0',
    }).db;
    const solo = createDb(cfg);
    try {
      expect(solo.group).toBeNull();
      await sql`create table items (id text primary key, v text not null)`.execute(solo.db);
      await insert(solo.db as unknown as Kysely<unknown>, 's-1');
      const r = new SQLite(path.join(dir, 'solo.db'), { readonly: true });
      expect(r.prepare('select count(*) as n from items').get()).toEqual({ n: 1 });
      r.close();
    } finally {
      await solo.close();
    }
  });
});
