import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { type MockOpenAI, startMockOpenAI } from '../../../test/mock-openai.ts';
import { commsIdle } from '../comms/comms.messages.ts';
import { startRun, waitForStatus } from '../runs/runs-test-kit.ts';

// Every model call is metered at the model layer, whatever feature made it: the figures below are the
// mock model's reported usage times the admin's price.
apiSuite('usage metering of every model call (mock model)', () => {
  let mock: MockOpenAI;
  let t: TestApp;
  let admin: TestUser;
  let ceo: TestUser;
  let member: TestUser;
  let orgId: string;
  beforeAll(async () => {
    mock = await startMockOpenAI({ models: ['gpt-5-chat'] });
    t = await createTestApp({
      OPENAI_BASE_URL: mock.url,
      OPENAI_API_KEY: 'test-key',
      AI_MAX_RETRIES: '0',
      RUN_POLL_MS: '100',
    });
    admin = await t.createUser('admin');
    ceo = await t.createUser('ceo');
    member = await t.createUser('user');
    orgId = await t.createOrg(ceo);
    await t.addToOrg(ceo, orgId, member);
    ceo.token = await t.login(ceo.email);
    // $2 per million input tokens, $10 per million output tokens: 1,000 in + 500 out = $0.007.
    const put = await t.req({
      method: 'PUT',
      url: '/api/admin/model-prices',
      token: admin.token,
      body: { models: [{ model: 'gpt-5-chat', input_per_million_usd: 2, output_per_million_usd: 10 }] },
    });
    expect(put.statusCode, put.body).toBe(200);
  });
  afterAll(async () => {
    t.app.server.closeAllConnections();
    await t.close();
    await mock.close();
  });

  const rows = (where: { feature?: string; user_id?: string } = {}) => {
    let q = t.ctx.db.selectFrom('usage_events').selectAll();
    if (where.feature) q = q.where('feature', '=', where.feature);
    if (where.user_id) q = q.where('user_id', '=', where.user_id);
    return q.orderBy('at').execute();
  };
  const waitForRow = async (feature: string, n = 1) => {
    for (let i = 0; i < 200; i++) {
      const r = await rows({ feature });
      if (r.length >= n) return r;
      await new Promise((res) => setTimeout(res, 25));
    }
    throw new Error(`no ${feature} usage row`);
  };
  const conversation = async (u: TestUser) =>
    (await t.req({ method: 'POST', url: '/api/conversations/', token: u.token, body: {} })).json()
      .id as string;

  it('a chat turn: user, organization, model, conversation, tokens, cost, duration, outcome', async () => {
    const c = await conversation(member);
    mock.script({
      kind: 'text',
      chunks: ['Hi', ' there'],
      usage: { prompt_tokens: 1000, completion_tokens: 500 },
    });
    const res = await t.req({
      method: 'POST',
      url: `/api/conversations/${c}/chat`,
      token: member.token,
      body: { message_text: 'Hello' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await rows({ feature: 'chat' });
    expect(row).toMatchObject({
      user_id: member.id,
      organization_id: orgId,
      model: 'gpt-5-chat',
      engine: 'openai-compatible',
      feature: 'chat',
      conversation_id: c,
      run_id: null,
      input_tokens: 1000,
      output_tokens: 500,
      outcome: 'ok',
    });
    expect(Number(row.cost_micros)).toBe(7000);
    expect(row.duration_ms).toBeGreaterThanOrEqual(0);
    // The organization's and the member's counters hold the spend; nothing stays reserved.
    const counters = await t.ctx.db.selectFrom('usage_counters').selectAll().execute();
    expect(
      counters.map((x) => [x.scope_key, Number(x.used_micros), Number(x.reserved_micros)]).sort(),
    ).toEqual(
      [
        [`member:${orgId}:${member.id}`, 7000, 0],
        [`org:${orgId}`, 7000, 0],
      ].sort(),
    );
  });

  it('memory mining, task suggestions and advice are metered with their feature', async () => {
    // Non-streamed calls: the mock reports 11 input and 7 output tokens.
    const mined = await t.req({
      method: 'POST',
      url: '/api/memory/mine',
      token: member.token,
      body: { content: 'I lead the Berlin office.' },
    });
    expect(mined.statusCode, mined.body).toBe(200);
    const [memory] = await rows({ feature: 'memory' });
    expect(memory).toMatchObject({
      user_id: member.id,
      organization_id: orgId,
      input_tokens: 11,
      output_tokens: 7,
    });
    expect(Number(memory.cost_micros)).toBe(Math.ceil((11 * 2_000_000 + 7 * 10_000_000) / 1_000_000));

    const gen = await t.req({ method: 'POST', url: '/api/task-suggestions/generate', token: ceo.token });
    expect(gen.statusCode, gen.body).toBe(200);
    expect(await rows({ feature: 'task_suggestions' })).toMatchObject([
      { user_id: ceo.id, organization_id: orgId, input_tokens: 11, output_tokens: 7, outcome: 'ok' },
    ]);

    const flow = await startRun(t.req, ceo.token, 'flow', 'strategic_flow');
    await waitForStatus(t.req, ceo.token, 'flow', flow, ['completed', 'failed']);
    const advice = await waitForRow('advice');
    expect(advice[0]).toMatchObject({ user_id: ceo.id, organization_id: orgId, run_id: flow });
  });

  it('comms reply suggestions are metered', async () => {
    const thread = await t.req({
      method: 'POST',
      url: '/api/comms/threads',
      token: ceo.token,
      body: { participant_ids: [member.id] },
    });
    expect(thread.statusCode, thread.body).toBe(201);
    mock.script({ kind: 'text', chunks: ['Sure, ', 'Thursday works.'] });
    const sent = await t.req({
      method: 'POST',
      url: `/api/comms/threads/${thread.json().id}/messages`,
      token: member.token,
      body: { text: 'Can we meet on Thursday?' },
    });
    expect(sent.statusCode).toBe(201);
    await commsIdle(t.ctx);
    const [row] = await waitForRow('comms_suggestions');
    // Metered to the signed-in user whose message set it off, and their organization.
    expect(row).toMatchObject({
      user_id: member.id,
      organization_id: orgId,
      input_tokens: 11,
      output_tokens: 7,
      outcome: 'ok',
    });
    // A non-streamed call: the mock reports 11 input and 7 output tokens.
    expect(Number(row.cost_micros)).toBe(11 * 2 + 7 * 10);
  });

  it("a brief's words are metered to the brief's user and organization", async () => {
    const res = await t.req({ method: 'POST', url: '/api/briefs/generate', token: member.token });
    expect(res.statusCode, res.body).toBe(201);
    expect(await rows({ feature: 'brief' })).toMatchObject([
      { user_id: member.id, organization_id: orgId, run_id: null, outcome: 'ok' },
    ]);
  });

  it('crew steps are metered to the run and the account it acts as', async () => {
    const agent = await t.req({
      method: 'POST',
      url: '/api/agents/',
      token: ceo.token,
      body: { name: 'Metered', role: 'Tester', goal: 'Answer', llmModel: 'gpt-5-chat' },
    });
    const crew = await t.req({
      method: 'POST',
      url: '/api/crews/',
      token: ceo.token,
      body: {
        name: 'Metered crew',
        version: '1',
        tasks: [
          { name: 'A', description: 'first', agent_id: agent.json().id },
          { name: 'B', description: 'second', agent_id: agent.json().id },
        ],
      },
    });
    const id = await startRun(t.req, ceo.token, 'crew', crew.json().id);
    const run = await waitForStatus(t.req, ceo.token, 'crew', id, ['completed', 'failed']);
    expect(run.status).toBe('completed');
    const steps = await waitForRow('crew', 2);
    expect(
      steps.map((r) => [r.run_id, r.user_id, r.organization_id, r.input_tokens, r.output_tokens]),
    ).toEqual([
      [id, ceo.id, orgId, 11, 7],
      [id, ceo.id, orgId, 11, 7],
    ]);
  });

  it("a run's estimate comes from its steps and this workspace's history of their agents", async () => {
    const crews = (await t.req({ method: 'GET', url: '/api/crews/', token: ceo.token })).json();
    const metered = (crews.items ?? crews).find((c: { name: string }) => c.name === 'Metered crew');
    // Its agent used 22 input and 14 output tokens per run (two calls of 11 and 7): at $2 and $10
    // per million, each of the two tasks is estimated at 22 × 2 + 14 × 10 = 184 micro-dollars.
    const est = await t.req({ method: 'GET', url: `/api/crews/${metered.id}/estimate`, token: ceo.token });
    expect(est.statusCode, est.body).toBe(200);
    expect(est.json()).toEqual({
      estimated_usd: 0.000368,
      steps: 2,
      threshold_usd: 1,
      needs_confirmation: false,
    });

    // An agent without history: 2,000 input and 800 output tokens a step (0.004 + 0.008).
    const fresh = await t.req({
      method: 'POST',
      url: '/api/agents/',
      token: ceo.token,
      body: { name: 'New', role: 'Tester', goal: 'Answer', llmModel: 'gpt-5-chat' },
    });
    const crew = await t.req({
      method: 'POST',
      url: '/api/crews/',
      token: ceo.token,
      body: {
        name: 'Fresh crew',
        version: '1',
        tasks: [{ name: 'A', description: 'a', agent_id: fresh.json().id }],
      },
    });
    const set = await t.req({
      method: 'PUT',
      url: '/api/users/me/run-threshold',
      token: ceo.token,
      body: { run_confirm_usd: 0.01 },
    });
    expect(set.json()).toEqual({ run_confirm_usd: 0.01 });
    const second = await t.req({
      method: 'GET',
      url: `/api/crews/${crew.json().id}/estimate`,
      token: ceo.token,
    });
    expect(second.json()).toEqual({
      estimated_usd: 0.012,
      steps: 1,
      threshold_usd: 0.01,
      needs_confirmation: true,
    });
    const me = await t.req({ method: 'GET', url: '/api/users/me/usage', token: ceo.token });
    expect(me.json().run_confirm_usd).toBe(0.01);
    // Someone else's crew is not found.
    expect(
      (await t.req({ method: 'GET', url: `/api/crews/${crew.json().id}/estimate`, token: member.token }))
        .statusCode,
    ).toBe(404);
  });

  it('a stopped stream records what it had used, as aborted', async () => {
    const c = await conversation(member);
    mock.script({ kind: 'stall', chunks: ['Partial ', 'answer that stops here'] });
    const chat = t.req({
      method: 'POST',
      url: `/api/conversations/${c}/chat`,
      token: member.token,
      body: { message_text: 'Tell me a long story' },
    });
    // Stop once the two chunks have arrived.
    for (let i = 0; i < 200; i++) {
      const p = await t.req({ method: 'GET', url: `/api/conversations/${c}/messages`, token: member.token });
      if ((p.json().items as { text: string }[]).some((m) => m.text.includes('stops here'))) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    await t.req({ method: 'POST', url: `/api/conversations/${c}/chat/stop`, token: member.token });
    expect((await chat).json().status).toBe('stopped');
    let row: Awaited<ReturnType<typeof rows>>[number] | undefined;
    for (let i = 0; i < 200 && !row; i++) {
      row = (await rows({ feature: 'chat' })).find((r) => r.conversation_id === c);
      if (!row) await new Promise((r) => setTimeout(r, 25));
    }
    // No usage report came: the prompt's estimate and the 30 characters received (8 tokens).
    expect(row).toMatchObject({ outcome: 'aborted', output_tokens: 8, user_id: member.id });
    expect(row?.input_tokens).toBeGreaterThan(0);
    expect(Number(row?.cost_micros)).toBeGreaterThan(0);
  });

  it("an endpoint's model that nobody priced costs $0", async () => {
    await t.ctx.db.deleteFrom('model_prices').execute();
    const { priceOf } = await import('./usage-prices.service.ts');
    expect(await priceOf(t.ctx, 'llama-local', 'openai-compatible')).toEqual({
      inputPerMillion: 0,
      outputPerMillion: 0,
    });
    // A provider's allowed model uses the default table.
    expect(await priceOf(t.ctx, 'gpt-5-mini', 'openai')).toEqual({
      inputPerMillion: 250_000,
      outputPerMillion: 2_000_000,
    });
  });
});

apiSuite('usage metering of the offline engine', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('records offline calls at $0 with their tokens', async () => {
    const u = await t.createUser('user');
    const c = (await t.req({ method: 'POST', url: '/api/conversations/', token: u.token, body: {} })).json()
      .id;
    const res = await t.req({
      method: 'POST',
      url: `/api/conversations/${c}/chat`,
      token: u.token,
      body: { message_text: 'What should I focus on?' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const rows = await t.ctx.db.selectFrom('usage_events').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      user_id: u.id,
      model: 'offline',
      engine: 'offline',
      feature: 'chat',
      outcome: 'ok',
    });
    expect(Number(rows[0].cost_micros)).toBe(0);
    expect(rows[0].output_tokens).toBeGreaterThan(0);
  });
});
