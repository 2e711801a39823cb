import { latencyBudget } from '../budgets.ts';
import { openSeedDb } from '../seed-db.ts';
import type { ScenarioGroup } from './types.ts';
import { seedWorkspace } from './workspace-seed.ts';

/** Issue 20: one brief built with the 100k-task data set in at most this long (p95, server time). */
const BRIEF_P95_BUDGET_MS = 200;
const BRIEFS = 40;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] * 10) / 10;
};

/**
 * The seeded workspace's busiest person (most tasks assigned): their brief reads the most tasks. The
 * workspace is seeded here unless an earlier group (workspace-lists) already did it.
 */
async function briefUser(databaseUrl: string): Promise<{ email: string; seeded: string }> {
  const tasks = async () => {
    const db = await openSeedDb(databaseUrl);
    try {
      // count(*) is a bigint (a string) on PostgreSQL.
      return Number((await db.get<{ n: number | string }>('select count(*) as n from tasks'))?.n ?? 0);
    } finally {
      await db.close();
    }
  };
  const count = await tasks();
  let seeded = `reused the seeded workspace (${count.toLocaleString('en-US')} tasks)`;
  if (count < 100_000) {
    const s = await seedWorkspace(databaseUrl);
    seeded = `seeded in ${s.seconds} s (${(s.counts.tasks ?? 0).toLocaleString('en-US')} tasks)`;
  }
  const db = await openSeedDb(databaseUrl);
  try {
    const row = await db.get<{ email: string }>(
      `select u.email as email from users u join tasks t on t.assigned_to_user_id = u.id
       where u.user_level != 'waitlisted' group by u.id, u.email order by count(*) desc limit 1`,
    );
    if (!row) throw new Error('no seeded user has tasks');
    return { email: row.email, seeded };
  } finally {
    await db.close();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Seeding blocks this process's event loop for longer than the server's keep-alive timeout: let it see
 * the sockets the server closed meanwhile before the next request (as workspace-lists does).
 */
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

/** POST /api/briefs/generate one at a time with the 100k-task data set (offline engine, no e-mail). */
export const briefBench: ScenarioGroup = {
  name: 'brief',
  description: `builds ${BRIEFS} executive briefs one after another (POST /api/briefs/generate) for the busiest seeded user`,
  async run(ctx) {
    const { email, seeded } = await briefUser(ctx.databaseUrl);
    await settleConnections(ctx.baseURL);
    const auth = { Authorization: `Bearer ${await ctx.token(email)}` };
    const times: number[] = [];
    let failed = 0;
    for (let i = 0; i < BRIEFS + 3; i++) {
      const started = performance.now();
      const res = await fetch(`${ctx.baseURL}/api/briefs/generate`, { method: 'POST', headers: auth });
      await res.arrayBuffer();
      const ms = performance.now() - started;
      if (res.status !== 201) failed += 1;
      // The first three warm the statement caches and the offline engine.
      if (i >= 3) times.push(ms);
    }
    const p95 = pct(times, 95);
    const notes = [
      `${seeded}; measured as ${email}`,
      `one brief (facts, checked words, stored): p50 ${pct(times, 50)} ms, p95 ${p95} ms, max ${pct(times, 100)} ms ` +
        `over ${times.length} (budget p95 ≤ ${BRIEF_P95_BUDGET_MS} ms: ${p95 <= BRIEF_P95_BUDGET_MS ? 'within' : 'OVER'})` +
        (failed ? `; ${failed} request(s) failed` : ''),
    ];
    console.log(`  ${notes.join('\n  ')}`);
    const budgets = [latencyBudget('brief', 'one brief, 100k tasks', 'p95', p95, BRIEF_P95_BUDGET_MS)];
    return { notes, budgets };
  },
};
