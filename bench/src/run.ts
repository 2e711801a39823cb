/**
 * `npm run bench` (root: build first, then this): starts the built server on a free port with a fresh
 * SQLite database and the demo workspace, measures the control route and every scenario group, prints
 * a table and writes bench/results/latest.json.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEMO_PASSWORD, loadSettings, REPO_ROOT, RESULTS_FILE } from './config.ts';
import { type HttpResult, measure } from './http.ts';
import { GROUPS } from './scenarios/index.ts';
import type { BenchContext, BundleResult, LighthouseResult } from './scenarios/types.ts';
import { startServer } from './server.ts';
import { bundleTable, httpTable } from './table.ts';

function gitCommit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

async function main(): Promise<number> {
  const settings = loadSettings();
  const groups = settings.only.length
    ? GROUPS.filter((g) => settings.only.some((o) => g.name.includes(o)))
    : GROUPS;
  console.log(
    `bench: ${settings.runs} run(s) of ${settings.duration} s after ${settings.warmup} s warm-up, ` +
      `-c ${settings.connections} (sign-in -c ${settings.authConnections}); groups: ${groups.map((g) => g.name).join(', ')}`,
  );
  const server = await startServer();
  console.log(`server: ${server.baseURL} (pid ${server.pid})\n`);

  const tokens = new Map<string, string>();
  const token = async (email: string) => {
    const cached = tokens.get(email);
    if (cached) return cached;
    const res = await fetch(`${server.baseURL}/api/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: email, password: DEMO_PASSWORD }).toString(),
    });
    const body = (await res.json().catch(() => ({}))) as { access_token?: string };
    if (!res.ok || !body.access_token)
      throw new Error(`sign-in of ${email} failed: ${res.status} ${JSON.stringify(body)}`);
    tokens.set(email, body.access_token);
    return body.access_token;
  };

  const http: HttpResult[] = [];
  const bundles: BundleResult[] = [];
  const lighthouseResults: LighthouseResult[] = [];
  const notes: string[] = [];
  let failed = false;
  try {
    console.log('control route');
    const control = await measure(
      server.baseURL,
      'control',
      { name: 'control (bare JSON, no auth)', method: 'GET', path: '/healthz' },
      settings,
      null,
    );
    http.push(control);
    const ctx: BenchContext = {
      baseURL: server.baseURL,
      settings,
      webDist: server.webDist,
      dbFile: server.dbFile,
      loopDelay: server.loopDelay,
      control,
      token,
    };
    for (const group of groups) {
      console.log(`\n${group.name}: ${group.description}`);
      try {
        const r = await group.run(ctx);
        http.push(...(r.http ?? []));
        bundles.push(...(r.bundles ?? []));
        lighthouseResults.push(...(r.lighthouse ?? []));
        notes.push(...(r.notes ?? []).map((n) => `${group.name}: ${n}`));
      } catch (err) {
        failed = true;
        notes.push(`${group.name}: FAILED: ${(err as Error).message}`);
        console.error(`  ! ${group.name} failed: ${(err as Error).message}`);
      }
    }
  } finally {
    await server.stop();
  }

  for (const r of http) {
    if (r.probe_status >= 300 || r.non2xx > 0 || r.errors > 0) {
      notes.push(
        `${r.method} ${r.path}: probe ${r.probe_status}, ${r.non2xx} non-2xx and ${r.errors} errors in the median run: figures not valid`,
      );
    }
    if (r.note) notes.push(`${r.method} ${r.path}: ${r.note}`);
  }

  const output = {
    generated_at: new Date().toISOString(),
    commit: gitCommit(),
    machine: { node: process.version, platform: `${os.platform()} ${os.release()}`, cpus: os.cpus().length },
    settings: {
      duration_s: settings.duration,
      runs: settings.runs,
      warmup_s: settings.warmup,
      connections: settings.connections,
      auth_connections: settings.authConnections,
      statistic: 'median run by req/s',
      control_route: 'GET /healthz',
    },
    http,
    bundles,
    lighthouse: lighthouseResults,
    notes,
  };
  mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  writeFileSync(RESULTS_FILE, `${JSON.stringify(output, null, 2)}\n`);

  if (http.length) console.log(`\n${httpTable(http)}`);
  if (bundles.length) console.log(`\n${bundleTable(bundles)}`);
  if (notes.length) console.log(`\nnotes:\n${notes.map((n) => `  - ${n}`).join('\n')}`);
  console.log(`\nwritten: ${path.relative(process.cwd(), RESULTS_FILE) || RESULTS_FILE}`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
