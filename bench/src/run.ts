/**
 * `npm run bench` (root: build first, then this): for each database engine (BENCH_ENGINES, default
 * SQLite then PostgreSQL in a throwaway cluster), starts the built server on a free port with a fresh
 * database and the demo workspace, measures the control route and every scenario group (groups with
 * nothing engine-specific only in the first pass), then prints one budget table and writes
 * bench/results/latest.json and latest.md.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  type BudgetCheck,
  budgetMarkdown,
  budgetSummary,
  budgetsFromNotes,
  budgetTable,
  bundleBudget,
  type LayerCheck,
  layerMarkdown,
  layerTable,
  lighthouseBudget,
} from './budgets.ts';
import {
  type BenchSettings,
  DEMO_PASSWORD,
  type Engine,
  loadSettings,
  REPO_ROOT,
  RESULTS_FILE,
  RESULTS_MD_FILE,
} from './config.ts';
import { groupsOfPass, postgresAdminUrl, runInsidePostgresCluster, useEngine } from './engine.ts';
import { type HttpResult, measure } from './http.ts';
import { GROUPS } from './scenarios/index.ts';
import { LIGHTHOUSE_GOALS } from './scenarios/lighthouse.ts';
import type { BenchContext, BundleResult, LighthouseResult, ScenarioGroup } from './scenarios/types.ts';
import { startServer } from './server.ts';
import { bundleTable, httpTable } from './table.ts';
import { collectBenchGarbage } from './quiet-client.ts';

function gitCommit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

/** What one engine's pass (or all of them) measured. */
interface Collected {
  http: (HttpResult & { engine: Engine })[];
  bundles: BundleResult[];
  lighthouse: LighthouseResult[];
  budgets: BudgetCheck[];
  layers: LayerCheck[];
  notes: string[];
  failed: boolean;
}

