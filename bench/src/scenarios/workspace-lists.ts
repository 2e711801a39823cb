import { type BudgetCheck, httpBudget, LIST_BUDGETS } from '../budgets.ts';
import { drain, type HttpResult, measure } from '../http.ts';
import type { ScenarioGroup } from './types.ts';
import { measureMisses } from './workspace-misses.ts';
import { SEARCH_WORD, seedWorkspace } from './workspace-seed.ts';
import { measureWrites } from './workspace-writes.ts';

/** The first page as the web app asks for it: status, item count and body size (uncompressed). */
async function firstPage(url: string, auth: Record<string, string>) {
  const started = performance.now();
  const res = await fetch(url, { headers: { ...auth, 'accept-encoding': 'identity' } });
  const body = Buffer.from(await res.arrayBuffer());
  // The first request of a page reads the database; the read cache (SQLite) serves the next ones.
  const readMs = Math.round((performance.now() - started) * 10) / 10;
  const cache = res.headers.get('x-cache');
  let items: number | null = null;
  try {
    const json = JSON.parse(body.toString('utf8'));
    items = Array.isArray(json) ? json.length : Array.isArray(json?.items) ? json.items.length : null;
  } catch {
    // not JSON: the probe in measure() reports the status
  }
  return { status: res.status, bytes: body.length, items, readMs, cache };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function settleConnections(baseURL: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    await sleep(200);
    try {
      await (await fetch(`${baseURL}/healthz`)).arrayBuffer();
      return;
    } catch (err) {
      if (attempt >= 4) throw err;
    }
  }
}

/** One request at a time (no queueing): the median and the worst of `n` latencies, in ms. */
async function sequential(url: string, auth: Record<string, string>, n = 15) {
  const ms: number[] = [];
  let cache: string | null = null;
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const res = await fetch(url, { headers: auth });
    await res.arrayBuffer();
    ms.push(performance.now() - t);
    cache = res.headers.get('x-cache');
  }
  ms.sort((a, b) => a - b);
  return {
    median: Math.round(ms[Math.floor(n / 2)] * 10) / 10,
    max: Math.round(ms[n - 1] * 10) / 10,
    cache,
  };
}

/** The workspace list routes on a seeded workspace (100k tasks, 20k contacts, 50k notes, 5k goals). */
export const workspaceLists: ScenarioGroup = {
  name: 'workspace-lists',
  description:
    'seeds 1k users / 50 orgs / 100k tasks / 20k contacts / 50k notes / 5k goals, then the first page of ' +
    'GET /api/tasks/ (plain, page of 50, status+priority, search), /api/contacts/ (page of 50), /api/journals/, /api/strategic-goals/ as a busy user; ' +
    'then tasks/contacts/goals/notes with 200 users in rotation and the read cache off; then writes',
  async run(ctx) {
    const { baseURL, settings, control } = ctx;
    const s = await seedWorkspace(ctx.databaseUrl);
    const c = s.counts;
    const notes = [
      `seeded in ${s.seconds} s: ${Object.entries(c)
        .map(([k, v]) => `${v.toLocaleString('en-US')} ${k}`)
        .join(', ')}`,
      `measured as ${s.heavy.email} (member of ${s.heavy.orgs} organization(s), one of them the busiest with ` +
        `${s.busiestOrgShares.toLocaleString('en-US')} shared tasks): can see ${s.heavy.visibleTasks.toLocaleString('en-US')} tasks, ` +
        `${s.heavy.visibleContacts} contacts, ${s.heavy.notes} notes, ${s.visibleGoals} goals`,
    ];
    console.log(`  ${notes.join('\n  ')}`);
    // Seeding blocked this process's event loop (with the search triggers of 0004 it can take longer
    // than the server's keep-alive timeout): let it see the sockets the server closed meanwhile, so no
    // request goes out on a dead keep-alive connection ("fetch failed").
    await settleConnections(baseURL);
    const auth = { Authorization: `Bearer ${await ctx.token(s.heavy.email)}` };
    const routes = [
      { name: 'tasks', path: '/api/tasks/' },
      // ARCHITECTURE.md section 8's budget is for a first page of 50 (the tasks page asks for 100)
      { name: 'tasks, page of 50', path: '/api/tasks/?limit=50' },
      { name: 'tasks status+priority', path: '/api/tasks/?status=In%20Progress&priority=High' },
      { name: 'tasks search', path: `/api/tasks/?search=${SEARCH_WORD}` },
      // as the contacts page asks for it (50 at a time, searched on the server)
      { name: 'contacts', path: '/api/contacts/?skip=0&limit=50' },
      { name: 'journals', path: '/api/journals/?skip=0&limit=100' },
      { name: 'strategic goals', path: '/api/strategic-goals/' },
      // the approvals inbox, oldest first, as its page asks for it
      { name: 'inbox', path: '/api/inbox/?limit=100' },
    ];
    const http: HttpResult[] = [];
    const budgets: BudgetCheck[] = [];
    const budget = LIST_BUDGETS[ctx.engine];
    for (const route of routes) {
      await drain(baseURL);
      const page = await firstPage(baseURL + route.path, auth);
      const alone = await sequential(baseURL + route.path, auth);
      const size =
        `first page: ${page.items ?? '?'} items, ${page.bytes.toLocaleString('en-US')} bytes (uncompressed); ` +
        `one request at a time: median ${alone.median} ms, max ${alone.max} ms of 15; ` +
        `read from the database ${page.readMs} ms (x-cache ${page.cache ?? 'absent'}), then x-cache ${alone.cache ?? 'absent'}`;
      const result = await measure(
        baseURL,
        this.name,
        { name: route.name, method: 'GET', path: route.path, headers: auth, note: size },
        settings,
        control,
        { pairedControl: true },
      );
      http.push(result);
      budgets.push(httpBudget(result, budget, `GET ${route.path} (one busy user)`));
      await drain(baseURL);
    }
    // Realistic misses on the same data, before the writes add rows to it.
    const misses = await measureMisses(ctx, this.name, s);
    // Writes, and a list under writes, on the same database (they add rows, so they come last).
    const writes = await measureWrites(ctx, this.name, auth);
    for (const n of writes.notes) console.log(`  ${n}`);
    return {
      http: [...http, ...misses.http, ...writes.http],
      budgets: [...budgets, ...misses.budgets, ...writes.budgets],
      notes: [...notes, ...writes.notes],
    };
  },
};
