import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { markSideEffectFree } from '../../../test/side-effect-free.ts';
import { builtinAgentIds, startRun, startToolServer, waitForStatus } from '../runs/runs-test-kit.ts';
import { entriesAdded, oneEntry } from './activity-test-kit.ts';

/**
 * Every write made by AI, an agent or a run (issue 19 §3) writes exactly one ledger entry: memories,
 * advice, messages sent from AI drafts, and the external calls tools make (destination and status).
 * Accepting a task suggestion is in activity.test.ts with its undo.
 */
apiSuite('activity ledger: AI, agent and run writes', () => {
  let t: TestApp;
  let ceo: TestUser;
  let member: TestUser;
  let tools: Awaited<ReturnType<typeof startToolServer>>;
  let search: http.Server;
  beforeAll(async () => {
    tools = await startToolServer();
    search = http.createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ results: [{ title: 'Heron', url: 'https://example.com/h', content: 'x' }] }));
    });
    await new Promise<void>((r) => search.listen(0, '127.0.0.1', r));
    t = await createTestApp({
      AI_HTTP_ALLOWLIST: '127.0.0.1',
      RUN_POLL_MS: '100',
      SEARCH_PROVIDER: 'searxng',
      SEARCH_URL: `http://127.0.0.1:${(search.address() as AddressInfo).port}`,
    });
    ceo = await t.createUser('ceo');
    member = await t.createUser('user');
    const org = await t.createOrg(ceo, 'Ledger Co');
    await t.addToOrg(ceo, org, member, 'user');
  });
  afterAll(async () => {
    await t.close();
    await tools.close();
    search.closeAllConnections();
    await new Promise<void>((r) => search.close(() => r()));
  });

  const added = (action: string, fn: () => Promise<unknown>) => entriesAdded(t, action, fn);
  const one = (action: string, fn: () => Promise<unknown>) => oneEntry(t, action, fn);

  it('memories the AI stores: one undoable entry each; undo forgets it', async () => {
    const rows = await added('memory.created', () =>
      t.req({
        method: 'POST',
        url: '/api/memory/mine',
        token: member.token,
        body: { content: 'My team is in Lisbon.' },
      }),
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actor_user_id: member.id,
      via: 'ai',
      entity_type: 'memory',
      undoable: 1,
    });
    const res = await t.req({
      method: 'POST',
      url: `/api/activity/${rows[0].id}/undo`,
      token: member.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    const left = await t.req({ method: 'GET', url: '/api/memory/', token: member.token });
    expect(left.json().map((m: { id: string }) => m.id)).not.toContain(rows[0].entity_id);
  });

  it('advice a run writes (Generate Advice), via run:<id>, undoable', async () => {
    const goal = await t.req({
      method: 'POST',
      url: '/api/strategic-goals/',
      token: ceo.token,
      body: {
        title: 'Grow',
        due_date: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
        kpis: [{ name: 'Deals', current_value: 1, target_value: 9 }],
      },
    });
    expect(goal.statusCode, goal.body).toBe(201);
    let runId = '';
    const row = await one('advice.created', async () => {
      const res = await t.req({
        method: 'POST',
        url: '/api/flow/run/strategic_flow',
        token: ceo.token,
        body: { inputs: {} },
      });
      expect(res.statusCode, res.body).toBe(202);
      runId = res.json().id;
      await waitForStatus(t.req, ceo.token, 'flow', runId, ['completed', 'failed']);
    });
    expect(row).toMatchObject({
      actor_user_id: ceo.id,
      via: `run:${runId}`,
      entity_type: 'advice',
      undoable: 1,
    });
    const res = await t.req({ method: 'POST', url: `/api/activity/${row.id}/undo`, token: ceo.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(
      (await t.req({ method: 'GET', url: `/api/strategic-advice/${row.entity_id}`, token: ceo.token }))
        .statusCode,
    ).toBe(404);
  });

  it('a message sent from an AI draft', async () => {
    const thread = await t.req({
      method: 'POST',
      url: '/api/comms/threads',
      token: ceo.token,
      body: { participant_ids: [member.id] },
    });
    expect(thread.statusCode, thread.body).toBe(201);
    const p = `/api/comms/threads/${thread.json().id}/suggestion`;
    expect(
      (await t.req({ method: 'PUT', url: p, token: ceo.token, body: { text: 'AI draft' } })).statusCode,
    ).toBe(200);
    const row = await one('comms.message_sent', async () => {
      const res = await t.req({
        method: 'POST',
        url: `${p}/use`,
        token: ceo.token,
        body: { text: 'AI draft, edited' },
      });
      expect(res.statusCode, res.body).toBe(201);
    });
    expect(row).toMatchObject({
      actor_user_id: ceo.id,
      via: 'ai',
      entity_type: 'comms_message',
      undoable: 0,
    });
    expect(row.after).toContain('AI draft, edited');
    // A message the person wrote themselves is not an AI write.
    expect(
      await added('comms.message_sent', () =>
        t.req({
          method: 'POST',
          url: `/api/comms/threads/${thread.json().id}/messages`,
          token: ceo.token,
          body: { text: 'mine' },
        }),
      ),
    ).toHaveLength(0);
  });

  it("an HTTP tool's call from a run: destination and status, no query values", async () => {
    const tool = await t.req({
      method: 'POST',
      url: '/api/tools/',
      token: ceo.token,
      // No approval gate here (a POST tool waits for one by default): this test is about the ledger.
      body: {
        name: 'Quotes',
        requires_approval: false,
        http: { url: `${tools.url('/quotes')}?api_key=sekret` },
      },
    });
    expect(tool.statusCode, tool.body).toBe(201);
    // The model chooses the arguments: allow-listed, the call needs no approval (issue 46 row 5).
    await markSideEffectFree(t, [{ method: 'POST', destination: tools.url('/quotes') }]);
    const agents = await builtinAgentIds(t, ceo);
    const flow = await t.req({
      method: 'POST',
      url: '/api/flows/',
      token: ceo.token,
      body: {
        name: 'Tool flow',
        steps: [{ title: 'Look', kind: 'agent', agent_id: agents.Writer, tool_id: tool.json().id }],
      },
    });
    expect(flow.statusCode, flow.body).toBe(201);
    let runId = '';
    const row = await one('external.call', async () => {
      runId = await startRun(t.req, ceo.token, 'flow', flow.json().id);
      await waitForStatus(t.req, ceo.token, 'flow', runId, ['completed', 'failed']);
    });
    expect(tools.hits('/quotes')).toBe(1);
    expect(row).toMatchObject({ actor_user_id: ceo.id, via: `run:${runId}`, entity_type: 'external_call' });
    const after = JSON.parse(row.after ?? '{}');
    expect(after).toMatchObject({ tool: 'Quotes', method: 'POST', status: 200 });
    expect(after.destination).toBe(`${tools.url('/quotes')}?api_key=…`);
    expect(JSON.stringify(row)).not.toContain('sekret');
  });

  it('a web search the assistant makes in chat, via ai', async () => {
    const conv = await t.req({
      method: 'POST',
      url: '/api/conversations/',
      token: member.token,
      body: { name: 'Web' },
    });
    const row = await one('external.call', async () => {
      const res = await t.req({
        method: 'POST',
        url: `/api/conversations/${conv.json().id}/chat`,
        token: member.token,
        body: { message_text: 'Latest heron market news?', use_internet: true },
      });
      expect(res.statusCode, res.body).toBe(200);
    });
    expect(row).toMatchObject({ actor_user_id: member.id, via: 'ai' });
    expect(JSON.parse(row.after ?? '{}')).toMatchObject({ tool: 'web_search', method: 'GET', status: 200 });
  });
});
