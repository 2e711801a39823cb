/**
 * EXPLAIN (ANALYZE, BUFFERS) of every statement the workspace list pages send to PostgreSQL
 * (issue #18), on the workspace-lists data set, as the busy user and as one of the rotation users.
 * The statements are captured as the app sends them (pg's Client#query is wrapped while a page is
 * read), then explained on a connection of their own with the same parameters.
 * Usage: node scripts/with-postgres.mjs npx tsx bench/probes/pg-list-plans.ts
 *   (or TEST_PG_URL=<superuser url> to reuse a cluster; PLANS_DB=<name> reuses a seeded database).
 * Options: PLANS_VERBOSE=1 prints every plan (default: those over PLANS_MIN_MS, 1 ms); PLANS_VACUUM=1
 * vacuums first (index-only scans then skip the heap); PLANS_ROUTES (a comma list) reads those only;
 * PLANS_PGBENCH=1 also runs each page's statements (as the rotation user) under pgbench, prepared, 32
 * clients, PLANS_PGBENCH_S seconds (8): what PostgreSQL alone can serve of that miss on this machine.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../../server/src/app.ts';
import { loadConfig } from '../../server/src/config.ts';
import { seedIfEmpty } from '../../server/src/db/seed/demo.ts';
import { DEMO_PASSWORD } from '../src/config.ts';
import { ROTATION_USERS, SEARCH_WORD, seedWorkspace } from '../src/scenarios/workspace-seed.ts';

const DEFAULT_ROUTES = [
  '/api/tasks/?limit=50',
  '/api/tasks/?status=In%20Progress&priority=High',
  `/api/tasks/?search=${SEARCH_WORD}`,
  `/api/tasks/?limit=50&search=${SEARCH_WORD}`,
  // a rare word (one task in 10,000) and one no task holds: the worst case of the search
  '/api/tasks/?search=%234242',
  '/api/tasks/?search=quarterly%20budget',
  '/api/contacts/?skip=0&limit=50',
  '/api/journals/?skip=0&limit=50',
  '/api/strategic-goals/?limit=50',
  '/api/inbox/?limit=100',
];
const ROUTES = process.env.PLANS_ROUTES?.split(',') ?? DEFAULT_ROUTES;

interface Captured {
  text: string;
  values: unknown[];
}

/** Wraps Client#query so the statements of one page can be collected. */
function captureStatements() {
  let sink: Captured[] | null = null;
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const [q, v] = args;
    if (sink && typeof q === 'string') sink.push({ text: q, values: Array.isArray(v) ? v : [] });
    else if (sink && q && typeof q === 'object' && 'text' in q) {
      const o = q as { text: string; values?: unknown[] };
      sink.push({ text: o.text, values: o.values ?? [] });
    }
    return original.apply(this, args);
  };
  return {
    async during(fn: () => Promise<void>): Promise<Captured[]> {
      const got: Captured[] = [];
      sink = got;
      try {
        await fn();
      } finally {
        sink = null;
      }
      return got;
    },
  };
}

/** A statement with its parameters written in as literals (pgbench sends it as it is). */
function withLiterals({ text, values }: Captured): string {
  const literal = (v: unknown) =>
    v === null || v === undefined
      ? 'null'
      : typeof v === 'number' || typeof v === 'boolean'
        ? String(v)
        : `'${String(v).replaceAll("'", "''")}'`;
  return text.replace(/\$(\d+)/g, (_, n) => literal(values[Number(n) - 1]));
}

/** pgbench from PATH, PG_BIN_DIR or the newest /usr/lib/postgresql/<version>/bin. */
function pgbenchPath(): string {
  if (spawnSync('pgbench', ['--version']).status === 0) return 'pgbench';
  const dirs = process.env.PG_BIN_DIR ? [process.env.PG_BIN_DIR] : [];
  const base = '/usr/lib/postgresql';
  if (existsSync(base))
    for (const v of readdirSync(base).sort((a, b) => Number(b) - Number(a)))
      dirs.push(path.join(base, v, 'bin'));
  const found = dirs.map((d) => path.join(d, 'pgbench')).find((f) => existsSync(f));
  if (!found) throw new Error('PLANS_PGBENCH: pgbench not found (PATH, PG_BIN_DIR, /usr/lib/postgresql)');
  return found;
}

/** Transactions a second PostgreSQL gives these statements at 32 clients (each client runs them in turn). */
function pgbenchTps(url: string, statements: Captured[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'plans-pgbench-'));
  const file = path.join(dir, 'page.sql');
  writeFileSync(file, statements.map((s) => `${withLiterals(s).replace(/\s+/g, ' ')};\n`).join(''));
  const seconds = process.env.PLANS_PGBENCH_S ?? '8';
  const r = spawnSync(
    pgbenchPath(),
    ['-n', '-M', 'prepared', '-c', '32', '-j', '2', '-T', seconds, '-f', file, url],
    {
      encoding: 'utf8',
    },
  );
  const tps = r.stdout.match(/^tps = ([\d.]+)/m)?.[1];
  const latency = r.stdout.match(/^latency average = ([\d.]+ ms)/m)?.[1];
  return tps
    ? `${Math.round(Number(tps))} pages/s, latency ${latency}`
    : `pgbench failed: ${r.stderr.trim()}`;
}

