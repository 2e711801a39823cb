import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { startMcpTestServer } from '../../../test/mcp-test-server.ts';
import { entriesAdded } from '../activity/activity-test-kit.ts';
import { builtinAgentIds, startRun, timelineOf, waitForStatus } from './runs-test-kit.ts';

const SECRET = 'Bearer mcp-secret-value-123';

apiSuite('MCP servers as tools for agents (issue 22 section 3)', () => {
  let t: TestApp;
  let ceo: TestUser;
  let mcp: Awaited<ReturnType<typeof startMcpTestServer>>;
  beforeAll(async () => {
    // The test MCP server is reachable only because the test allow-lists the loopback address.
    t = await createTestApp({ AI_HTTP_ALLOWLIST: '127.0.0.1', RUN_POLL_MS: '100' });
    ceo = await t.createUser('ceo');
    mcp = await startMcpTestServer();
  });
  afterAll(async () => {
    await t.close();
    await mcp.close();
  });

  async function mcpTool(path: string, name = `MCP ${path}`, readOnlyTools?: string[]) {
    const res = await t.req({
      method: 'POST',
      url: '/api/tools/',
      token: ceo.token,
      body: {
        name,
        description: 'Test server',
        kind: 'mcp',
        mcp: {
          url: mcp.url(path),
          headers: { Authorization: SECRET },
          ...(readOnlyTools ? { read_only_tools: readOnlyTools } : {}),
        },
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res;
  }
  async function flowWith(toolId: string, title: string) {
    const agents = await builtinAgentIds(t, ceo);
    const res = await t.req({
      method: 'POST',
      url: '/api/flows/',
      token: ceo.token,
      body: { name: title, steps: [{ title, kind: 'agent', agent_id: agents.Writer, tool_id: toolId }] },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  }
  const callsOf = (tool: string) => mcp.calls.filter((c) => c.tool === tool);

  it('saving lists the server tools, sends the headers, and never returns header values', async () => {
    const res = await mcpTool('/both');
    expect(res.body).not.toContain('mcp-secret-value');
    const tool = res.json();
    expect(tool.kind).toBe('mcp');
    expect(tool.mcp.url).toBe(mcp.url('/both'));
    expect(tool.mcp.header_names).toEqual(['Authorization']);
    expect(tool.mcp.tools).toEqual([
      {
        name: 'lookup_quote',
        description: 'Looks up the quote of the day',
        // The server's readOnlyHint is kept as a hint; nothing is read-only until its owner says so.
        read_only: false,
        read_only_hint: true,
        ref: `${tool.id}:lookup_quote`,
      },
      {
        name: 'create_ticket',
        description: 'Opens a support ticket',
        read_only: false,
        read_only_hint: false,
        ref: `${tool.id}:create_ticket`,
      },
    ]);
    expect(mcp.headersSeen.at(-1)?.authorization).toBe(SECRET);
    const read = await t.req({ method: 'GET', url: `/api/tools/${tool.id}`, token: ceo.token });
    expect(read.body).not.toContain('mcp-secret-value');
    const list = await t.req({ method: 'GET', url: '/api/tools/', token: ceo.token });
    expect(list.body).not.toContain('mcp-secret-value');
    // Stored encrypted: the row holds neither the value nor its plain JSON.
    const row = await t.ctx.db
      .selectFrom('factory_tools')
      .selectAll()
      .where('id', '=', tool.id)
      .executeTakeFirstOrThrow();
    expect(row.mcp_headers).not.toContain('mcp-secret-value');
    expect(row.mcp_headers).not.toContain('Bearer');

    // An update without headers keeps the stored ones (the server still gets them).
    const before = mcp.headersSeen.length;
    const put = await t.req({
      method: 'PUT',
      url: `/api/tools/${tool.id}`,
      token: ceo.token,
      body: { name: 'Renamed', kind: 'mcp', mcp: { url: mcp.url('/both') } },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().mcp.header_names).toEqual(['Authorization']);
    expect(mcp.headersSeen.slice(before).some((h) => h.authorization === SECRET)).toBe(true);
  });

  it('an agent can be given one tool of the server by `<tool id>:<name>`; unknown names are refused', async () => {
    const tool = (await mcpTool('/both', 'Both tools')).json();
    const agent = (name: string, toolIds: string[]) =>
      t.req({
        method: 'POST',
        url: '/api/agents/',
        token: ceo.token,
        body: { name, role: 'Helper', goal: 'Help', toolIds },
      });
    const ok = await agent('Quote reader', [`${tool.id}:lookup_quote`]);
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().toolIds).toEqual([`${tool.id}:lookup_quote`]);
    const bad = await agent('Nobody', [`${tool.id}:no_such_tool`]);
    expect(bad.statusCode).toBe(422);
  });

  it('an MCP tool its owner marked read-only is called during a run without a pause; its result reaches the agent', async () => {
    const tool = (await mcpTool('/read', 'Quotes server', ['lookup_quote'])).json();
    expect(tool.mcp.tools[0]).toMatchObject({ name: 'lookup_quote', read_only: true, read_only_hint: true });
    const before = callsOf('lookup_quote').length;
    let runId = '';
    let run: { status?: string; result?: unknown } = {};
    const added = await entriesAdded(t, 'external.call', async () => {
      runId = await startRun(t.req, ceo.token, 'flow', await flowWith(tool.id, 'Quote it'));
      run = await waitForStatus(t.req, ceo.token, 'flow', runId, ['completed', 'failed', 'paused']);
    });
    expect(run.status, JSON.stringify(run)).toBe('completed');
    expect(callsOf('lookup_quote')).toHaveLength(before + 1);
    expect(String(run.result)).toContain('mcp-answer-quote-of-the-day');
    // The timeline shows the MCP call and its result.
    const timeline = await timelineOf(t.req, ceo.token, 'flow', runId);
    const call = timeline.find((e) => e.type === 'tool_call');
    expect(call?.details?.tool).toMatch(/^mcp_lookup_quote_/);
    expect(String(timeline.find((e) => e.type === 'tool_result')?.details?.output)).toContain(
      'mcp-answer-quote-of-the-day',
    );
    // ...and the activity ledger has it, as the run's external call, without the secret.
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({ via: `run:${runId}`, actor_user_id: ceo.id });
    expect(added[0].summary).toContain('Quotes server: lookup_quote: MCP');
    expect(JSON.stringify(added[0])).not.toContain('mcp-secret-value');
  });

  it('a tool that is not read-only pauses for approval (server URL, arguments, no secret), then runs once', async () => {
    const tool = (await mcpTool('/write', 'Tickets server')).json();
    expect(tool.mcp.tools[0].read_only).toBe(false);
    const before = callsOf('create_ticket').length;
    const runId = await startRun(t.req, ceo.token, 'flow', await flowWith(tool.id, 'Open a ticket'));
    await waitForStatus(t.req, ceo.token, 'flow', runId, ['paused']);
    expect(callsOf('create_ticket')).toHaveLength(before);
    const list = await t.req({ method: 'GET', url: `/api/runs/${runId}/approvals`, token: ceo.token });
    expect(list.statusCode, list.body).toBe(200);
    const [pending] = list.json().items;
    expect(pending).toMatchObject({
      status: 'pending',
      tool: 'Tickets server: create_ticket',
      method: 'MCP',
      url: mcp.url('/write'),
      headers: { Authorization: '[redacted]' },
      arguments: {},
    });
    expect(list.body).not.toContain('mcp-secret-value');
    const approved = await t.req({
      method: 'POST',
      url: `/api/runs/${runId}/approvals/${pending.id}/approve`,
      token: ceo.token,
      body: { edits: { arguments: { title: 'Printer' } } },
    });
    expect(approved.statusCode, approved.body).toBe(200);
    const run = await waitForStatus(t.req, ceo.token, 'flow', runId, ['completed', 'failed']);
    expect(run.status, JSON.stringify(run)).toBe('completed');
    expect(callsOf('create_ticket').slice(before)).toEqual([
      { tool: 'create_ticket', args: { title: 'Printer' } },
    ]);
    expect(String(run.result)).toContain('mcp-ticket-created-42');
  });
});

apiSuite('MCP tools and the outbound-address policy', () => {
  let t: TestApp;
  let ceo: TestUser;
  let mcp: Awaited<ReturnType<typeof startMcpTestServer>>;
  beforeAll(async () => {
    t = await createTestApp();
    ceo = await t.createUser('ceo');
    mcp = await startMcpTestServer();
  });
  afterAll(async () => {
    await t.close();
    await mcp.close();
  });

  it('a private MCP address that is not allow-listed is refused when saving (422), nothing is sent', async () => {
    const res = await t.req({
      method: 'POST',
      url: '/api/tools/',
      token: ceo.token,
      body: { name: 'Local', kind: 'mcp', mcp: { url: mcp.url('/read'), headers: {} } },
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().detail).toMatch(/^The MCP server's address is not allowed/);
    expect(mcp.headersSeen).toHaveLength(0);
    const list = await t.req({ method: 'GET', url: '/api/tools/', token: ceo.token });
    expect(list.json().some((x: { name: string }) => x.name === 'Local')).toBe(false);
  });
});
