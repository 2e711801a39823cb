/**
 * Server CPU per realistic-miss request, in process (issue #18). A loaded machine distorts req/s;
 * process CPU time per request (app.inject, no socket) compares before/after in one session.
 * Usage: DATABASE_URL=file:/tmp/x/app.db npx tsx bench/probes/miss-cpu.ts  (seeds the data set once)
 * Options: MISS_N (requests per route, default 400), MISS_ROUTES (comma list of names), MISS_SETUP_SQL.
 */
import { randomBytes } from 'node:crypto';
import { buildApp } from '../../server/src/app.ts';
import { loadConfig } from '../../server/src/config.ts';
import type { Db } from '../../server/src/db/index.ts';
import { listTasksQuery } from '../../server/src/modules/tasks/tasks.repository.ts';
import { sql } from 'kysely';
import { seedIfEmpty } from '../../server/src/db/seed/demo.ts';
import { DEMO_PASSWORD } from '../src/config.ts';
import { seedWorkspace } from '../src/scenarios/workspace-seed.ts';
import { timeStatements } from './statement-times.ts';

const ROUTES: Record<string, string> = {
  control: '/healthz',
  tasks: '/api/tasks/?limit=50',
  contacts: '/api/contacts/?skip=0&limit=50',
  goals: '/api/strategic-goals/?limit=50',
  notes: '/api/journals/?skip=0&limit=50',
  search: '/api/tasks/?limit=50&search=budget',
};

async function main() {
  let databaseUrl = process.env.DATABASE_URL ?? '';
  if (!databaseUrl && process.env.TEST_PG_URL) {
    // Inside scripts/with-postgres.mjs: a database of its own in the throwaway cluster.
    const pg = await import('pg');
    const admin = new pg.default.Client({ connectionString: process.env.TEST_PG_URL });
    await admin.connect();
    await admin.query('create database misses');
    await admin.end();
    databaseUrl = process.env.TEST_PG_URL.replace(/\/postgres$/, '/misses');
  }
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: databaseUrl,
    DEMO_SEED: 'true',
    DEMO_PASSWORD,
    JWT_SECRET: process.env.JWT_SECRET ?? randomBytes(48).toString('base64url'),
    READ_CACHE_MB: '0',
    RATE_LIMIT_AUTH_MAX: '100000000',
    LOGIN_MAX_FAILURES: '100000000',
    LOG_LEVEL: 'warn',
  });
  const { app, ctx } = await buildApp(config, { serveWeb: false });
  await seedIfEmpty(ctx);
  const have = await ctx.db
    .selectFrom('tasks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  if (Number(have?.n ?? 0) < 1000) {
    const s = await seedWorkspace(databaseUrl);
    console.log(`seeded in ${s.seconds}s`);
  }
  const users = await ctx.db
    .selectFrom('users')
    .select('email')
    .where('email', 'not like', '%demo.example')
    .orderBy('email')
    .limit(200)
    .execute();
  const tokens: string[] = [];
  for (const u of users) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/token',
      payload: new URLSearchParams({ username: u.email, password: DEMO_PASSWORD }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    if (res.statusCode !== 200) throw new Error(`sign-in ${u.email}: ${res.statusCode} ${res.body}`);
    tokens.push(res.json().access_token);
  }
  const n = Number(process.env.MISS_N ?? 400);
  const names = (process.env.MISS_ROUTES ?? Object.keys(ROUTES).join(',')).split(',');
  // MISS_SQL_TIMES=1: time every statement of the measured requests, by SQL (either engine).
  let timing = false;
  const statements = process.env.MISS_SQL_TIMES ? timeStatements(() => timing) : null;
  const pass = async (label: string) => {
    for (const name of names) {
      const url = ROUTES[name];
      const run = async (count: number) => {
        let bytes = 0;
        for (let i = 0; i < count; i++) {
          const res = await app.inject({
            method: 'GET',
            url,
            headers: { authorization: `Bearer ${tokens[i % tokens.length]}` },
          });
          if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
          bytes += res.rawPayload.length;
        }
        return bytes;
      };
      await run(Math.min(n, 100));
      const cpu = process.cpuUsage();
      const t = performance.now();
      timing = true;
      const bytes = await run(n);
      timing = false;
      const used = process.cpuUsage(cpu);
      const wall = performance.now() - t;
      console.log(
        `${label} ${name.padEnd(9)} cpu ${((used.user + used.system) / n / 1000).toFixed(3)} ms/req  wall ${(wall / n).toFixed(3)} ms/req  ${Math.round(bytes / n)} B`,
      );
      statements?.print(n, 'req');
    }
    if (process.env.MISS_EXPLAIN) await explain(ctx.db, ctx.dialect);
  };
  // MISS_SETUP_SQL: statements (separated by ';') run before the first pass (e.g. a pragma to compare).
  for (const stmt of (process.env.MISS_SETUP_SQL ?? '').split(';').filter((x) => x.trim()))
    await sql.raw(stmt).execute(ctx.db);
  await pass('before');
  // MISS_AFTER_SQL: statements (separated by ';') to try, then the same pass again, in one session.
  if (process.env.MISS_AFTER_SQL) {
    for (const stmt of process.env.MISS_AFTER_SQL.split(';').filter((x) => x.trim()))
      await sql.raw(stmt).execute(ctx.db);
    await pass('after ');
  }
  await app.close();
}

/** EXPLAIN ANALYZE of a search page and of a goals page's KPIs for one rotation user. */
async function explain(db: Db, dialect: string) {
  const u = await db
    .selectFrom('users')
    .select('id')
    .where('email', 'not like', '%demo.example')
    .orderBy('email')
    .executeTakeFirstOrThrow();
  const orgIds = (
    await db
      .selectFrom('organization_members')
      .select('organization_id')
      .where('user_id', '=', u.id)
      .execute()
  ).map((r) => r.organization_id);
  const prefix = dialect === 'postgres' ? 'explain (analyze, buffers off) ' : 'explain query plan ';
  const show = async (label: string, q: { sql: string; parameters: readonly unknown[] }) => {
    const res = await sql.raw(prefix + q.sql).compile(db);
    const rows = await db.executeQuery({ ...res, parameters: q.parameters } as never);
    console.log(
      `--- ${label}\n${(rows.rows as Record<string, unknown>[]).map((r) => Object.values(r).join(' | ')).join('\n')}`,
    );
  };
  await show(
    'tasks page',
    listTasksQuery(db, {
      userId: u.id,
      orgIds,
      includeCompleted: false,
      completedStatus: 'Done',
      skip: 0,
      limit: 50,
    }).compile(),
  );
  await show(
    'tasks search',
    listTasksQuery(db, {
      userId: u.id,
      orgIds,
      search: 'budget',
      includeCompleted: false,
      completedStatus: 'Done',
      skip: 0,
      limit: 50,
    }).compile(),
  );
  const goals = await db.selectFrom('strategic_goals').select('id').limit(50).execute();
  await show(
    'goal kpis',
    db
      .selectFrom('goal_kpis')
      .selectAll()
      .where(
        'goal_id',
        'in',
        goals.map((g) => g.id),
      )
      .orderBy('goal_id')
      .orderBy('position')
      .limit(150)
      .compile(),
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
