import { afterAll, beforeAll, expect, it } from 'vitest';
import { UNTRUSTED_CLOSE, UNTRUSTED_INSTRUCTION, UNTRUSTED_OPEN } from '../../ai/untrusted.ts';
import { moveServerHintsOut } from '../../db/migrations/0033_tool_gating.ts';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { startMcpTestServer } from '../../../test/mcp-test-server.ts';
import { type MockOpenAI, startMockOpenAI } from '../../../test/mock-openai.ts';
import { markSideEffectFree } from '../../../test/side-effect-free.ts';
import {
  builtinAgentIds,
  startRecordingServer,
  startRun,
  timelineOf,
  waitForStatus,
} from './runs-test-kit.ts';

/**
 * Issue 46 row 5: every outbound call whose arguments a model chose waits for the runner's approval,
 * unless a platform administrator marked that method + destination side-effect-free (HTTP) or the
 * tool's owner marked the MCP tool read-only; an MCP server's own readOnlyHint is never trusted.
 */
apiSuite('model-chosen outbound calls are gated (issue 46 row 5)', () => {
  let t: TestApp;
  let ceo: TestUser;
  let listener: Awaited<ReturnType<typeof startRecordingServer>>;
  let mcp: Awaited<ReturnType<typeof startMcpTestServer>>;
  let agents: Record<string, string>;
  beforeAll(async () => {
    // The local servers are reachable only because the test allow-lists the loopback address.
    t = await createTestApp({ AI_HTTP_ALLOWLIST: '127.0.0.1', RUN_POLL_MS: '100' });
    ceo = await t.createUser('ceo');
    listener = await startRecordingServer();
    mcp = await startMcpTestServer();
    agents = await builtinAgentIds(t, ceo);
  });
  afterAll(async () => {
    await t.close();
    await listener.close();
    await mcp.close();
  });

  const hits = (path: string) => listener.received.filter((r) => r.path.split('?')[0] === path);

  async function httpTool(path: string, method: 'GET' | 'POST', extra: Record<string, unknown> = {}) {
    const res = await t.req({
      method: 'POST',
      url: '/api/tools/',
      token: ceo.token,
      body: { name: `Hook ${path}`, http: { url: listener.url(path), method }, ...extra },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  }
  /** A flow whose agent step is bound to the tool: the offline model calls it with arguments it chose. */
  async function agentRun(toolRef: string) {
    const flow = await t.req({
      method: 'POST',
      url: '/api/flows/',
      token: ceo.token,
      body: {
        name: `Flow ${Math.random().toString(36).slice(2, 7)}`,
        steps: [{ title: 'Look it up', kind: 'agent', agent_id: agents.Writer, tool_id: toolRef }],
      },
    });
    expect(flow.statusCode, flow.body).toBe(201);
    const id = await startRun(t.req, ceo.token, 'flow', flow.json().id);
    const run = await waitForStatus(t.req, ceo.token, 'flow', id, ['paused', 'completed', 'failed']);
    return { id, run };
  }
  const approvalsOf = async (runId: string) =>
    (await t.req({ method: 'GET', url: `/api/runs/${runId}/approvals`, token: ceo.token })).json().items;

  it('a GET tool the model calls waits for approval; nothing is sent before it', async () => {
    const tool = await httpTool('/get-lookup', 'GET');
    expect(tool).toMatchObject({ requires_approval: false, side_effect_free: false });
    const { id, run } = await agentRun(tool.id);
    expect(run.status).toBe('paused');
    const [pending] = await approvalsOf(id);
    expect(pending).toMatchObject({ status: 'pending', method: 'GET', gate_reason: 'model_arguments' });
    expect(hits('/get-lookup')).toHaveLength(0);
  });

  it('a POST tool saved with requires_approval:false is gated too', async () => {
    const tool = await httpTool('/post-hook', 'POST', { requires_approval: false });
    const { id, run } = await agentRun(tool.id);
    expect(run.status).toBe('paused');
    expect((await approvalsOf(id))[0]).toMatchObject({ method: 'POST', gate_reason: 'model_arguments' });
    expect(hits('/post-hook')).toHaveLength(0);
  });

  it('an administrator-listed method + destination goes out without approval; the card says so', async () => {
    const listed = await httpTool('/safe/search', 'GET');
    const samePathOtherMethod = await httpTool('/safe/search', 'POST', { requires_approval: false });
    const outside = await httpTool('/safety-net', 'GET');
    await markSideEffectFree(t, [{ method: 'GET', destination: listener.url('/safe') }]);
    const cards = (await t.req({ method: 'GET', url: '/api/tools/', token: ceo.token })).json() as {
      id: string;
      side_effect_free: boolean;
    }[];
    const flag = (id: string) => cards.find((c) => c.id === id)?.side_effect_free;
    expect([flag(listed.id), flag(samePathOtherMethod.id), flag(outside.id)]).toEqual([true, false, false]);

    const ok = await agentRun(listed.id);
    expect(ok.run.status, JSON.stringify(ok.run)).toBe('completed');
    expect(await approvalsOf(ok.id)).toEqual([]);
    expect(hits('/safe/search')).toHaveLength(1);
    // The same endpoint by POST, or a path that only starts with the same letters, still waits.
    expect((await agentRun(samePathOtherMethod.id)).run.status).toBe('paused');
    expect((await agentRun(outside.id)).run.status).toBe('paused');
    expect(hits('/safety-net')).toHaveLength(0);
  });

  it('a tool step sends the run inputs a person gave without asking (no model chose them)', async () => {
    const tool = await httpTool('/person-inputs', 'GET');
    const flow = await t.req({
      method: 'POST',
      url: '/api/flows/',
      token: ceo.token,
      body: { name: 'Person inputs', steps: [{ title: 'Send', kind: 'tool', tool_id: tool.id }] },
    });
    const id = await startRun(t.req, ceo.token, 'flow', flow.json().id, { inputs: { q: 'chosen-by-me' } });
    const run = await waitForStatus(t.req, ceo.token, 'flow', id, ['paused', 'completed', 'failed']);
    expect(run.status).toBe('completed');
    expect(hits('/person-inputs')[0]?.path).toContain('q=chosen-by-me');
  });

  it('an MCP tool the server labels readOnlyHint is gated unless its owner marked it read-only', async () => {
    const save = (readOnly?: string[]) =>
      t.req({
        method: 'POST',
        url: '/api/tools/',
        token: ceo.token,
        body: {
          name: `Quotes ${readOnly ? 'marked' : 'hinted'}`,
          kind: 'mcp',
          mcp: { url: mcp.url('/read'), headers: {}, ...(readOnly ? { read_only_tools: readOnly } : {}) },
        },
      });
    const hinted = await save();
    expect(hinted.json().mcp.tools[0]).toMatchObject({ read_only: false, read_only_hint: true });
    const before = mcp.calls.length;
    const gated = await agentRun(hinted.json().id);
    expect(gated.run.status).toBe('paused');
    expect((await approvalsOf(gated.id))[0]).toMatchObject({ method: 'MCP', gate_reason: 'model_arguments' });
    expect(mcp.calls.length).toBe(before);

    const bad = await save(['no_such_tool']);
    expect(bad.statusCode).toBe(422);
    const marked = await save(['lookup_quote']);
    expect(marked.json().mcp.tools[0]).toMatchObject({ read_only: true, read_only_hint: true });
    const free = await agentRun(marked.json().id);
    expect(free.run.status, JSON.stringify(free.run)).toBe('completed');
    expect(mcp.calls.length).toBe(before + 1);
    // An update without marks keeps them.
    const put = await t.req({
      method: 'PUT',
      url: `/api/tools/${marked.json().id}`,
      token: ceo.token,
      body: { name: 'Quotes renamed', kind: 'mcp', mcp: { url: mcp.url('/read') } },
    });
    expect(put.json().mcp.tools[0].read_only).toBe(true);
  });

  it('an MCP tool saved before issue 46 keeps the server claim only as a hint (migration 0033)', async () => {
    const saved = await t.req({
      method: 'POST',
      url: '/api/tools/',
      token: ceo.token,
      body: { name: 'Old quotes', kind: 'mcp', mcp: { url: mcp.url('/read'), headers: {} } },
    });
    const id = saved.json().id as string;
    // As such a row was stored before: `read_only` was the server's readOnlyHint.
    const old = [
      { name: 'lookup_quote', description: 'q', input_schema: { type: 'object' }, read_only: true },
    ];
    await t.ctx.db
      .updateTable('factory_tools')
      .set({ mcp_tools: JSON.stringify(old) })
      .where('id', '=', id)
      .execute();
    await moveServerHintsOut(t.ctx.db);
    const now = await t.req({ method: 'GET', url: `/api/tools/${id}`, token: ceo.token });
    expect(now.json().mcp.tools[0]).toMatchObject({
      name: 'lookup_quote',
      read_only: false,
      read_only_hint: true,
    });
    expect((await agentRun(id)).run.status).toBe('paused');
  });

  it('only a platform administrator edits the list; bad entries are 422 and change nothing', async () => {
    const admin = await t.createUser('admin');
    const put = (token: string, entries: unknown) =>
      t.req({ method: 'PUT', url: '/api/admin/outbound-allowlist', token, body: { entries } });
    expect((await put(ceo.token, [])).statusCode).toBe(403);
    const ok = await put(admin.token, [{ method: 'GET', destination: 'https://api.example.com/v1/' }]);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().entries).toMatchObject([{ method: 'GET', destination: 'https://api.example.com/v1' }]);
    for (const entries of [
      [{ method: 'GET', destination: 'https://api.example.com/v1?key=x' }],
      [{ method: 'GET', destination: 'ftp://api.example.com/' }],
      [{ method: 'DELETE', destination: 'https://api.example.com/' }],
      [
        { method: 'GET', destination: 'https://a.example.com/x' },
        { method: 'GET', destination: 'https://a.example.com/x/' },
      ],
    ]) {
      const res = await put(admin.token, entries);
      expect(res.statusCode, JSON.stringify(entries)).toBe(422);
      expect(res.json().detail).toBeTruthy();
    }
    const now = await t.req({ method: 'GET', url: '/api/admin/outbound-allowlist', token: admin.token });
    expect(now.json().entries).toHaveLength(1);
  });
});

apiSuite('tool results reach a run’s model wrapped as untrusted data (issue 46 row 5)', () => {
  let t: TestApp;
  let ceo: TestUser;
  let mock: MockOpenAI;
  let listener: Awaited<ReturnType<typeof startRecordingServer>>;
  beforeAll(async () => {
    mock = await startMockOpenAI({ models: ['gpt-5-chat'] });
    t = await createTestApp({
      OPENAI_BASE_URL: mock.url,
      OPENAI_API_KEY: 'test-key',
      AI_MAX_RETRIES: '0',
      AI_HTTP_ALLOWLIST: '127.0.0.1',
      RUN_POLL_MS: '100',
    });
    ceo = await t.createUser('ceo');
    listener = await startRecordingServer();
  });
  afterAll(async () => {
    await t.close();
    await mock.close();
    await listener.close();
  });

  it('the model sees the instruction, and the tool result between the fixed delimiters', async () => {
    const tool = await t.req({
      method: 'POST',
      url: '/api/tools/',
      token: ceo.token,
      body: { name: 'Feed', http: { url: listener.url('/feed'), method: 'GET' } },
    });
    await markSideEffectFree(t, [{ method: 'GET', destination: listener.url('/feed') }]);
    const agent = await t.req({
      method: 'POST',
      url: '/api/agents/',
      token: ceo.token,
      body: {
        name: 'Reader',
        role: 'Reader',
        goal: 'Read',
        llmModel: 'gpt-5-chat',
        toolIds: [tool.json().id],
      },
    });
    const crew = await t.req({
      method: 'POST',
      url: '/api/crews/',
      token: ceo.token,
      body: {
        name: 'Read crew',
        version: '1',
        tasks: [{ description: 'Read the feed', agent_id: agent.json().id }],
      },
    });
    const key = `http_feed_${tool.json().id.slice(0, 6)}`;
    mock.script(
      { kind: 'tool-calls', calls: [{ name: key, arguments: { topic: 'news' } }] },
      { kind: 'text', chunks: ['READ'] },
    );
    const before = mock.chatRequests().length;
    const id = await startRun(t.req, ceo.token, 'crew', crew.json().id);
    const run = await waitForStatus(t.req, ceo.token, 'crew', id, [
      'completed',
      'failed',
      'awaiting_human_input',
    ]);
    expect(run.status, JSON.stringify(run)).toBe('completed');
    const [first, second] = mock.chatRequests().slice(before);
    const messages = (second.body?.messages ?? []) as { role: string; content: unknown }[];
    const system = ((first.body?.messages ?? []) as { role: string; content: unknown }[])[0];
    expect(JSON.stringify(system)).toContain(UNTRUSTED_INSTRUCTION.slice(0, 60));
    const toolMessage = messages.find((m) => m.role === 'tool');
    expect(String(toolMessage?.content)).toMatch(
      new RegExp(
        `^${UNTRUSTED_OPEN}\\n\\[result of the tool ${key}\\]\\n\\{"status":200,.*recorded-answer.*\\n${UNTRUSTED_CLOSE}$`,
        's',
      ),
    );
    expect((await timelineOf(t.req, ceo.token, 'crew', id)).some((e) => e.type === 'tool_result')).toBe(true);
  });
});
