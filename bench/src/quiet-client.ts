import { readFileSync } from 'node:fs';

/**
 * Runs the bench process's garbage collector now (the bench runs node with --expose-gc), so a
 * collection of what earlier groups left (seeded rows, samples) does not fall inside a latency
 * measurement whose clients live in this process: a pause there is the bench's, not the server's.
 */
export function collectBenchGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
}

/** CPU time counters of the whole machine (Linux /proc/stat, first line), or null elsewhere. */
function machineTicks(): { idle: number; steal: number; total: number } | null {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal (guest time is already in user and nice).
    const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
    return { idle: fields[3] + fields[4], steal: fields[7] ?? 0, total };
  } catch {
    return null;
  }
}

export interface QuietWait {
  waited_ms: number;
  /** Share of the machine's CPU time idle in the last window, in %. */
  idle_pct: number;
  /** Share taken by the hypervisor for other guests (steal) in the last window, in %. */
  steal_pct: number;
}

/**
 * Waits until the machine is quiet: at least `minIdlePct` of every CPU idle over two windows of
 * `windowMs` in a row (at most `maxMs`). Latency figures that a neighbour's work inflates (Lighthouse's
 * blocking time, a burst of turns, a fan-out) start only once what the previous group left behind
 * (a server winding down, a cluster's checkpoint, a browser closing) has finished; the wait and the
 * last window's idle and steal shares go into the group's notes, so a noisy machine shows.
 */
export async function waitForQuietMachine(
  minIdlePct = 85,
  windowMs = 500,
  maxMs = 30_000,
): Promise<QuietWait> {
  const started = performance.now();
  let quiet = 0;
  let last = { idle_pct: 100, steal_pct: 0 };
  let before = machineTicks();
  if (!before) return { waited_ms: 0, ...last };
  while (quiet < 2 && performance.now() - started < maxMs) {
    await new Promise((r) => setTimeout(r, windowMs));
    const now = machineTicks();
    if (!now) break;
    const total = now.total - before.total || 1;
    last = {
      idle_pct: Math.round(((now.idle - before.idle) / total) * 100),
      steal_pct: Math.round(((now.steal - before.steal) / total) * 100),
    };
    quiet = last.idle_pct >= minIdlePct ? quiet + 1 : 0;
    before = now;
  }
  return { waited_ms: Math.round(performance.now() - started), ...last };
}

/** The wait for a quiet machine, as a group's notes say it. */
export const quietNote = (q: QuietWait) =>
  `machine quiet after ${q.waited_ms} ms (idle ${q.idle_pct} %, steal ${q.steal_pct} %)`;
