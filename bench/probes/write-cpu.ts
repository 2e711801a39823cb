/**
 * Server CPU per durable task write (issue #18's "POST /api/tasks/ (durable)" row), in process
 * (app.inject, no socket), on a throwaway SQLite database with the demo workspace.
 * Usage: npx tsx bench/probes/write-cpu.ts   (WRITES=2000 by default)
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../../server/src/app.ts';
import { loadConfig } from '../../server/src/config.ts';
import { seedIfEmpty } from '../../server/src/db/seed/demo.ts';
import { DEMO_PASSWORD } from '../src/config.ts';
import { timeStatements } from './statement-times.ts';

async function main() {
  // WRITE_SQL_TIMES=1: time every statement of the run, by SQL.
  const statements = process.env.WRITE_SQL_TIMES ? timeStatements() : null;
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
  statements?.print(n, 'write');
  await app.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