/** Signs in demo accounts on one server, once per e-mail. */
function tokenCache(baseURL: string) {
  const tokens = new Map<string, string>();
  return async (email: string) => {
    const cached = tokens.get(email);
    if (cached) return cached;
    const res = await fetch(`${baseURL}/api/auth/token`, {
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
}

/** One engine: its own server and database, the control route, then the groups. */
async function runEngine(
  engine: Engine,
  groups: ScenarioGroup[],
  settings: BenchSettings,
  out: Collected,
): Promise<void> {
  console.log(`\n=== ${engine} ===`);
  const server = await startServer();
  console.log(`server: ${server.baseURL} (pid ${server.pid})\n`);
  try {
    console.log('control route');
    const control = await measure(
      server.baseURL,
      'control',
      { name: 'control (bare JSON, no auth)', method: 'GET', path: '/healthz' },
      settings,
      null,
    );
    out.http.push({ ...control, engine });
    const ctx: BenchContext = {
      baseURL: server.baseURL,
      settings,
      webDist: server.webDist,
      engine,
      databaseUrl: server.databaseUrl,
      loopDelay: server.loopDelay,
      control,
      token: tokenCache(server.baseURL),
    };
    for (const group of groups) {
      console.log(`\n${group.name} (${group.once ? 'once' : engine}): ${group.description}`);
      const budgetEngine = group.once ? null : engine;
      const prefix = group.once ? group.name : `${engine} ${group.name}`;
      try {
        collectBenchGarbage();
        const r = await group.run(ctx);
        out.http.push(...(r.http ?? []).map((h) => ({ ...h, engine })));
        out.bundles.push(...(r.bundles ?? []));
        out.lighthouse.push(...(r.lighthouse ?? []));
        // A group that has no `budgets` yet still gets its rows, from the verdicts in its notes.
        const own = r.budgets ?? budgetsFromNotes(group.name, r.notes ?? []);
        out.budgets.push(
          ...own.map((b) => ({ ...b, engine: budgetEngine })),
          ...(r.bundles ?? []).map((b) => ({ ...bundleBudget(b, group.name), engine: null })),
          ...(r.lighthouse ?? []).map((l) => ({
            ...lighthouseBudget(l, LIGHTHOUSE_GOALS, group.name),
            engine: null,
          })),
        );
        out.layers.push(...(r.layers ?? []).map((l) => ({ ...l, engine: budgetEngine })));
        out.notes.push(...(r.notes ?? []).map((n) => `${prefix}: ${n}`));
      } catch (err) {
        out.failed = true;
        const message = (err as Error).message.split('\n')[0];
        out.notes.push(`${prefix}: FAILED: ${(err as Error).message}`);
        out.budgets.push({
          engine: budgetEngine,
          group: group.name,
          name: 'the group runs to the end',
          budget: 'no error',
          figure: `FAILED: ${message}`,
          pass: false,
        });
        console.error(`  ! ${prefix} failed: ${(err as Error).message}`);
      }
    }
  } finally {
    await server.stop();
  }
}

async function main(): Promise<number> {
  const settings = loadSettings();
  // PostgreSQL wanted and no cluster yet: this bench runs again inside scripts/with-postgres.mjs.
  const wrapped = await runInsidePostgresCluster(settings.engines);
  if (wrapped !== null) return wrapped;

  const groups = settings.only.length
    ? GROUPS.filter((g) => settings.only.some((o) => g.name.includes(o)))
    : GROUPS;
  console.log(
    `bench: ${settings.runs} run(s) of ${settings.duration} s after ${settings.warmup} s warm-up, ` +
      `-c ${settings.connections} (sign-in -c ${settings.authConnections}); engines: ${settings.engines.join(', ')}; ` +
      `groups: ${groups.map((g) => g.name).join(', ')}`,
  );

  const out: Collected = {
    http: [],
    bundles: [],
    lighthouse: [],
    budgets: [],
    layers: [],
    notes: [],
    failed: false,
  };
  const measured: Engine[] = [];
  for (const engine of settings.engines) {
    const adminUrl = engine === 'postgres' ? postgresAdminUrl() : null;
    if (engine === 'postgres' && !adminUrl) {
      // scripts/with-postgres.mjs printed why (PostgreSQL not installed); the table says it too.
      out.notes.push('postgres: NOT MEASURED: PostgreSQL is not installed (no initdb/pg_ctl)');
      out.budgets.push({
        engine,
        group: 'all',
        name: 'every engine-specific group',
        budget: 'measured',
        figure: 'not measured: PostgreSQL is not installed',
        pass: false,
      });
      continue;
    }
    useEngine(engine, adminUrl);
    // Groups with nothing engine-specific (the web build, the browser) run in the first pass only.
    await runEngine(engine, groupsOfPass(groups, measured.length === 0), settings, out);
    measured.push(engine);
  }

  for (const r of out.http) {
    if (r.probe_status >= 300 || r.non2xx > 0 || r.errors > 0) {
      out.notes.push(
        `${r.engine} ${r.method} ${r.path}: probe ${r.probe_status}, ${r.non2xx} non-2xx and ${r.errors} errors in the median run: figures not valid`,
      );
    }
    if (r.note) out.notes.push(`${r.engine} ${r.method} ${r.path}: ${r.note}`);
  }

  const generatedAt = new Date().toISOString();
  const commit = gitCommit();
  const output = {
    generated_at: generatedAt,
    commit,
    machine: { node: process.version, platform: `${os.platform()} ${os.release()}`, cpus: os.cpus().length },
    settings: {
      duration_s: settings.duration,
      runs: settings.runs,
      warmup_s: settings.warmup,
      connections: settings.connections,
      auth_connections: settings.authConnections,
      statistic: 'median run by req/s',
      control_route: 'GET /healthz',
      engines: settings.engines,
    },
    engines: measured,
    budgets: out.budgets,
    budget_summary: budgetSummary(out.budgets),
    layers: out.layers,
    http: out.http,
    bundles: out.bundles,
    lighthouse: out.lighthouse,
    notes: out.notes,
  };
  mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  writeFileSync(RESULTS_FILE, `${JSON.stringify(output, null, 2)}\n`);
  writeFileSync(
    RESULTS_MD_FILE,
    [
      `Bench ${generatedAt} (commit ${commit?.slice(0, 10) ?? 'unknown'}; ${os.cpus().length} CPUs, Node ${process.version}; ` +
        `${settings.runs} run(s) of ${settings.duration} s at -c ${settings.connections}, median run; engines: ${measured.join(', ') || 'none'})`,
      '',
      `Control route GET /healthz at the start of each engine's pass: ${
        out.http
          .filter((h) => h.group === 'control')
          .map((h) => `${h.engine} ${h.req_per_sec.toLocaleString('en-US')} req/s (p99 ${h.p99_ms} ms)`)
          .join(', ') || 'not measured'
      } (printed only). Budgets are ratios to floors measured in the same run, product and floor in turn for ` +
        `${settings.rounds} rounds of ${settings.duration} s; the verdict is the median of the per-round ratios (CPU per request unless named).`,
      '',
      budgetMarkdown(out.budgets),
      '',
      budgetSummary(out.budgets),
      '',
      `Speed layers, each on/off in the same run (a layer pays for itself at ≥ 1.5× on its row):`,
      '',
      out.layers.length ? layerMarkdown(out.layers) : 'no layer measured in this run',
      '',
    ].join('\n'),
  );

  if (out.http.length) console.log(`\n${httpTable(out.http)}`);
  if (out.bundles.length) console.log(`\n${bundleTable(out.bundles)}`);
  if (out.notes.length) console.log(`\nnotes:\n${out.notes.map((n) => `  - ${n}`).join('\n')}`);
  if (out.layers.length) console.log(`\nspeed layers (on/off in the same run):\n${layerTable(out.layers)}`);
  console.log(`\nbudgets:\n${budgetTable(out.budgets)}\n\n${budgetSummary(out.budgets)}`);
  const rel = (f: string) => path.relative(process.cwd(), f) || f;
  console.log(`\nwritten: ${rel(RESULTS_FILE)}, ${rel(RESULTS_MD_FILE)}`);
  return out.failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
