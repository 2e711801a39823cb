/**
 * The main-thread tasks of a page load's Chromium trace (bench-only): each task of at least MIN_MS
 * (12) with what it was made of (script compile or evaluation, a timer, style, layout, paint, with JS
 * frames when the trace has CPU samples), and the blocking time those tasks would make at 4× CPU, as
 * Lighthouse's simulated throttling multiplies what it observed (only tasks from first contentful paint
 * on count, as in Total Blocking Time). Reads the traces `BENCH_LIGHTHOUSE_REPORTS` keeps beside each
 * report, or `TRACE=` of web-profile.ts.
 * Usage: npx tsx bench/probes/trace-tasks.ts /tmp/lh/_app_ceodashboard-1.trace.json [...]
 */
import { readFileSync } from 'node:fs';

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: Record<string, unknown> };
}

const MIN_MS = Number(process.env.MIN_MS ?? 12);
const SLOWDOWN = 4;
/** The events worth naming inside a task (their durations overlap when nested). */
const PARTS = new Set([
  'v8.compileModule',
  'v8.evaluateModule',
  'v8.compile',
  'EvaluateScript',
  'FunctionCall',
  'TimerFire',
  'RunMicrotasks',
  'ParseHTML',
  'ParseAuthorStyleSheet',
  'UpdateLayoutTree',
  'Layout',
  'Paint',
  'MinorGC',
  'MajorGC',
]);

function tasksOf(file: string): void {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as TraceEvent[] | { traceEvents: TraceEvent[] };
  const events = Array.isArray(raw) ? raw : raw.traceEvents;
  const mains = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  // The renderer main thread with the most task time is the page's.
  const busy = new Map<string, number>();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (e.ph === 'X' && e.name === 'RunTask' && mains.has(key))
      busy.set(key, (busy.get(key) ?? 0) + (e.dur ?? 0));
  }
  const main = [...busy.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  const onMain = events
    .filter((e) => e.ph === 'X' && `${e.pid}:${e.tid}` === main)
    .sort((a, b) => a.ts - b.ts);
  if (onMain.length === 0) throw new Error(`${file}: no renderer main thread`);
  const t0 = onMain[0].ts;
  const fcp = events.find((e) => e.name === 'firstContentfulPaint')?.ts ?? t0;
  let blocking = 0;
  console.log(`${file}: first contentful paint at ${Math.round((fcp - t0) / 1000)} ms`);
  for (const task of onMain) {
    const ms = (task.dur ?? 0) / 1000;
    if (task.name !== 'RunTask' || ms < MIN_MS) continue;
    const end = task.ts + (task.dur ?? 0);
    const parts = new Map<string, number>();
    for (const e of onMain) {
      if (e.ts < task.ts || e.ts >= end || !PARTS.has(e.name)) continue;
      const url = typeof e.args?.data?.url === 'string' ? ` ${e.args.data.url.split('/').pop()}` : '';
      const key = e.name + url;
      parts.set(key, (parts.get(key) ?? 0) + (e.dur ?? 0) / 1000);
    }
    const counted = task.ts >= fcp ? Math.max(0, ms * SLOWDOWN - 50) : 0;
    blocking += counted;
    const what = [...parts.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([k, v]) => `${k} ${v.toFixed(1)}`)
      .join(', ');
    console.log(
      `  at ${Math.round((task.ts - t0) / 1000)} ms: ${ms.toFixed(1)} ms (${SLOWDOWN}×: blocks ${Math.round(counted)}) ${what}`,
    );
  }
  console.log(`  blocking at ${SLOWDOWN}× from first contentful paint on: ${Math.round(blocking)} ms`);
}

for (const file of process.argv.slice(2)) tasksOf(file);
