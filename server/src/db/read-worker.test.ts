import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heldFlushes } from '../../test/held-flushes.ts';
import { captureWarnings } from '../../test/expected-warnings.ts';
import { createTestApp, TEST_DB, type TestApp, type TestUser } from '../../test/helpers.ts';
import { loadConfig } from '../config.ts';
import type { SyncFn } from './durability.ts';
import { createDb } from './index.ts';
import { type ReadWorker, readWorkerOf } from './read-worker.ts';

// The read worker exists on the embedded SQLite database only (PostgreSQL has a pool of connections).
describe.skipIf(TEST_DB !== 'sqlite')('list pages read on a thread of their own (SQLite)', () => {
  let t: TestApp;
  let user: TestUser;
  let reads: ReadWorker;

  const titles = async () => {
    const res = await t.req({ method: 'GET', url: '/api/tasks/?limit=50', token: user.token });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { title: string }[]).map((x) => x.title).sort();
  };
  const create = async (title: string) => {
    const res = await t.req({ method: 'POST', url: '/api/tasks/', token: user.token, body: { title } });
    expect(res.statusCode, res.body).toBe(201);
  };

  beforeAll(async () => {
    t = await createTestApp({ READ_CACHE_MB: '0' });
    user = await t.createUser('user');
    reads = readWorkerOf(t.ctx.db) as ReadWorker;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('reads a page on the worker when nothing is uncommitted, with what the main connection shows', async () => {
    await create('first');
    await create('second');
    const before = reads.reads;
    // The list route compares every page with one presented from the rows on the main connection
    // under tests (tasks.list-entry.ts), so a page that differs fails the request.
    expect(await titles()).toEqual(['first', 'second']);
    expect(reads.reads).toBe(before + 1);
  });

  it('answers each of many concurrent pages with its own rows, beyond the replies it may await', async () => {
    const reads2 = readWorkerOf(t.ctx.db) as ReadWorker;
    const other = await t.createUser('user');
    const res = await t.req({
      method: 'POST',
      url: '/api/tasks/',
      token: other.token,
      body: { title: 'theirs' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const before = reads2.reads;
    // 150 at once: more than the 64 replies the worker may await (the rest are read on the main
    // connection), and the replies' slots are reused while others are still awaited.
    const pages = await Promise.all(
      Array.from({ length: 150 }, async (_, i) => {
        const who = i % 2 ? other : user;
        const r = await t.req({ method: 'GET', url: '/api/tasks/?limit=50', token: who.token });
        expect(r.statusCode, r.body).toBe(200);
        return { who, titles: (r.json() as { title: string }[]).map((x) => x.title).sort() };
      }),
    );
    for (const p of pages) expect(p.titles).toEqual(p.who === other ? ['theirs'] : ['first', 'second']);
    expect(reads2.reads).toBeGreaterThan(before);
    const done = await Promise.all(Array.from({ length: 200 }, () => titles()));
    for (const d of done) expect(d).toEqual(['first', 'second']);
  });

  it('goes on reading on the main connection when the worker is gone', async () => {
    await titles(); // the worker is running
    const worker = (reads as unknown as { worker: { terminate(): Promise<number> } | null }).worker;
    expect(worker).not.toBeNull();
    const warnings = captureWarnings();
    try {
      await worker?.terminate();
      expect(await warnings.next(/read worker/)).toBe(
        'SQLite read worker stopped (exited with code 1); pages are read on the main thread',
      );
    } finally {
      warnings.restore();
    }
    await create('after the worker');
    const before = reads.reads;
    expect(await titles()).toEqual(['after the worker', 'first', 'second']);
    expect(reads.reads).toBe(before);
  });
});

describe.skipIf(TEST_DB !== 'sqlite')('the read worker and the commit group (SQLite)', () => {
  it('leaves a page to the main connection while a write of this process is uncommitted', async () => {
    const dir = fs.mkdtempSync(path.join(tmpdir(), 'cc-read-worker-'));
    const file = path.join(dir, 'app.db');
    const flushes = heldFlushes(file);
    let held = false;
    const pass: SyncFn = (fd, cb) => (held ? flushes.syncFn(fd, cb) : fs.fdatasync(fd, cb));
    const handle = createDb(loadConfig({ DATABASE_URL: `file:${file}`, JWT_SECRET: 'x'.repeat(40) }).db, {
      walSync: pass,
    });
    const db = handle.db as unknown as Kysely<unknown>;
    try {
      await sql`create table items (id text primary key)`.execute(db);
      await sql`create table journals (id text)`.execute(db); // heldFlushes counts its rows
      const reads = readWorkerOf(handle.db) as ReadWorker;
      const page = 'select id from items order by id limit ?';
      held = true;
      const a = sql`insert into items (id) values ('a')`.execute(db);
      await flushes.started(1);
      // 'a' is committed (its flush is under way); the worker reads it.
      expect(await reads.all(page, [10])).toEqual([{ id: 'a' }]);
      // 'b' waits in the open shared transaction for the next flush: the worker would not see it.
      const b = sql`insert into items (id) values ('b')`.execute(db);
      await new Promise((r) => setTimeout(r, 30));
      expect(handle.group?.isOpen).toBe(true);
      expect(reads.all(page, [10])).toBeNull();
      held = false;
      for (const c of flushes.calls) c.release();
      await Promise.all([a, b]);
      expect(await reads.all(page, [10])).toEqual([{ id: 'a' }, { id: 'b' }]);
    } finally {
      held = false;
      for (const c of flushes.calls) c.release();
      await handle.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
