/**
 * Realistic misses against the built server, with each thread's CPU (issue #18): starts
 * `server/dist/main.js` (or SERVER_MAIN, e.g. another build to compare) on an already seeded database
 * (DATABASE_URL; seed one with miss-cpu.ts), signs in the 200 rotation users, measures the control
 * route and then each route of R (tasks,contacts,goals,notes) with the read cache off, and prints the
 * server's threads' and this process's CPU in cores during each route. NODE_ARGS go to the server
 * (e.g. --trace-gc-nvp, whose lines go to MISS_OUT); CACHE=1 keeps the read cache on with one user.
 * RUNS and D (seconds) as in the bench. Usage:
 *   DATABASE_URL=file:/tmp/x/app.db R=tasks,notes npx tsx bench/probes/miss-load.ts
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_ROOT, loadSettings } from '../src/config.ts';
import { drain, measure } from '../src/http.ts';
import { benchServerEnv, freePort, signIn, sleep } from '../src/own-server.ts';
import pgk from 'pg';
import Database from 'better-sqlite3';

const url = process.env.DATABASE_URL!;
const port = await freePort();
const out = openSync(process.env.MISS_OUT ?? '/dev/null', 'w');
const child = spawn(
  process.execPath,
  [
    ...(process.env.NODE_ARGS ?? '').split(' ').filter(Boolean),
    process.env.SERVER_MAIN ?? path.join(REPO_ROOT, 'server/dist/main.js'),
  ],
  {
    cwd: REPO_ROOT,
    stdio: ['ignore', out, 'inherit'],
    env: {
      ...process.env,
      ...benchServerEnv(port, mkdtempSync(path.join(tmpdir(), 'cc-miss-load-')), url),
      READ_CACHE_MB: process.env.CACHE ? '64' : '0',
      ...(process.env.EXTRA_ENV
        ? Object.fromEntries(process.env.EXTRA_ENV.split(',').map((kv) => kv.split('=')))
        : {}),
    },
  },
);
const base = `http://127.0.0.1:${port}`;
for (let i = 0; i < 300; i++) {
  try {
    if ((await fetch(base + '/healthz')).ok) break;
  } catch {}
  await sleep(200);
}
let emails: string[];
if (url.startsWith('file:')) {
  const db = new Database(url.slice(5), { readonly: true });
  emails = (
    db
      .prepare("select email from users where email not like '%demo.example' order by email limit 200")
      .all() as { email: string }[]
  ).map((r) => r.email);
  db.close();
} else {
  const c = new pgk.Client({ connectionString: url });
  await c.connect();
  emails = (
    await c.query("select email from users where email not like '%demo.example' order by email limit 200")
  ).rows.map((r) => r.email);
  await c.end();
}
const rotate = [] as Record<string, string>[];
for (const e of process.env.CACHE ? emails.slice(0, 1) : emails)
  rotate.push({ Authorization: `Bearer ${await signIn(base, e)}` });
const settings = {
  ...loadSettings(),
  runs: Number(process.env.RUNS ?? 3),
  duration: Number(process.env.D ?? 10),
  warmup: 2,
};
const control = await measure(
  base,
  'c',
  { name: 'control', method: 'GET', path: '/healthz' },
  settings,
  null,
);
const paths: Record<string, string> = {
  tasks: '/api/tasks/?limit=50',
  contacts: '/api/contacts/?skip=0&limit=50',
  goals: '/api/strategic-goals/?limit=50',
  notes: '/api/journals/?skip=0&limit=50',
};
for (const r of (process.env.R ?? 'tasks').split(',')) {
  await drain(base);
  const snap = (pid: number | string) =>
    Object.fromEntries(
      readdirSync(`/proc/${pid}/task`).map((t) => {
        try {
          const f = readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8');
          const name = f.slice(f.indexOf('(') + 1, f.lastIndexOf(')'));
          const v = f.slice(f.lastIndexOf(')') + 2).split(' ');
          return [`${name}:${t}`, Number(v[11]) + Number(v[12])];
        } catch {
          return [t, 0];
        }
      }),
    );
  const t0 = performance.now();
  const a = {
    ...snap(child.pid!),
    ...Object.fromEntries(Object.entries(snap('self')).map(([k, v]) => ['bench ' + k, v])),
  };
  const m = await measure(base, 'm', { name: r, method: 'GET', path: paths[r], rotate }, settings, control);
  const secs = (performance.now() - t0) / 1000;
  const b = {
    ...snap(child.pid!),
    ...Object.fromEntries(Object.entries(snap('self')).map(([k, v]) => ['bench ' + k, v])),
  };
  console.log(
    'CPU (cores):',
    Object.entries(b)
      .map(([k, v]) => [k, (v - (a[k] ?? 0)) / 100 / secs])
      .filter(([, v]) => (v as number) > 0.01)
      .map(([k, v]) => `${k}=${(v as number).toFixed(2)}`)
      .join(' '),
  );
  console.log(
    `RESULT ${process.env.LABEL ?? ''} ${r}: ${m.req_per_sec} req/s p50 ${m.p50_ms} p99 ${m.p99_ms} share ${(m.ratio_to_control! * 100).toFixed(1)}% (control ${control.req_per_sec}); runs ${m.runs.map((x) => `${x.req_per_sec}/${x.p99_ms}`).join(' ')}`,
  );
}
child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
process.exit(0);
