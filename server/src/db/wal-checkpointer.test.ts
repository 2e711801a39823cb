import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { captureWarnings } from '../../test/expected-warnings.ts';
import { TEST_DB } from '../../test/helpers.ts';
import { createDb } from './index.ts';
import { WalCheckpointer } from './wal-checkpointer.ts';

const tick = () => new Promise((r) => setImmediate(r));
/** Frames in the WAL now: mxFrame of the WAL index header, at the start of the -shm file (SQLite's wal.c). */
function walFrames(file: string): number {
  const fd = fs.openSync(`${file}-shm`, 'r');
  try {
    const header = Buffer.alloc(20);
    fs.readSync(fd, header, 0, 20, 0);
    return header.readUInt32LE(16);
  } finally {
    fs.closeSync(fd);
  }
}

/** A WAL database of its own, as createDb opens it (NORMAL: the checkpoint syncs itself). */
function walDatabase(dir: string) {
  const file = path.join(dir, 'app.db');
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('create table rows (id integer primary key, body blob not null)');
  return { file, db };
}

// The checkpointer exists on the embedded SQLite database only (PostgreSQL has no WAL file of ours).
describe.skipIf(TEST_DB !== 'sqlite')('WAL checkpoints off the event loop (SQLite)', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(tmpdir(), 'cc-checkpoint-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('createDb turns SQLite’s inline checkpoint off and hands checkpoints to the worker', async () => {
    const file = path.join(tempDir(), 'app.db');
    const handle = createDb({ kind: 'sqlite', file });
    try {
      const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(
        handle.db,
      );
      expect(rows[0].wal_autocheckpoint).toBe(0);
      expect(handle.checkpointer).toBeInstanceOf(WalCheckpointer);
      await sql`create table t (x text)`.execute(handle.db);
      for (let i = 0; i < 130; i++) await sql`insert into t (x) values (${`row ${i}`})`.execute(handle.db);
      // 131 commits: two rounds asked of the worker (one per 64 commits).
      expect(handle.checkpointer?.rounds).toBe(2);
    } finally {
      await handle.close();
    }
  });

  it('makes the WAL start over under writes without pause, loses nothing, and stops its worker on close', async () => {
    const { file, db } = walDatabase(tempDir());
    const cp = new WalCheckpointer(db, { commitsPerRound: 32, restartFrames: 256 });
    const insert = db.prepare('insert into rows (body) values (?)');
    const body = Buffer.alloc(3000, 7);
    // Writes without a pause, as under load: only a turn of the event loop now and then (when the
    // worker's messages are handled). Each adds three frames (a row of 3,000 bytes and its pages).
    // Without checkpoints that catch up, the WAL only grows: its frame count never drops. How soon the
    // worker catches up depends on the machine, so the writes go on until it has started over three
    // times (or 15 s have passed).
    let written = 0;
    let restarts = 0;
    let frames = 0;
    const deadline = Date.now() + 15_000;
    while (restarts < 3 && Date.now() < deadline) {
      insert.run(body);
      cp.committed();
      written++;
      if (written % 8 === 0) await tick();
      const now = walFrames(file);
      if (now < frames) restarts++;
      frames = now;
    }
    expect(restarts).toBe(3);
    expect(cp.catchUps).toBeGreaterThan(0);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    await cp.close();
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.prepare('select count(*) from rows').pluck().get()).toBe(written);
    db.close();
    // The main connection was the last one open: closing it checkpointed and removed the WAL.
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
  });

  it('gives checkpoints back to the main connection when its worker cannot start', async () => {
    const dir = tempDir();
    const { file, db } = walDatabase(dir);
    const cp = new WalCheckpointer(db, { commitsPerRound: 1, restartFrames: 64 });
    // The worker opens the database by its path: moved away, its connection fails.
    fs.renameSync(file, path.join(dir, 'moved.db'));
    const warnings = captureWarnings();
    try {
      db.prepare('insert into rows (body) values (?)').run(Buffer.from('x'));
      cp.committed();
      expect(await warnings.next(/checkpoint worker/)).toMatch(
        /checkpoint worker failed \(cannot open .*app\.db: /,
      );
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
      await cp.close();
      db.close();
    } finally {
      warnings.restore();
    }
  });
});
