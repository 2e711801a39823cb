import fs from 'node:fs';
import SQLite from 'better-sqlite3';
import { expect } from 'vitest';
import type { SyncFn } from '../src/db/durability.ts';

/**
 * A WAL flush the test holds until it lets it go: each call records the file it flushes and the
 * rows committed when it started, then waits for release() before calling the real fdatasync.
 */
export function heldFlushes(dbFile: string) {
  const calls: { ino: number; rowsAtStart: number; release: () => void }[] = [];
  let failNext: Error | null = null;
  const count = () => {
    const r = new SQLite(dbFile, { readonly: true });
    try {
      return (r.prepare('select count(*) as n from journals').get() as { n: number }).n;
    } finally {
      r.close();
    }
  };
  const syncFn: SyncFn = (fd, cb) => {
    const failure = failNext;
    failNext = null;
    calls.push({
      ino: fs.fstatSync(fd).ino,
      rowsAtStart: count(),
      release: () => (failure ? cb(failure) : fs.fdatasync(fd, cb)),
    });
  };
  return {
    syncFn,
    calls,
    failNextWith: (err: Error) => {
      failNext = err;
    },
    /** Waits until `n` flushes have started. */
    started: async (n: number) => {
      for (let i = 0; i < 200 && calls.length < n; i++) await new Promise((r) => setTimeout(r, 5));
      expect(calls.length).toBe(n);
    },
    count,
  };
}