async function databaseUrl(admin: string): Promise<{ url: string; fresh: boolean }> {
  const name = process.env.PLANS_DB ?? `plans_${randomBytes(3).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  const exists = (await client.query('select 1 from pg_database where datname = $1', [name])).rowCount;
  if (!exists) await client.query(`create database ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString(), fresh: !exists };
}

async function main() {
  const admin = process.env.TEST_PG_URL;
  if (!admin) throw new Error('run inside scripts/with-postgres.mjs (TEST_PG_URL)');
  const { url, fresh } = await databaseUrl(admin);
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: url,
    DEMO_SEED: 'true',
    DEMO_PASSWORD,
    JWT_SECRET: randomBytes(48).toString('base64url'),
    READ_CACHE_MB: '0',
    RATE_LIMIT_AUTH_MAX: '100000000',
    LOG_LEVEL: 'warn',
  });
  const { app, ctx } = await buildApp(config, { serveWeb: false });
  await seedIfEmpty(ctx);
  const explain = new pg.Client({ connectionString: url });
  explain.on('error', () => {});
  await explain.connect();
  let users: string[];
  if (fresh) {
    const s = await seedWorkspace(url);
    console.log(`seeded ${url} in ${s.seconds}s; busy user ${s.heavy.email}`);
    users = [s.heavy.email, s.rotation[7 % ROTATION_USERS]];
  } else {
    // The busy user: the one with 150 pending inbox items (workspace-seed.ts).
    const busy = await explain.query(
      `select u.email from inbox_items i join users u on u.id = i.assignee_user_id
       where i.status = 'pending' group by u.email order by count(*) desc limit 1`,
    );
    users = [busy.rows[0].email, 'bench-user-0036@bench.example'];
  }
  await explain.query('analyze');
  const capture = captureStatements();
  if (process.env.PLANS_VACUUM) await explain.query('vacuum analyze');
  const minMs = Number(process.env.PLANS_MIN_MS ?? 1);
  const summary: string[] = [];
  const pgbenchLines: string[] = [];
  for (const email of users) {
    const tok = await app.inject({
      method: 'POST',
      url: '/api/auth/token',
      payload: new URLSearchParams({ username: email, password: DEMO_PASSWORD }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const authorization = `Bearer ${tok.json().access_token}`;
    console.log(`\n===== ${email}`);
    for (const route of ROUTES) {
      // Warm the caches (and the plan cache) once, then capture the second request.
      await app.inject({ method: 'GET', url: route, headers: { authorization } });
      let status = 0;
      let items = 0;
      const statements = await capture.during(async () => {
        const res = await app.inject({ method: 'GET', url: route, headers: { authorization } });
        status = res.statusCode;
        const body = res.json();
        items = Array.isArray(body) ? body.length : (body?.items?.length ?? 0);
      });
      console.log(`\n--- GET ${route}: ${status}, ${items} items, ${statements.length} statements`);
      let total = 0;
      for (const s of statements) {
        if (!/^\s*select/i.test(s.text)) continue;
        const plan = await explain.query(`explain (analyze, buffers) ${s.text}`, s.values);
        const lines = plan.rows.map((r) => r['QUERY PLAN'] as string);
        // The figure: the median of five runs without per-node timing (its overhead is large here).
        const runs: number[] = [];
        for (let i = 0; i < 5; i++) {
          const quick = await explain.query(`explain (analyze, timing off) ${s.text}`, s.values);
          const line = quick.rows
            .map((r) => r['QUERY PLAN'] as string)
            .find((l) => l.startsWith('Execution'));
          runs.push(Number(line?.match(/([\d.]+) ms/)?.[1] ?? 0));
        }
        const ms = runs.sort((a, b) => a - b)[2];
        total += ms;
        console.log(`  ${ms.toFixed(3).padStart(8)} ms  ${s.text.replace(/\s+/g, ' ').slice(0, 140)}`);
        if (ms >= minMs || process.env.PLANS_VERBOSE) {
          console.log(`    SQL: ${s.text.replace(/\s+/g, ' ')}`);
          console.log(`    params: ${JSON.stringify(s.values).slice(0, 300)}`);
          for (const l of lines) console.log(`    | ${l}`);
        }
      }
      summary.push(`${email.padEnd(32)} ${route.padEnd(48)} ${total.toFixed(2).padStart(7)} ms`);
      if (process.env.PLANS_PGBENCH && email === users[users.length - 1])
        pgbenchLines.push(
          `${route.padEnd(48)} ${pgbenchTps(url, statements)} (${statements.length} statements)`,
        );
    }
  }
  console.log("\n===== SQL time per page (sum of the statements' median execution times)");
  for (const l of summary) console.log(l);
  if (pgbenchLines.length) {
    console.log(`\n===== PostgreSQL alone, pgbench -M prepared -c 32 -j 2 (${users[users.length - 1]})`);
    for (const l of pgbenchLines) console.log(l);
  }
  await explain.end();
  await app.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
