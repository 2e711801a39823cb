import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heldFlushes } from '../../test/held-flushes.ts';
import { TEST_DB } from '../../test/helpers.ts';
import { buildApp, type BuiltApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import type { SyncFn } from './durability.ts';
import { createDb, type DbHandle } from './index.ts';

const settledWithin = async (p: Promise<unknown>, ms = 50) =>
  Promise.race([p.then(() => true), new Promise((r) => setTimeout(() => r(false), ms))]);

// Group commit exists on the embedded SQLite database only (PostgreSQL commits durably itself).
describe.skipIf(TEST_DB !== 'sqlite')('group commit (SQLite)', () => {
  let dir: string;
  let file: string;
  let handle: DbHandle;
  let built: BuiltApp;
  let flushes: ReturnType<typeof heldFlushes>;
  let owner: string;
  let held = false;

  const note = (content: string) =>
    handle.db
      .insertInto('journals')
      .values({
        id: `j-${content}`,
        user_id: owner,
        content,
        entry_date: '2026-11-23',
        created_at: '2026-11-23T00:00:00.000Z',
        updated_at: '2026-11-23T00:00:00.000Z',
      })
      .execute();

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(tmpdir(), 'cc-durability-'));
    file = path.join(dir, 'app.db');
    const config = loadConfig({
      DATABASE_URL: `file:${file}`,
      JWT_SECRET: 'test-secret-that-is-long-enough-0123456789',
      LOG_LEVEL: 'silent',
      DEMO_SEED: 'false',
      FILES_DIR: path.join(dir, 'files'),
    });
    flushes = heldFlushes(file);
    // Migrations (and closing) flush too: those go through; the tests hold the rest.
    const pass: SyncFn = (fd, cb) => (held ? flushes.syncFn(fd, cb) : fs.fdatasync(fd, cb));
    handle = createDb(config.db, { walSync: pass });
    built = await buildApp(config, { database: handle });
    await built.app.ready();
    owner = 'u-durability';
    await handle.db
      .insertInto('users')
      .values({
        id: owner,
        email: 'durable@example.com',
        first_name: 'D',
        last_name: 'Urable',
        password_hash: 'x',
        user_level: 'user',
        organization_id: null,
        role: null,
        created_at: '2026-11-23T00:00:00.000Z',
        updated_at: '2026-11-23T00:00:00.000Z',
      })
      .execute();
    held = true;
  });
  afterAll(async () => {
    held = false;
    for (const c of flushes.calls) c.release();
    await built.app.close();
    await handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('commits without fsync (synchronous=NORMAL in WAL mode) and flushes the WAL file itself', async () => {
    const r = new SQLite(file, { readonly: true });
    expect(r.pragma('journal_mode', { simple: true })).toBe('wal');
    r.close();
    const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(handle.db);
    expect(rows[0]?.synchronous).toBe(1); // NORMAL
    const before = flushes.calls.length;
    const write = note('wal-file');
    await flushes.started(before + 1);
    expect(flushes.calls[before].ino).toBe(fs.statSync(`${file}-wal`).ino);
    flushes.calls[before].release();
    await write;
  });

  it('a write is acknowledged only after a flush that started after its commit', async () => {
    const before = flushes.calls.length;
    const rows = flushes.count();
    const write = note('acked-after-flush');
    await flushes.started(before + 1);
    // Committed and visible to other connections, but not yet acknowledged.
    expect(flushes.calls[before].rowsAtStart).toBe(rows + 1);
    expect(await settledWithin(write)).toBe(false);
    flushes.calls[before].release();
    expect(await settledWithin(write, 2000)).toBe(true);
    // Once acknowledged, nothing is left to flush: readers pass freely.
    expect(handle.durability?.clean).toBe(true);
  });

  it('writes that commit during a flush share the next one (group commit)', async () => {
    const before = flushes.calls.length;
    const first = note('group-first');
    await flushes.started(before + 1);
    // These commit while the first flush runs: it started before them, so it cannot acknowledge them.
    const rest = Array.from({ length: 20 }, (_, i) => note(`group-${i}`));
    await new Promise((r) => setTimeout(r, 20));
    expect(flushes.calls).toHaveLength(before + 1);
    flushes.calls[before].release();
    expect(await settledWithin(first, 2000)).toBe(true);
    expect(await settledWithin(Promise.all(rest))).toBe(false);
    await flushes.started(before + 2);
    expect(flushes.calls[before + 1].rowsAtStart).toBe(flushes.count());
    flushes.calls[before + 1].release();
    expect(await settledWithin(Promise.all(rest), 2000)).toBe(true);
    // 21 writes, 2 flushes.
    expect(flushes.calls).toHaveLength(before + 2);
  });

  it('a transaction is acknowledged after the flush of its COMMIT; reads alone flush nothing', async () => {
    const before = flushes.calls.length;
    await handle.db.transaction().execute((trx) => trx.selectFrom('journals').selectAll().execute());
    await handle.db.selectFrom('journals').selectAll().execute();
    expect(flushes.calls).toHaveLength(before);
    const tx = handle.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('journals')
        .values({
          id: 'j-in-tx',
          user_id: owner,
          content: 'in a transaction',
          entry_date: '2026-11-23',
          created_at: '2026-11-23T00:00:00.000Z',
          updated_at: '2026-11-23T00:00:00.000Z',
        })
        .execute();
      return 'done';
    });
    await flushes.started(before + 1);
    expect(await settledWithin(tx)).toBe(false);
    flushes.calls[before].release();
    expect(await tx).toBe('done');
    expect(handle.durability?.clean).toBe(true);
  });

  it('no response is sent while a write it could have read waits for its flush', async () => {
    const before = flushes.calls.length;
    const idle = await built.app.inject({ method: 'GET', url: '/healthz' });
    expect(idle.statusCode).toBe(200);
    const write = note('shown-after-flush');
    await flushes.started(before + 1);
    const res = built.app.inject({ method: 'GET', url: '/healthz' });
    expect(await settledWithin(res)).toBe(false);
    flushes.calls[before].release();
    expect((await res).statusCode).toBe(200);
    await write;
  });

  it('a failed flush fails the write instead of acknowledging it', async () => {
    const before = flushes.calls.length;
    flushes.failNextWith(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    const write = note('flush-fails');
    await flushes.started(before + 1);
    flushes.calls[before].release();
    await expect(write).rejects.toThrow('EIO');
  });
});
