import { type BudgetCheck, httpBudget, LIST_BUDGETS, latencyBudget } from '../budgets.ts';
import { drain, type HttpResult, measure } from '../http.ts';
import type { LoopDelay } from '../server.ts';
import type { BenchContext } from './types.ts';

/**
 * ARCHITECTURE.md section 8, the rows the list figures alone do not cover, on the workspace-lists
 * database as its busy user:
 * - writes: `POST /api/tasks/` at 32 connections (every write durable before it is answered): ≥ 10 % of
 *   the control route, p99 ≤ 40 ms, on both engines;
 * - lists under writes: the first page of 50 tasks at 32 connections while tasks are created
 *   alongside (every write makes the cached pages of the tasks list unusable, so this is the figure
 *   with the read cache doing real work): the engine's list budget (budgets.ts);
 * - the server's event-loop delay (monitorEventLoopDelay, read through the bench's preload) during
 *   each phase: p99 ≤ 50 ms.
 */

const WRITE_BUDGET = { minRatio: 0.1, maxP99: 40 };
const LOOP_P99_BUDGET_MS = 50;
/** Writes per second alongside the list load: a busy workspace's pace, one request at a time. */
const SIDE_WRITES_PER_SECOND = 20;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const taskBody = (title: string) =>
  JSON.stringify({ title, priority: 'Medium', status: 'To Do', description: 'Created by the bench.' });

/** Creates tasks one at a time at a steady pace until stopped; resolves with how many were written. */
function sideWriter(baseURL: string, auth: Record<string, string>) {
  let stopped = false;
  let written = 0;
  let failed = 0;
  const done = (async () => {
    const gap = 1000 / SIDE_WRITES_PER_SECOND;
    while (!stopped) {
      const t = performance.now();
      const res = await fetch(`${baseURL}/api/tasks/`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: taskBody(`Side write ${written + failed}`),
      });
      await res.arrayBuffer();
      if (res.status === 201 || res.status === 200) written++;
      else failed++;
      await sleep(Math.max(0, gap - (performance.now() - t)));
    }
    return { written, failed };
  })();
  return {
    stop: () => {
      stopped = true;
      return done;
    },
  };
}

const loopText = (d: LoopDelay) =>
  `event-loop delay p50 ${d.p50_ms} ms, p99 ${d.p99_ms} ms, max ${d.max_ms} ms`;

export async function measureWrites(
  ctx: BenchContext,
  group: string,
  auth: Record<string, string>,
): Promise<{ http: HttpResult[]; budgets: BudgetCheck[]; notes: string[] }> {
  const { baseURL, settings, control } = ctx;
  const notes: string[] = [];
  const budgets: BudgetCheck[] = [];
  await drain(baseURL);

  await ctx.loopDelay();
  const writes = await measure(
    baseURL,
    group,
    {
      name: 'create task',
      method: 'POST',
      path: '/api/tasks/',
      headers: { ...auth, 'content-type': 'application/json' },
      body: taskBody('Bench write'),
    },
    settings,
    control,
    { pairedControl: true },
  );
  const writeLoop = await ctx.loopDelay();
  notes.push(
    `POST /api/tasks/ (durable: flushed before answered): ${((writes.ratio_to_control ?? 0) * 100).toFixed(1)} % of control, ` +
      `p99 ${writes.p99_ms} ms; ${loopText(writeLoop)}`,
  );
  budgets.push(
    httpBudget(writes, WRITE_BUDGET, 'POST /api/tasks/ (durable)'),
    latencyBudget(group, 'event loop during the writes', 'p99', writeLoop.p99_ms, LOOP_P99_BUDGET_MS),
  );
  await drain(baseURL);

  const path = '/api/tasks/?limit=50';
  await ctx.loopDelay();
  const writer = sideWriter(baseURL, auth);
  const mixed = await measure(
    baseURL,
    group,
    {
      name: `tasks, page of 50, with ${SIDE_WRITES_PER_SECOND} task writes/s alongside`,
      method: 'GET',
      path,
      headers: auth,
      note: `while one client creates ${SIDE_WRITES_PER_SECOND} tasks a second`,
    },
    settings,
    // The engine's control from the start: a control run now would share the machine with the writer.
    control,
  );
  const side = await writer.stop();
  const mixedLoop = await ctx.loopDelay();
  notes.push(
    `GET ${path} with ${SIDE_WRITES_PER_SECOND} task writes/s alongside (${side.written} written, ${side.failed} refused): ` +
      `${((mixed.ratio_to_control ?? 0) * 100).toFixed(1)} % of control, p99 ${mixed.p99_ms} ms; ${loopText(mixedLoop)}`,
  );
  budgets.push(
    httpBudget(
      mixed,
      LIST_BUDGETS[ctx.engine],
      `GET ${path} with ${SIDE_WRITES_PER_SECOND} task writes/s alongside`,
    ),
    latencyBudget(group, 'event loop during lists under writes', 'p99', mixedLoop.p99_ms, LOOP_P99_BUDGET_MS),
  );
  await drain(baseURL);
  return { http: [writes, mixed], budgets, notes };
}
