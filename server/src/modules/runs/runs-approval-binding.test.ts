import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { startMcpTestServer } from '../../../test/mcp-test-server.ts';
import { type MockOpenAI, startMockOpenAI } from '../../../test/mock-openai.ts';
import { startRecordingServer, startRun, timelineOf, waitForStatus } from './runs-test-kit.ts';

const SECRET_A = 'Bearer server-a-secret-111';
const SECRET_B = 'Bearer server-b-secret-222';

/**
 * Issue 46 row 4: an approval is bound to the approved tool, its server tool name and the proposed
 * arguments. A resumed model that calls a different MCP tool gets a new approval; the approved
 * server never receives that other call or its headers.
 */
apiSuite('an approval is bound to the call it approved (MCP tools, model server)', () => {
  let t: TestApp;
  let ceo: TestUser;
  let mock: MockOpenAI;
  let mcp: Awaited<ReturnType<typeof startMcpTestServer>>;
  let listener: Awaited<ReturnType<typeof startRecordingServer>>;
  beforeAll(async () => {
    mock = await startMockOpenAI({ models: ['gpt-5-chat'] });
    mcp = await startMcpTestServer();
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
    await mcp.close();
    await listener.close();
  });

  async function mcpServer(name: string, path: string, secret: string): Promise<string> {
    const res = await t.req({
      method: 'POST',
      url: '/api/tools/',
      token: ceo.token,
      body: { name, kind: 'mcp', mcp: { url: mcp.url(path), headers: { Authorization: secret } } },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  }

  async function approvalsOf(runId: string) {
    const res = await t.req({ method: 'GET', url: `/api/runs/${runId}/approvals`, token: ceo.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().items as { id: string; status: string; tool: string; url: string }[];
  }

  it('the resumed model calls a different MCP tool: a new approval, nothing reaches the approved server', async () => {
    const a = await mcpServer('Server A', '/write', SECRET_A);
    const b = await mcpServer('Server B', '/both', SECRET_B);
    const agent = await t.req({
      method: 'POST',
      url: '/api/agents/',
      token: ceo.token,
      body: {
        name: 'Ticketer',
        role: 'Support',
        goal: 'Open tickets',
        llmModel: 'gpt-5-chat',
        toolIds: [`${a}:create_ticket`, `${b}:create_ticket`],
      },
    });
    expect(agent.statusCode, agent.body).toBe(201);
    const crew = await t.req({
      method: 'POST',
      url: '/api/crews/',
      token: ceo.token,
      body: {
        name: 'Binding crew',
        version: '1',
        tasks: [{ description: 'Open a ticket', agent_id: agent.json().id }],
      },
    });
    expect(crew.statusCode, crew.body).toBe(201);
    // The names the model sees for the two server tools (engine/tools.ts toolKey).
    const callA = { name: `mcp_create_ticket_${a.slice(0, 6)}`, arguments: { title: 'Printer' } };
    const callB = { name: `mcp_create_ticket_${b.slice(0, 6)}`, arguments: { title: 'Printer' } };
    mock.script(
      { kind: 'tool-calls', calls: [callA] },
      // Resumed after A's approval, the model now asks for B instead.
      { kind: 'tool-calls', calls: [callB] },
      // Resumed after B's own approval, it asks for B again: that call goes out, to B.
      { kind: 'tool-calls', calls: [callB] },
      { kind: 'text', chunks: ['TICKET-', 'OPENED'] },
    );
    const seenBefore = mcp.requests.length;
    const runId = await startRun(t.req, ceo.token, 'crew', crew.json().id);
    await waitForStatus(t.req, ceo.token, 'crew', runId, ['awaiting_human_input']);
    const [first] = await approvalsOf(runId);
    expect(first).toMatchObject({
      status: 'pending',
      tool: 'Server A: create_ticket',
      url: mcp.url('/write'),
    });
    const approved = await t.req({
      method: 'POST',
      url: `/api/runs/${runId}/approvals/${first.id}/approve`,
      token: ceo.token,
      body: {},
    });
    expect(approved.statusCode, approved.body).toBe(200);

    // B's call waits for its own approval; A's approval stays unused.
    const deadline = Date.now() + 15_000;
    let list = await approvalsOf(runId);
    while (list.length < 2 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      list = await approvalsOf(runId);
    }
    await waitForStatus(t.req, ceo.token, 'crew', runId, ['awaiting_human_input']);
    expect(list.map((x) => [x.tool, x.url, x.status])).toEqual([
      ['Server A: create_ticket', mcp.url('/write'), 'approved'],
      ['Server B: create_ticket', mcp.url('/both'), 'pending'],
    ]);
    const sent = mcp.requests.slice(seenBefore);
    expect(sent.filter((r) => r.tool !== undefined)).toEqual([]);
    expect(sent.some((r) => r.headers.authorization === SECRET_B)).toBe(false);

    const second = await t.req({
      method: 'POST',
      url: `/api/runs/${runId}/approvals/${list[1].id}/approve`,
      token: ceo.token,
      body: {},
    });
    expect(second.statusCode, second.body).toBe(200);
    const run = await waitForStatus(t.req, ceo.token, 'crew', runId, ['completed', 'failed']);
    expect(run.status, JSON.stringify(run)).toBe('completed');
    const calls = mcp.requests.slice(seenBefore).filter((r) => r.tool !== undefined);
    const timeline = JSON.stringify(await timelineOf(t.req, ceo.token, 'crew', runId));
    expect(
      calls.map((r) => [r.path, r.tool, r.headers.authorization]),
      timeline,
    ).toEqual([['/both', 'create_ticket', SECRET_B]]);
    // Nothing ever reached server A with B's headers.
    expect(mcp.requests.some((r) => r.path === '/write' && r.headers.authorization === SECRET_B)).toBe(false);
    expect((await approvalsOf(runId)).map((x) => x.status)).toEqual(['approved', 'done']);
  });

  it('the resumed model calls the approved HTTP tool with other arguments: a new approval, nothing sent', async () => {
    const tool = await t.req({
      method: 'POST',
      url: '/api/tools/',
      token: ceo.token,
      body: { name: 'Order hook', http: { url: listener.url('/order') } },
    });
    const toolId = tool.json().id as string;
    const agent = await t.req({
      method: 'POST',
      url: '/api/agents/',
      token: ceo.token,
      body: { name: 'Orderer', role: 'Buyer', goal: 'Order', llmModel: 'gpt-5-chat', toolIds: [toolId] },
    });
    const crew = await t.req({
      method: 'POST',
      url: '/api/crews/',
      token: ceo.token,
      body: {
        name: 'Order crew',
        version: '1',
        tasks: [{ description: 'Order', agent_id: agent.json().id }],
      },
    });
    expect(crew.statusCode, crew.body).toBe(201);
    const key = `http_order_hook_${toolId.slice(0, 6)}`;
    mock.script(
      { kind: 'tool-calls', calls: [{ name: key, arguments: { qty: 3 } }] },
      { kind: 'tool-calls', calls: [{ name: key, arguments: { qty: 999 } }] },
    );
    const runId = await startRun(t.req, ceo.token, 'crew', crew.json().id);
    await waitForStatus(t.req, ceo.token, 'crew', runId, ['awaiting_human_input']);
    const [first] = await approvalsOf(runId);
    const approved = await t.req({
      method: 'POST',
      url: `/api/runs/${runId}/approvals/${first.id}/approve`,
      token: ceo.token,
      body: {},
    });
    expect(approved.statusCode, approved.body).toBe(200);
    const deadline = Date.now() + 15_000;
    let list = await approvalsOf(runId);
    while (list.length < 2 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      list = await approvalsOf(runId);
    }
    await waitForStatus(t.req, ceo.token, 'crew', runId, ['awaiting_human_input']);
    expect(list.map((x) => [x.status, (x as unknown as { arguments: unknown }).arguments])).toEqual([
      ['approved', { qty: 3 }],
      ['pending', { qty: 999 }],
    ]);
    expect(listener.received.filter((r) => r.path === '/order')).toHaveLength(0);
  });
});
