import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { buildApp } from '../../../server/src/app.ts';
import { loadConfig } from '../../../server/src/config.ts';
import { resolveModel } from '../../../server/src/ai/models.ts';
import { streamModelSteps } from '../../../server/src/ai/stream/model-steps.ts';
import { setBudget } from '../../../server/src/modules/usage/usage.repository.ts';
import { saveModelPrices } from '../../../server/src/modules/usage/usage-prices.service.ts';
import { createAccount } from '../../../server/src/modules/users/users.service.ts';
import { startMockOpenAI } from '../../../server/test/mock-openai.ts';
import { measure } from '../http.ts';
import { pct } from '../own-server.ts';
import type { ScenarioGroup } from './types.ts';

/**
 * Spend governance (issue 21):
 * 1. GET /api/usage/summary over one million usage rows (60 days, every demo user) answers from the
 *    daily roll-up: p99 ≤ 50 ms, by day and by person, under load on the shared bench server.
 * 2. Metering adds ≤ 0.5 ms to a chat turn's first token: the app's model layer in this process
 *    against the mock model, the same turn with the metered model (price lookup, a reservation on the
 *    organization's and the member's budget counters) and with the bare one, interleaved; p50 of the
 *    difference. (The settle happens after the stream, off the first-token path.)
 */
const USAGE_ROWS = 1_000_000;
const DAYS = 60;
const SUMMARY_P99_BUDGET_MS = 50;
const METERING_BUDGET_MS = 0.5;
const TURNS = 60;
const FEATURES = ['chat', 'memory', 'advice', 'task_suggestions', 'crew', 'flow'];
const MODELS = ['gpt-5-chat', 'gpt-5', 'gpt-5-mini', 'gemini-2.5-pro'];

/** One million call rows straight into the WAL database, then their daily roll-up. */
function seedUsage(dbFile: string): void {
  const db = new Database(dbFile);
  db.pragma('busy_timeout = 10000');
  const users = db.prepare('select id, organization_id from users').all() as {
    id: string;
    organization_id: string | null;
  }[];
  const ins = db.prepare(
    `insert into usage_events (id, at, day, user_id, organization_id, model, engine, feature, conversation_id,
       run_id, agent_id, input_tokens, output_tokens, cost_micros, duration_ms, outcome)
     values (?, ?, ?, ?, ?, ?, 'openai', ?, null, null, null, ?, ?, ?, ?, 'ok')`,
  );
  const now = Date.now();
  db.transaction(() => {
    for (let i = 0; i < USAGE_ROWS; i++) {
      const u = users[i % users.length];
      const at = new Date(now - (i % DAYS) * 86_400_000 - (i % 86_000) * 1000).toISOString();
      const input = 200 + (i % 1800);
      const output = 50 + (i % 700);
      ins.run(
        randomUUID(),
        at,
        at.slice(0, 10),
        u.id,
        u.organization_id,
        MODELS[i % MODELS.length],
        FEATURES[i % FEATURES.length],
        input,
        output,
        Math.ceil((input * 1_250_000 + output * 10_000_000) / 1_000_000),
        300 + (i % 2000),
      );
    }
  })();
  db.exec(`insert into usage_daily (day, user_id, organization_id, model, feature, calls, input_tokens,
      output_tokens, cost_micros)
    select day, coalesce(user_id, ''), coalesce(organization_id, ''), model, feature, count(*), sum(input_tokens),
      sum(output_tokens), sum(cost_micros) from usage_events group by 1, 2, 3, 4, 5
    on conflict (day, user_id, organization_id, model, feature) do update set calls = excluded.calls`);
  db.close();
}

