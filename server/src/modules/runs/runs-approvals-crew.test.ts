import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { type MockOpenAI, startMockOpenAI } from '../../../test/mock-openai.ts';
import { startRecordingServer, startRun, timelineOf, waitForStatus } from './runs-test-kit.ts';

/** A crew whose agent calls a gated POST tool, on a model server that asks for the call. */
apiSuite('a crew waits for approval before its agent calls a gated tool (model server)', () => {
  let t: TestApp;
  let ceo: TestUser;
  let mock: MockOpenAI;
  let listener: Awaited<ReturnType<typeof startRecordingServer>>;
  let crews = 0;
  beforeAll(async () => {
    mock = await startMockOpenAI({ models: ['gpt-5-chat'] });
    listener = await startRecordingServer();
    t = await createTestApp({
      OPENAI_BASE_URL: mock.url,
      OPENAI_API_KEY: 'test-key',
      AI_MAX_RETRIES: '0',
      AI_HTTP_ALLOWLIST: '127.0.0.1',
      RUN_POLL_MS: '100',
    });
    ceo = await t.createUser('ceo');
  });
  afterAll(async () => {
    await t.close();
    await mock.close();
    await listener.close();
  });

  async function gatedCrew(path: string) {
    const tool = await t.req({
      method: 'POST',
      url: '/api/tools/',
      token: ceo.token,
      body: { name: 'Crew hook', http: { url: listener.url(path) } },
    });
    const toolId = tool.json().id as string;
    const agent = await t.req({
      method: 'POST',
      url: '/api/agents/',
      token: ceo.token,
      body: { name: 'Caller', role: 'Sender', goal: 'Send', llmModel: 'gpt-5-chat', toolIds: [toolId] },
    });
    const crew = await t.req({
      method: 'POST',
      url: '/api/crews/',
      token: ceo.token,
      body: {
        name: `Gated crew ${++crews}`,
        version: '1',
        tasks: [{ description: 'Send the order', agent_id: agent.json().id }],
      },
    });
    expect(crew.statusCode, crew.body).toBe(201);
    // The name the model sees for an HTTP tool (engine/tools.ts toolKey).
    return { crewId: crew.json().id as string, key: `http_crew_hook_${toolId.slice(0, 6)}` };
  }

  async function pendingId(runId: string) {
    const res = await t.req({ method: 'GET', url: `/api/runs/${runId}/approvals`, token: ceo.token });
    return res.json().items[0].id as string;
  }

  it('pauses as awaiting_human_input before the call; approved, the call goes out once and the task ends', async () => {
    const { crewId, key } = await gatedCrew('/order');
    const call = { kind: 'tool-calls' as const, calls: [{ name: key, arguments: { qty: 3 } }] };
    mock.script(call, call, { kind: 'text', chunks: ['ORDER-', 'SENT'] });
    const runId = await startRun(t.req, ceo.token, 'crew', crewId);
    await waitForStatus(t.req, ceo.token, 'crew', runId, ['awaiting_human_input']);
    await new Promise((r) => setTimeout(r, 300));
    expect(listener.received.filter((r) => r.path === '/order')).toHaveLength(0);
    const approved = await t.req({
      method: 'POST',
      url: `/api/runs/${runId}/approvals/${await pendingId(runId)}/approve`,
      token: ceo.token,
      body: {},
    });
    expect(approved.statusCode, approved.body).toBe(200);
    const run = await waitForStatus(t.req, ceo.token, 'crew', runId, ['completed', 'failed']);
    expect(run.status, JSON.stringify(run)).toBe('completed');
    expect(run.result).toBe('ORDER-SENT');
    const hits = listener.received.filter((r) => r.path === '/order');
    expect(hits).toHaveLength(1);
    expect(JSON.parse(hits[0].body)).toEqual({ qty: 3 });
    const types = (await timelineOf(t.req, ceo.token, 'crew', runId)).map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['approval_required', 'approval_granted', 'crew_end']));
  });

  it("rejected, the model gets the person's reason as the tool's result", async () => {
    const { crewId, key } = await gatedCrew('/refund');
    const call = { kind: 'tool-calls' as const, calls: [{ name: key, arguments: { amount: 900 } }] };
    mock.script(call, call, { kind: 'text', chunks: ['NOT ', 'SENT'] });
    const runId = await startRun(t.req, ceo.token, 'crew', crewId);
    await waitForStatus(t.req, ceo.token, 'crew', runId, ['awaiting_human_input']);
    const before = mock.chatRequests().length;
    const rejected = await t.req({
      method: 'POST',
      url: `/api/runs/${runId}/approvals/${await pendingId(runId)}/reject`,
      token: ceo.token,
      body: { reason: 'Refunds above 500 need the CFO' },
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    const run = await waitForStatus(t.req, ceo.token, 'crew', runId, ['completed', 'failed']);
    expect(run.status).toBe('completed');
    const sentAfter = mock
      .chatRequests()
      .slice(before)
      .map((r) => JSON.stringify(r.body?.messages));
    expect(
      sentAfter.some((m) => m.includes('The person rejected this call: Refunds above 500 need the CFO')),
    ).toBe(true);
    expect(listener.received.filter((r) => r.path === '/refund')).toHaveLength(0);
  });
});
