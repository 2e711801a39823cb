import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';

type ToolResult = { isError?: boolean; content: { type: string; text: string }[] };

apiSuite('the workspace as an MCP server', () => {
  let t: TestApp;
  let base: string;
  let ceo: TestUser;
  let colleague: TestUser;
  let otherCeo: TestUser;
  let goalId: string;
  let taskId: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    base = await t.listen();
    ceo = await t.createUser('ceo');
    colleague = await t.createUser('user');
    otherCeo = await t.createUser('ceo');
    const org = await t.createOrg(ceo, 'Nordic Co');
    await t.addToOrg(ceo, org, colleague, 'user');
    const goal = await t.req({
      method: 'POST',
      url: '/api/strategic-goals/',
      token: ceo.token,
      body: {
        title: 'Expand into Nordic markets',
        due_date: '2027-06-30',
        kpis: [{ name: 'Nordic revenue', current_value: 40, target_value: 100, unit: 'k€' }],
      },
    });
    expect(goal.statusCode).toBe(201);
    goalId = goal.json().id;
    const task = await t.req({
      method: 'POST',
      url: '/api/tasks/',
      token: ceo.token,
      body: { title: 'Hire a Nordic sales lead', priority: 'High' },
    });
    taskId = task.json().id;
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    await t.close();
  });

  const keyFor = async (u: TestUser, scopes: string[]) => {
    const res = await t.req({
      method: 'POST',
      url: '/api/users/me/api-keys',
      token: u.token,
      body: { name: 'Desktop assistant', scopes },
    });
    expect(res.statusCode).toBe(201);
    return res.json().secret as string;
  };
  const connect = async (secret: string) => {
    const client = new Client({ name: 'test-assistant', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${secret}` } },
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  };
  const call = async (c: Client, name: string, args: Record<string, unknown>) => {
    const r = (await c.callTool({ name, arguments: args })) as ToolResult;
    return { ...r, data: r.isError ? null : JSON.parse(r.content[0].text) };
  };
  const ALL = [
    'read:goals',
    'write:goals',
    'read:tasks',
    'read:notes',
    'read:contacts',
    'write:tasks',
    'write:notes',
    'write:comms',
  ];

  it('the SDK client connects, lists the tools its scopes allow, searches and reads with citations', async () => {
    const c = await connect(await keyFor(ceo, ALL));
    const names = (await c.listTools()).tools.map((x) => x.name).sort();
    expect(names).toEqual(
      [
        'create_note',
        'draft_comms_message',
        'get_contact',
        'get_goal',
        'get_note',
        'get_task',
        'list_contacts',
        'list_goals',
        'list_notes',
        'list_tasks',
        'propose_task',
        'record_kpi_checkin',
        'search_workspace',
      ].sort(),
    );
    const found = await call(c, 'search_workspace', { query: 'Nordic' });
    const cited = found.data.hits.map(
      (h: { citation: { type: string; id: string; url: string } }) => h.citation,
    );
    expect(cited).toEqual(
      expect.arrayContaining([
        {
          type: 'goal',
          id: goalId,
          title: 'Expand into Nordic markets',
          url: `/app/strategy?goal=${goalId}`,
        },
        { type: 'task', id: taskId, title: 'Hire a Nordic sales lead', url: `/app/my-tasks?task=${taskId}` },
      ]),
    );
    const goals = await call(c, 'list_goals', {});
    expect(goals.data.goals.map((g: { id: string }) => g.id)).toContain(goalId);
    const goal = await call(c, 'get_goal', { id: goalId });
    expect(goal.data.goal.kpis[0]).toMatchObject({
      name: 'Nordic revenue',
      current_value: 40,
      target_value: 100,
    });
    const task = await call(c, 'get_task', { id: taskId });
    expect(task.data.task.title).toBe('Hire a Nordic sales lead');
  });

  it('proposes a task into the person’s review queue without creating it, and writes a note', async () => {
    const c = await connect(await keyFor(ceo, ALL));
    const before = await t.ctx.db.selectFrom('tasks').select('id').execute();
    const r = await call(c, 'propose_task', { title: 'Book Oslo customer visits', priority: 'High' });
    expect(r.data.status).toBe('proposed');
    const after = await t.ctx.db.selectFrom('tasks').select('id').execute();
    expect(after.length).toBe(before.length);
    const pending = await t.req({ method: 'GET', url: '/api/task-suggestions/', token: ceo.token });
    expect(pending.json().map((s: { title: string }) => s.title)).toContain('Book Oslo customer visits');
    const again = await call(c, 'propose_task', { title: 'Book Oslo customer visits' });
    expect(again.data.status).toBe('duplicate');

    const note = await call(c, 'create_note', { content: 'Nordic pricing idea from the assistant' });
    expect(note.isError).toBeFalsy();
    const notes = await t.req({ method: 'GET', url: '/api/journals/', token: ceo.token });
    expect(JSON.stringify(notes.json())).toContain('Nordic pricing idea from the assistant');
    // Each call is in the activity ledger, as the key's owner, via api.
    const entries = await t.ctx.db
      .selectFrom('activity')
      .selectAll()
      .where('actor_user_id', '=', ceo.id)
      .where('action', '=', 'mcp.create_note')
      .execute();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ via: 'api', entity_type: 'mcp_call' });
    // The ledger keeps the arguments' digest and first 1 KB (issue 46 row 14), here all of them.
    expect(JSON.parse(entries[0].after ?? '{}')).toMatchObject({
      tool: 'create_note',
      arguments: {
        preview: JSON.stringify({ content: 'Nordic pricing idea from the assistant' }),
        truncated: false,
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
      refused: false,
    });
  });

  it('records a KPI check-in on a goal the key’s owner may edit, and not on another tenant’s', async () => {
    const goal = await t.req({ method: 'GET', url: `/api/strategic-goals/${goalId}`, token: ceo.token });
    const kpiId = goal.json().kpis[0].id as string;
    const c = await connect(await keyFor(ceo, ['write:goals']));
    const r = await call(c, 'record_kpi_checkin', {
      goal_id: goalId,
      kpi_id: kpiId,
      value: 55,
      date: '2026-11-20',
    });
    expect(r.isError).toBeFalsy();
    expect(r.data.checkin).toMatchObject({ kpi_id: kpiId, value: 55, date: '2026-11-20' });
    const list = await t.req({
      method: 'GET',
      url: `/api/strategic-goals/${goalId}/kpis/${kpiId}/checkins`,
      token: ceo.token,
    });
    expect(JSON.stringify(list.json())).toContain('2026-11-20');
    const other = await connect(await keyFor(otherCeo, ['write:goals']));
    const refused = await call(other, 'record_kpi_checkin', { goal_id: goalId, kpi_id: kpiId, value: 1 });
    expect(refused.isError).toBe(true);
  });

  it('drafts a comms reply as the thread’s suggestion, never a sent message', async () => {
    const thread = await t.req({
      method: 'POST',
      url: '/api/comms/threads',
      token: ceo.token,
      body: { participant_ids: [colleague.id] },
    });
    expect(thread.statusCode).toBe(201);
    const threadId = thread.json().id;
    const c = await connect(await keyFor(ceo, ['write:comms']));
    const r = await call(c, 'draft_comms_message', { thread_id: threadId, text: 'Shall we meet on Monday?' });
    expect(r.data.status).toBe('drafted');
    const s = await t.req({
      method: 'GET',
      url: `/api/comms/threads/${threadId}/suggestion`,
      token: ceo.token,
    });
    expect(s.json().suggestion.text).toBe('Shall we meet on Monday?');
    const msgs = await t.req({
      method: 'GET',
      url: `/api/comms/threads/${threadId}/messages`,
      token: ceo.token,
    });
    expect(JSON.stringify(msgs.json())).not.toContain('Shall we meet on Monday?');
  });

  it('cannot see another tenant’s records', async () => {
    const c = await connect(await keyFor(otherCeo, ALL));
    const found = await call(c, 'search_workspace', { query: 'Nordic' });
    expect(found.data.hits).toEqual([]);
    const goals = await call(c, 'list_goals', {});
    expect(goals.data.goals.map((g: { id: string }) => g.id)).not.toContain(goalId);
    const goal = await call(c, 'get_goal', { id: goalId });
    expect(goal.isError).toBe(true);
    expect(goal.content[0].text).toBe('Goal not found');
    const task = await call(c, 'get_task', { id: taskId });
    expect(task.isError).toBe(true);
  });

  it('offers only what the scopes allow: a read-only key has no writing tool and sees no other domain', async () => {
    const c = await connect(await keyFor(ceo, ['read:tasks']));
    const names = (await c.listTools()).tools.map((x) => x.name).sort();
    expect(names).toEqual(['get_task', 'list_tasks', 'search_workspace']);
    const found = await call(c, 'search_workspace', { query: 'Nordic' });
    expect(found.data.hits.map((h: { type: string }) => h.type)).toEqual(['task']);
    await expect(c.callTool({ name: 'create_note', arguments: { content: 'x' } })).resolves.toMatchObject({
      isError: true,
    });
  });

  it('refuses a session token, no token, and a revoked key', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} };
    const post = (auth?: string) =>
      fetch(`${base}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(auth ? { authorization: auth } : {}),
        },
        body: JSON.stringify(init),
      });
    expect((await post()).status).toBe(401);
    expect((await post(`Bearer ${ceo.token}`)).status).toBe(401);
    const secret = await keyFor(ceo, ['read:tasks']);
    const keys = await t.req({ method: 'GET', url: '/api/users/me/api-keys', token: ceo.token });
    const id = keys.json().find((k: { prefix: string }) => secret.startsWith(k.prefix)).id;
    await t.req({ method: 'DELETE', url: `/api/users/me/api-keys/${id}`, token: ceo.token });
    expect((await post(`Bearer ${secret}`)).status).toBe(401);
  });
});