/** First-token times of the app's model layer, metered and bare, interleaved. */
export async function meteringOverhead(): Promise<{ metered: number[]; bare: number[] }> {
  const mock = await startMockOpenAI({ models: ['gpt-5-chat'] });
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-usage-'));
  const config = loadConfig({
    DATABASE_URL: `file:${path.join(dir, 'usage.db')}`,
    JWT_SECRET: 'bench-secret-that-is-long-enough-0123456789',
    LOG_LEVEL: 'silent',
    DEMO_SEED: 'false',
    OPENAI_BASE_URL: mock.url,
    OPENAI_API_KEY: 'bench',
    FILES_DIR: path.join(dir, 'files'),
  });
  const built = await buildApp(config, { serveWeb: false });
  try {
    const ctx = built.ctx;
    const userId = await createAccount(ctx, {
      email: 'meter@bench.example',
      password: 'bench-password-1',
      user_level: 'ceo',
      first_name: 'Meter',
      last_name: 'Bench',
    });
    const orgId = randomUUID();
    await ctx.db
      .insertInto('organizations')
      .values({
        id: orgId,
        name: 'Bench',
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      } as never)
      .execute();
    const now = new Date().toISOString();
    // Both budgets set (large): every call runs both conditional reservations.
    await setBudget(ctx.db, {
      scope_key: `org:${orgId}`,
      organization_id: orgId,
      user_id: null,
      monthly_micros: 1e12,
      updated_at: now,
    });
    await setBudget(ctx.db, {
      scope_key: `member:${orgId}:${userId}`,
      organization_id: orgId,
      user_id: userId,
      monthly_micros: 1e12,
      updated_at: now,
    });
    await saveModelPrices(ctx, {
      models: [{ model: 'gpt-5-chat', input_per_million_usd: 1.25, output_per_million_usd: 10 }],
    });
    const turn = async (metered: boolean) => {
      mock.script({ kind: 'text', chunks: Array.from({ length: 10 }, (_, i) => `tok${i} `) });
      const { model } = metered
        ? resolveModel(ctx, 'gpt-5-chat', { userId, organizationId: orgId, feature: 'chat' })
        : resolveModel({ config: ctx.config }, 'gpt-5-chat');
      let first = 0;
      const sent = performance.now();
      await streamModelSteps({
        model,
        system: 'You are a bench.',
        messages: [{ role: 'user', content: 'Hello there' }],
        tools: {},
        maxSteps: 1,
        maxRetries: 0,
        abortSignal: new AbortController().signal,
        onText: () => {
          if (!first) first = performance.now() - sent;
        },
      });
      return first;
    };
    for (let i = 0; i < 5; i++) {
      await turn(true);
      await turn(false);
    }
    const metered: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < TURNS; i++) {
      metered.push(await turn(true));
      bare.push(await turn(false));
    }
    return { metered, bare };
  } finally {
    await built.app.close();
    await built.ctx.db.destroy().catch(() => {});
    await mock.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export const usageBench: ScenarioGroup = {
  name: 'usage',
  description: 'spend governance: usage summary over 1M rows, metering on the first token',
  async run(ctx) {
    const notes: string[] = [];
    const t0 = performance.now();
    seedUsage(ctx.dbFile);
    notes.push(
      `seeded ${USAGE_ROWS.toLocaleString()} usage rows and their daily roll-up in ${Math.round(performance.now() - t0)} ms`,
    );
    console.log(`  ${notes[0]}`);
    const headers = { authorization: `Bearer ${await ctx.token('admin@demo.example')}` };
    const since = new Date(Date.now() - (DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
    const until = new Date().toISOString().slice(0, 10);
    const results = [];
    for (const group of ['day', 'user'] as const) {
      const r = await measure(
        ctx.baseURL,
        'usage',
        {
          name: `usage summary by ${group}`,
          method: 'GET',
          path: `/api/usage/summary?group_by=${group}&since=${since}&until=${until}`,
          headers,
        },
        ctx.settings,
        ctx.control,
      );
      results.push(r);
      notes.push(
        `summary by ${group} over ${USAGE_ROWS.toLocaleString()} rows: p99 ${r.p99_ms} ms (budget ${SUMMARY_P99_BUDGET_MS}): ${r.p99_ms <= SUMMARY_P99_BUDGET_MS ? 'PASS' : 'FAIL'}`,
      );
    }
    const { metered, bare } = await meteringOverhead();
    const added = Math.round((pct(metered, 50, 3) - pct(bare, 50, 3)) * 1000) / 1000;
    notes.push(
      `first token, model layer with metering p50 ${pct(metered, 50, 3)} ms, without ${pct(bare, 50, 3)} ms: metering adds ${added} ms (budget ${METERING_BUDGET_MS}): ${added <= METERING_BUDGET_MS ? 'PASS' : 'FAIL'}`,
    );
    for (const n of notes) console.log(`  ${n}`);
    return { http: results, notes };
  },
};
