import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltServer, login, startBuiltServer } from './support/built-server.ts';
import { type PgCluster, pgDescribe, startPgCluster } from './support/pg-cluster.ts';
import { figure, missingPgTasks, ROUNDS, sleep, startWriters, WRITERS } from './support/writers.ts';

interface Engine {
  name: 'sqlite' | 'postgres';
  /** Which of `ids` are not in the tasks table (read straight from the database). */
  missing(url: string, ids: string[]): Promise<string[]>;
}

async function sqliteMissing(url: string, ids: string[]): Promise<string[]> {
  const db = new SQLite(url.slice('file:'.length), { readonly: true });
  try {
    const stmt = db.prepare('select 1 from tasks where id = ?');
    return ids.filter((id) => !stmt.get(id));
  } finally {
    db.close();
  }
}

/** Writers run, the server is SIGKILLed mid-write, restarted on the same database: nothing acknowledged is gone. */
async function killDuringWrites(url: string, env: Record<string, string>, engine: Engine) {
  const all: string[] = [];
  const statuses: Record<string, number> = {};
  let server: BuiltServer | undefined;
  try {
    for (let round = 0; round < ROUNDS; round++) {
      server = await startBuiltServer({ DATABASE_URL: url, ...env });
      const token = await login(server.url);
      const writers = startWriters(server.url, token, WRITERS);
      // Long enough for writes to be in flight and committed, short enough for CI.
      await sleep(700 + Math.random() * 500);
      await server.kill('SIGKILL');
      const figures = await writers.stop();
      all.push(...figures.acknowledged);
      for (const [k, v] of Object.entries(figures.statuses)) statuses[k] = (statuses[k] ?? 0) + v;
      expect(figures.acknowledged.length).toBeGreaterThan(0);
    }
  } finally {
    await server?.kill('SIGKILL');
  }
  const missing = await engine.missing(url, all);
  figure(`SIGKILL ${engine.name}`, {
    rounds: ROUNDS,
    writers: WRITERS,
    acknowledged: all.length,
    lost: missing.length,
    statuses,
  });
  return { acknowledged: all, missing };
}

describe('SIGKILL during writes on SQLite', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cc-faults-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('loses no acknowledged write, and the file passes integrity_check', async () => {
    const url = `file:${path.join(dir, 'kill.db')}`;
    const env = { FILES_DIR: path.join(dir, 'files') };
    const { missing } = await killDuringWrites(url, env, { name: 'sqlite', missing: sqliteMissing });
    expect(missing).toEqual([]);
    const db = new SQLite(url.slice('file:'.length));
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      db.close();
    }
  });
});

pgDescribe('SIGKILL during writes on PostgreSQL', () => {
  let cluster: PgCluster;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cc-faults-'));
    cluster = await startPgCluster();
  });
  afterAll(() => {
    cluster?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loses no acknowledged write', async () => {
    const url = await cluster.createDatabase();
    const env = { FILES_DIR: path.join(dir, 'files') };
    const { missing } = await killDuringWrites(url, env, { name: 'postgres', missing: missingPgTasks });
    expect(missing).toEqual([]);
  });
});
