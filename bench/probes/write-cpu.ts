/**
 * Server CPU per durable task write (issue #18's "POST /api/tasks/ (durable)" row), in process
 * (app.inject, no socket), on a throwaway SQLite database with the demo workspace.
 * Usage: npx tsx bench/probes/write-cpu.ts   (WRITES=2000 by default)
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { buildApp } from '../../server/src/app.ts';
import { loadConfig } from '../../server/src/config.ts';
import { seedIfEmpty } from '../../server/src/db/seed/demo.ts';
import { DEMO_PASSWORD } from '../src/config.ts';

/** WRITE_SQL_TIMES=1: time every statement run (better-sqlite3's Statement#run and #all), by SQL. */
const times = new Map<string, { n: number; ms: number }>();
function timeStatements() {
  const proto = Object.getPrototypeOf(new Database(':memory:').prepare('select 1'));
  for (const method of ['run', 'all'] as const) {
    const original = proto[method];
    proto[method] = function (this: { source: string }, ...args: unknown[]) {
      const t = performance.now();
      try {
        return original.apply(this, args);
      } finally {
        const e = times.get(this.source) ?? { n: 0, ms: 0 };
        e.n++;
        e.ms += performance.now() - t;
        times.set(this.source, e);
      }
    };
  }
}

async function main() {
  if (process.env.WRITE_SQL_TIMES) timeStatements();
  const dir = mkdtempSync(path.join(tmpdir(), 'write-probe-'));
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: `file:${dir}/app.db`,
    FILES_DIR: `${dir}/files`,
    DEMO_SEED: 'true',
    DEMO_PASSWORD,
    JWT_SECRET: randomBytes(48).toString('base64url'),
    RATE_LIMIT_WRITE_MAX: '100000000',
    LOG_LEVEL: 'warn',
  });
  const { app, ctx } = await buildApp(config, { serveWeb: false });
  await seedIfEmpty(ctx);
  // WRITE_PRAGMA: a pragma to try (e.g. "wal_autocheckpoint=0"), in the same session as a baseline run.
  if (process.env.WRITE_PRAGMA) await sql.raw(`pragma ${process.env.WRITE_PRAGMA}`).execute(ctx.db);
  const tok = await app.inject({
    method: 'POST',
    url: '/api/auth/token',
    payload: new URLSearchParams({ username: 'ceo@demo.example', password: DEMO_PASSWORD }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  const auth = { authorization: `Bearer ${tok.json().access_token}` };
  const write = async (i: number) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/tasks/',
      headers: auth,
      payload: { title: `Probe task ${i}`, priority: 'High', status: 'To Do' },
    });
    if (res.statusCode !== 201) throw new Error(`${res.statusCode} ${res.body}`);
  };
  for (let i = 0; i < 200; i++) await write(i);
  const n = Number(process.env.WRITES ?? 2000);
  const cpu = process.cpuUsage();
  const t = performance.now();
  // 32 at a time, like the bench's connections, so the group commit batches them.
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < n) await write(next++);
    }),
  );
  const used = process.cpuUsage(cpu);
  console.log(
    `POST /api/tasks/: cpu ${((used.user + used.system) / n / 1000).toFixed(3)} ms/write, wall ${((performance.now() - t) / n).toFixed(3)} ms/write, flushes ${ctx.durability?.flushes}`,
  );
  if (process.env.WRITE_SQL_TIMES) {
    for (const [q, e] of [...times].sort((a, b) => b[1].ms - a[1].ms).slice(0, 12))
      console.log(`${e.ms.toFixed(1).padStart(8)} ms ${String(e.n).padStart(6)}x  ${q.slice(0, 140)}`);
  }
  await app.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
