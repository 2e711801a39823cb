import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { markSideEffectFree } from '../../../test/side-effect-free.ts';
import { builtinAgentIds, startRun, startToolServer, timelineOf, waitForStatus } from './runs-test-kit.ts';

apiSuite('a flow agent step bound to a tool (offline engine)', () => {
  let t: TestApp;
  let ceo: TestUser;
  let tools: Awaited<ReturnType<typeof startToolServer>>;
  beforeAll(async () => {
    // The local tool endpoint is reachable only because the test allow-lists the loopback address.
    t = await createTestApp({ AI_HTTP_ALLOWLIST: '127.0.0.1', RUN_POLL_MS: '100' });
    ceo = await t.createUser('ceo');
    tools = await startToolServer();
  });
  afterAll(async () => {
    await t.close();
    await tools.close();
  });

  it('calls the tool once, then answers with its result and the run completes', async () => {
    const tool = await t.req({
      method: 'POST',
      url: '/api/tools/',
      token: ceo.token,
      body: { name: 'Quotes', http: { url: tools.url('/quotes') }, requires_approval: false },
    });
    expect(tool.statusCode, tool.body).toBe(201);
    // The model chooses the arguments: only an allow-listed destination goes out unasked (issue 46 row 5).
    await markSideEffectFree(t, [{ method: 'POST', destination: tools.url('/quotes') }]);
    const agents = await builtinAgentIds(t, ceo);
    const flow = await t.req({
      method: 'POST',
      url: '/api/flows/',
      token: ceo.token,
      body: {
        name: 'Agent with a tool',
        steps: [{ title: 'Look it up', kind: 'agent', agent_id: agents.Writer, tool_id: tool.json().id }],
      },
    });
    expect(flow.statusCode, flow.body).toBe(201);
    const id = await startRun(t.req, ceo.token, 'flow', flow.json().id);
    const run = await waitForStatus(t.req, ceo.token, 'flow', id, ['completed', 'failed']);
    expect(run.status, JSON.stringify(run)).toBe('completed');
    expect(tools.hits('/quotes')).toBe(1);
    const timeline = await timelineOf(t.req, ceo.token, 'flow', id);
    expect(timeline.filter((e) => e.type === 'tool_call')).toHaveLength(1);
    expect(timeline.filter((e) => e.type === 'tool_result')).toHaveLength(1);
    // The answer is the offline engine's write-up of the step, quoting what the tool returned.
    expect(String(run.result)).toMatch(/The tool “[^”]+” returned `[^`]*tool-answer-quotes/);
  });
});

apiSuite('a run timeline names built-in tools by their labels (issue 47 item 4)', () => {
  let t: TestApp;
  let ceo: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ RUN_POLL_MS: '100' });
    ceo = await t.createUser('ceo');
  });
  afterAll(async () => {
    await t.close();
  });

  it('an agent calling internal_search shows "Internal search", never the identifier', async () => {
    const tools = (await t.req({ method: 'GET', url: '/api/tools/', token: ceo.token })).json() as {
      id: string;
      function_name: string | null;
    }[];
    const search = tools.find((x) => x.function_name === 'internal_search');
    expect(search).toBeTruthy();
    const agents = await builtinAgentIds(t, ceo);
    const flow = await t.req({
      method: 'POST',
      url: '/api/flows/',
      token: ceo.token,
      body: {
        name: 'Agent searching',
        steps: [{ title: 'Search', kind: 'agent', agent_id: agents.Writer, tool_id: search?.id }],
      },
    });
    expect(flow.statusCode, flow.body).toBe(201);
    const id = await startRun(t.req, ceo.token, 'flow', flow.json().id);
    const run = await waitForStatus(t.req, ceo.token, 'flow', id, ['completed', 'failed']);
    expect(run.status, JSON.stringify(run)).toBe('completed');
    const timeline = await timelineOf(t.req, ceo.token, 'flow', id);
    const calls = timeline.filter((e) => e.type === 'tool_call' || e.type === 'tool_result');
    expect(calls.map((e) => e.summary)).toEqual(['Writer calls Internal search', 'Internal search returned']);
  });
});
