import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, TEST_DB, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { type MockOpenAI, startMockOpenAI } from '../../../test/mock-openai.ts';
import { settleStaleReservations } from './usage-leases.service.ts';
import { type MeterTarget, reserveSpend, settleSpend } from './usage-meter.service.ts';

/** Issue 46 rows 10 and 11: a reservation's owner instance and lease; interrupted calls are metered. */
apiSuite('budget reservations under a lease', () => {
  let mock: MockOpenAI;
  let t: TestApp;
  let ceo: TestUser;
  let member: TestUser;
  let orgId: string;
  const LEASE_MS = 400;
  beforeAll(async () => {
    mock = await startMockOpenAI({ models: ['gpt-5-chat'] });
    t = await createTestApp({
      OPENAI_BASE_URL: mock.url,
      OPENAI_API_KEY: 'test-key',
      AI_MAX_RETRIES: '0',
      SPEND_LEASE_MS: String(LEASE_MS),
    });
    const admin = await t.createUser('admin');
    ceo = await t.createUser('ceo');
    member = await t.createUser('user');
    orgId = await t.createOrg(ceo);
    await t.addToOrg(ceo, orgId, member);
    // $1,000 per million output tokens, $100 per million input tokens.
    const priced = await t.req({
      method: 'PUT',
      url: '/api/admin/model-prices',
      token: admin.token,
      body: { models: [{ model: 'gpt-5-chat', input_per_million_usd: 100, output_per_million_usd: 1000 }] },
    });
    expect(priced.statusCode, priced.body).toBe(200);
  });
  afterEach(async () => {
    for (const table of [
      'usage_budgets',
      'usage_counters',
      'usage_events',
      'usage_daily',
      'usage_reservations',
    ] as const)
      await t.ctx.db.deleteFrom(table).execute();
  });
  afterAll(async () => {
    await t.close();
    await mock.close();
  });

  const call = (): MeterTarget => ({
    userId: member.id,
    organizationId: orgId,
    feature: 'chat',
    conversationId: null,
    runId: null,
    model: 'gpt-5-chat',
    engine: 'openai-compatible',
  });
  const price = { inputPerMillion: 100_000_000, outputPerMillion: 1_000_000_000 };

  /** A call reserved and then cut with its instance after it had streamed 500 tokens: its lease runs out in `ms`. */
  async function reservationOfDeadInstance(micros: number, ms = -1_000) {
    const r = await reserveSpend(t.ctx, call(), micros, { call: call(), price, inputTokens: 100 });
    await t.ctx.db
      .updateTable('usage_reservations')
      .set({
        owner: 'dead-instance',
        lease_until: new Date(Date.now() + ms).toISOString(),
        output_tokens: 500,
      })
      .where('id', '=', r.id as string)
      .execute();
    return r;
  }
  const budget = async () =>
    (await t.req({ method: 'GET', url: `/api/organizations/${orgId}/budget`, token: ceo.token })).json();
  const chat = async () => {
    const c = (
      await t.req({ method: 'POST', url: '/api/conversations/', token: member.token, body: {} })
    ).json().id;
    return t.req({
      method: 'POST',
      url: `/api/conversations/${c}/chat`,
      token: member.token,
      body: { message_text: 'Hi' },
    });
  };

  it("a dead instance's reservation is released by the sweep: the organization is served again and the call is billed as interrupted", async () => {
    await t.req({
      method: 'PUT',
      url: `/api/organizations/${orgId}/budget`,
      token: ceo.token,
      body: { monthly_usd: 5 },
    });
    await reservationOfDeadInstance(4_500_000, 1_500);
    // While the hold stands, a turn (reserving $1) would pass the budget.
    const refused = await chat();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().detail).toMatch(/^Monthly AI budget reached: \$0\.00 of \$5\.00 used/);
    // The running instance's periodic sweep releases it (no restart).
    await expect
      .poll(async () => (await t.ctx.db.selectFrom('usage_reservations').selectAll().execute()).length, {
        timeout: 5_000,
      })
      .toBe(0);
    const events = await t.ctx.db.selectFrom('usage_events').selectAll().execute();
    expect(events).toMatchObject([
      {
        outcome: 'interrupted',
        user_id: member.id,
        organization_id: orgId,
        input_tokens: 100,
        output_tokens: 500,
      },
    ]);
    // 100 input tokens at $100/M + 500 output tokens at $1,000/M = $0.51.
    expect(Number(events[0].cost_micros)).toBe(510_000);
    expect(await budget()).toMatchObject({ used_usd: 0.51, remaining_usd: 4.49 });
    const counter = await t.ctx.db
      .selectFrom('usage_counters')
      .select('reserved_micros')
      .where('scope_key', '=', `org:${orgId}`)
      .executeTakeFirstOrThrow();
    expect(Number(counter.reserved_micros)).toBe(0);
    mock.script({ kind: 'text', chunks: ['ok'], usage: { prompt_tokens: 0, completion_tokens: 10 } });
    expect((await chat()).statusCode).toBe(200);
  });

  it('a live call renews its lease with what streamed so far, and its row goes when it settles', async () => {
    mock.script({
      kind: 'text',
      chunks: Array.from({ length: 12 }, () => 'abcdefgh'),
      delayMs: 120,
      usage: { prompt_tokens: 7, completion_tokens: 24 },
    });
    const turn = chat();
    // Mid-stream: the row is this instance's, its lease is ahead of now, and it counts the text received.
    await expect
      .poll(
        async () =>
          (await t.ctx.db.selectFrom('usage_reservations').selectAll().executeTakeFirst())?.output_tokens ??
          0,
        { timeout: 5_000, interval: 50 },
      )
      .toBeGreaterThan(0);
    const live = await t.ctx.db.selectFrom('usage_reservations').selectAll().executeTakeFirstOrThrow();
    expect(live.owner).not.toBe('dead-instance');
    expect(Date.parse(live.lease_until)).toBeGreaterThan(Date.now());
    expect((await turn).statusCode).toBe(200);
    expect(await t.ctx.db.selectFrom('usage_reservations').selectAll().execute()).toEqual([]);
    const events = await t.ctx.db.selectFrom('usage_events').selectAll().execute();
    expect(events).toMatchObject([{ outcome: 'ok', input_tokens: 7, output_tokens: 24 }]);
  });

  it('a call whose row a sweep already settled is not billed twice when it ends', async () => {
    const r = await reservationOfDeadInstance(2_000_000);
    await settleStaleReservations(t.ctx);
    expect(await t.ctx.db.selectFrom('usage_reservations').select('id').execute()).toEqual([]);
    await settleSpend(t.ctx, call(), r, {
      inputTokens: 100,
      outputTokens: 900,
      costMicros: 910_000,
      durationMs: 5,
      outcome: 'ok',
      at: new Date(),
    });
    const events = await t.ctx.db.selectFrom('usage_events').select('outcome').execute();
    expect(events).toEqual([{ outcome: 'interrupted' }]);
    const counter = await t.ctx.db
      .selectFrom('usage_counters')
      .selectAll()
      .where('scope_key', '=', `org:${orgId}`)
      .executeTakeFirstOrThrow();
    expect([Number(counter.used_micros), Number(counter.reserved_micros)]).toEqual([510_000, 0]);
  });

  it('at start, a live lease of another instance is left alone on PostgreSQL and settled on single-process SQLite', async () => {
    const r = await reserveSpend(t.ctx, call(), 1_000_000, { call: call(), price, inputTokens: 40 });
    await t.ctx.db
      .updateTable('usage_reservations')
      .set({ owner: 'other-instance', lease_until: new Date(Date.now() + 600_000).toISOString() })
      .where('id', '=', r.id as string)
      .execute();
    const settled = await settleStaleReservations(t.ctx, { atStart: true });
    const left = await t.ctx.db.selectFrom('usage_reservations').select('id').execute();
    if (TEST_DB === 'sqlite') {
      expect(settled).toBe(1);
      expect(left).toEqual([]);
      expect(await t.ctx.db.selectFrom('usage_events').select('input_tokens').execute()).toEqual([
        { input_tokens: 40 },
      ]);
    } else {
      expect(settled).toBe(0);
      expect(left).toEqual([{ id: r.id }]);
    }
  });
});
