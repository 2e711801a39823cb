import { type BudgetCheck, httpBudget, LIST_BUDGETS } from '../budgets.ts';
import { drain, type HttpResult, measure } from '../http.ts';
import { pct, signIn, startOwnServer } from '../own-server.ts';
import type { BenchContext } from './types.ts';
import type { Seeded } from './workspace-seed.ts';

/**
 * Issue #18's realistic misses: what users see when the read cache cannot help. A second server on
 * the same seeded database with the read cache off (READ_CACHE_MB=0), and every request from the
 * next of the seeded users in rotation, so each one reads the database, checks its own session and
 * is shaped for that user (ARCHITECTURE.md section 8: "list budgets hold with the read cache off and
 * 200 distinct users in rotation"). Budgets: LIST_BUDGETS of the engine.
 */
const MISS_ROUTES = [
  // ARCHITECTURE.md section 8's list budget is for "the first page of 50" (the tasks page asks for 100;
  // the one-user runs measure that page too).
  { name: 'tasks', path: '/api/tasks/?limit=50' },
  { name: 'contacts', path: '/api/contacts/?skip=0&limit=50' },
  { name: 'strategic goals', path: '/api/strategic-goals/?limit=50' },
  { name: 'notes (journals)', path: '/api/journals/?skip=0&limit=50' },
];

/** Sign-ins in flight at once (argon2id is deliberately slow; the machine has few cores). */
const SIGN_IN_CONCURRENCY = 4;

/**
 * One request at a time, each as the next user: the service time of a miss without queueing (on a
 * busy machine the figure under load says more about the neighbours).
 */
async function serviceTimes(url: string, rotate: Record<string, string>[], n = 40) {
  const ms: number[] = [];
  let cache: string | null = null;
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const res = await fetch(url, { headers: rotate[i % rotate.length] });
    await res.arrayBuffer();
    ms.push(performance.now() - t);
    cache = res.headers.get('x-cache');
  }
  return { median: pct(ms, 50, 1), p90: pct(ms, 90, 1), cache };
}

async function tokensFor(baseURL: string, emails: string[]): Promise<string[]> {
  const tokens: string[] = new Array(emails.length);
  let next = 0;
  const worker = async () => {
    while (next < emails.length) {
      const i = next++;
      tokens[i] = await signIn(baseURL, emails[i]);
    }
  };
  await Promise.all(Array.from({ length: SIGN_IN_CONCURRENCY }, worker));
  return tokens;
}

export async function measureMisses(
  ctx: BenchContext,
  group: string,
  seeded: Seeded,
): Promise<{ http: HttpResult[]; budgets: BudgetCheck[] }> {
  const server = await startOwnServer({
    name: 'lists-misses',
    databaseUrl: ctx.databaseUrl,
    env: { READ_CACHE_MB: '0' },
  });
  const http: HttpResult[] = [];
  const budgets: BudgetCheck[] = [];
  try {
    const started = performance.now();
    const tokens = await tokensFor(server.baseURL, seeded.rotation);
    const rotate = tokens.map((t) => ({ Authorization: `Bearer ${t}` }));
    console.log(
      `  realistic misses: ${tokens.length} users in rotation (signed in in ${Math.round(performance.now() - started)} ms), ` +
        `read cache off, server ${server.baseURL}`,
    );
    for (const route of MISS_ROUTES) {
      await drain(server.baseURL);
      const alone = await serviceTimes(server.baseURL + route.path, rotate);
      const result = await measure(
        server.baseURL,
        group,
        {
          name: `${route.name}, ${tokens.length} users in rotation, read cache off`,
          method: 'GET',
          path: route.path,
          rotate,
          note:
            `realistic misses: ${tokens.length} users in turn, READ_CACHE_MB=0 (x-cache ${alone.cache ?? 'absent'}); ` +
            `one request at a time: median ${alone.median} ms, p90 ${alone.p90} ms`,
        },
        ctx.settings,
        ctx.control,
        { pairedControl: true },
      );
      http.push(result);
      budgets.push(
        httpBudget(
          result,
          LIST_BUDGETS[ctx.engine],
          `GET ${route.path} (${tokens.length} users in rotation, cache off)`,
        ),
      );
    }
    await drain(server.baseURL);
  } finally {
    await server.stop();
  }
  return { http, budgets };
}
