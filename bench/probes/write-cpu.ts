/**
 * Server CPU per durable task write (issue #18's "POST /api/tasks/ (durable)" row), in process
 * (app.inject, no socket), on a throwaway SQLite database with the demo workspace.
 * Usage: npx tsx bench/probes/write-cpu.ts   (WRITES=2000 by default)
 */
import { sql } from 'kysely';
import { probeApp } from './probe-app.ts';
import { timeStatements } from './statement-times.ts';

async function main() {
  // WRITE_SQL_TIMES=1: time every statement of the run, by SQL.
  const statements = process.env.WRITE_SQL_TIMES ? timeStatements() : null;
  const { app, ctx, auth } = await probeApp('write-probe', { RATE_LIMIT_WRITE_MAX: '100000000' });
  // WRITE_PRAGMA: a pragma to try (e.g. "wal_autocheckpoint=0"), in the same session as a baseline run.
  if (process.env.WRITE_PRAGMA) await sql.raw(`pragma ${process.env.WRITE_PRAGMA}`).execute(ctx.db);
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
