import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import {
  builtinAgentIds,
  createConversation,
  startRun,
  startToolServer,
  timelineOf,
  waitForStatus,
} from './runs-test-kit.ts';

/**
 * Issue 46 row 9: a failed tool call fails its step and the run ends `failed` with the reason (run
 * page, timeline, conversation), unless the flow says that step may fail.
 */
apiSuite('a failed tool call fails its run (issue 46 row 9)', () => {
  let t: TestApp;
  let ceo: TestUser;
  let tools: Awaited<ReturnType<typeof startToolServer>>;
  beforeAll(async () => {
    // No AI_HTTP_ALLOWLIST: every call to the local tool server is refused by the address policy.
    t = await createTestApp({ RUN_POLL_MS: '100' });
    ceo = await t.createUser('ceo');
    tools = await startToolServer();
  });
  afterAll(async () => {
    await t.close();
    await tools.close();
  });

  async function refusedTool(name: string) {
    const res = await t.req({
      method: 'POST',
      url: '/api/tools/',
      token: ceo.token,
      body: { name, http: { url: tools.url('/refused'), method: 'GET' } },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  }
  async function flow(steps: Record<string, unknown>[]) {
    const res = await t.req({
      method: 'POST',
      url: '/api/flows/',
      token: ceo.token,
      body: { name: `Flow ${Math.random().toString(36).slice(2, 7)}`, steps },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  }
  const messagesOf = async (conv: string) =>
    (await t.req({ method: 'GET', url: `/api/conversations/${conv}/messages`, token: ceo.token })).json()
      .items as { text: string }[];

  it('a flow whose only tool call is refused ends failed with the reason, and its conversation says so', async () => {
    const toolId = await refusedTool('Lookup');
    const f = await flow([{ title: 'Call it', kind: 'tool', tool_id: toolId }]);
    expect(f.steps[0].may_fail).toBe(false);
    const conv = await createConversation(t, ceo);
    const id = await startRun(t.req, ceo.token, 'flow', f.id, { conversationId: conv });
    const run = await waitForStatus(t.req, ceo.token, 'flow', id, ['completed', 'failed']);
    expect(run.status).toBe('failed');
    expect(String(run.error)).toMatch(/^Step "Call it": Lookup failed: Refused to connect to 127\.0\.0\.1/);
    const timeline = await timelineOf(t.req, ceo.token, 'flow', id);
    expect(timeline.some((e) => e.type === 'step_output')).toBe(false);
    const terminal = timeline.filter((e) => e.type === 'terminal');
    expect(terminal).toHaveLength(1);
    expect(terminal[0].summary).toMatch(/^Flow failed: Step "Call it": Lookup failed: Refused to connect/);
    const last = (await messagesOf(conv)).at(-1);
    expect(last?.text).toMatch(/^Flow failed: /);
    expect(last?.text).not.toMatch(/completed/);
    expect(tools.hits('/refused')).toBe(0);
  });

  it('a step the flow says may fail records the error as its output and the run goes on', async () => {
    const toolId = await refusedTool('Optional lookup');
    const f = await flow([
      { title: 'Try it', kind: 'tool', tool_id: toolId, may_fail: true },
      { title: 'Ask', kind: 'wait_for_human', prompt: 'Go on?' },
    ]);
    expect(f.steps.map((s: { may_fail: boolean }) => s.may_fail)).toEqual([true, false]);
    const id = await startRun(t.req, ceo.token, 'flow', f.id);
    await waitForStatus(t.req, ceo.token, 'flow', id, ['paused']);
    const timeline = await timelineOf(t.req, ceo.token, 'flow', id);
    const output = timeline.find((e) => e.type === 'step_output');
    expect(String(output?.details?.output)).toMatch(/^Tool error: Refused to connect/);
  });

  it('an agent step whose tool call fails fails the run, whatever the model wrote after it', async () => {
    const toolId = await refusedTool('Agent lookup');
    const agents = await builtinAgentIds(t, ceo);
    const f = await flow([{ title: 'Research', kind: 'agent', agent_id: agents.Writer, tool_id: toolId }]);
    const id = await startRun(t.req, ceo.token, 'flow', f.id);
    let run = await waitForStatus(t.req, ceo.token, 'flow', id, ['completed', 'failed', 'paused']);
    // The model chose the arguments: the call waits for the runner's approval first (row 5).
    if (run.status === 'paused') {
      const [pending] = (
        await t.req({ method: 'GET', url: `/api/runs/${id}/approvals`, token: ceo.token })
      ).json().items;
      const ok = await t.req({
        method: 'POST',
        url: `/api/runs/${id}/approvals/${pending.id}/approve`,
        token: ceo.token,
        body: {},
      });
      expect(ok.statusCode, ok.body).toBe(200);
      run = await waitForStatus(t.req, ceo.token, 'flow', id, ['completed', 'failed']);
    }
    expect(run.status).toBe('failed');
    expect(String(run.error)).toMatch(/^Step "Research": http_agent_lookup_\w+ failed: Refused to connect/);
  });
});
