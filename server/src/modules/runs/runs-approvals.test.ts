import { APPROVAL_ALREADY_DECIDED, RUN_AWAITS_APPROVAL } from '@cc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import {
  builtinAgentIds,
  startRecordingServer,
  startRun,
  timelineOf,
  waitForStatus,
} from './runs-test-kit.ts';

const settle = () => new Promise((r) => setTimeout(r, 400));

apiSuite('approval gates on tool calls (issue 19 section 1)', () => {
  let t: TestApp;
  let ceo: TestUser;
  let other: TestUser;
  let admin: TestUser;
  let listener: Awaited<ReturnType<typeof startRecordingServer>>;
  beforeAll(async () => {
    // The listener is reachable only because the test allow-lists the loopback address.
    t = await createTestApp({ AI_HTTP_ALLOWLIST: '127.0.0.1', RUN_POLL_MS: '100' });
    ceo = await t.createUser('ceo');
    other = await t.createUser('ceo');
    admin = await t.createUser('admin');
    listener = await startRecordingServer();
  });
  afterAll(async () => {
    await t.close();
    await listener.close();
  });

  const hits = (path: string) => listener.received.filter((r) => r.path.startsWith(path));

  async function tool(who: TestUser, body: Record<string, unknown>) {
    const res = await t.req({ method: 'POST', url: '/api/tools/', token: who.token, body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; requires_approval: boolean };
  }
  async function flow(who: TestUser, body: Record<string, unknown>) {
    const res = await t.req({ method: 'POST', url: '/api/flows/', token: who.token, body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  }
  async function pendingOf(who: TestUser, runId: string) {
    const res = await t.req({ method: 'GET', url: `/api/runs/${runId}/approvals`, token: who.token });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().items as { id: string; status: string }[]).filter((a) => a.status === 'pending');
  }

  it('defaults: POST HTTP tools require approval, GET and built-in tools do not; the owner can change it', async () => {
    expect((await tool(ceo, { name: 'Poster', http: { url: listener.url('/p') } })).requires_approval).toBe(
      true,
    );
    expect(
      (await tool(ceo, { name: 'Getter', http: { url: listener.url('/g'), method: 'GET' } }))
        .requires_approval,
    ).toBe(false);
    expect(
      (await tool(ceo, { name: 'Search', kind: 'builtin', function_name: 'internal_search' }))
        .requires_approval,
    ).toBe(false);
    const changed = await tool(ceo, { name: 'Trusted', http: { url: listener.url('/t') } });
    const put = await t.req({
      method: 'PUT',
      url: `/api/tools/${changed.id}`,
      token: ceo.token,
      body: { name: 'Trusted', http: { url: listener.url('/t') }, requires_approval: false },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().requires_approval).toBe(false);
  });

  it('a POST tool step pauses before the call; nothing leaves until approval (with edits), then exactly one request', async () => {
    const hook = await tool(ceo, { name: 'Pay vendor', http: { url: listener.url('/pay') } });
    const flowId = await flow(ceo, {
      name: 'Pay',
      steps: [{ title: 'Pay it', kind: 'tool', tool_id: hook.id }],
    });
    const runId = await startRun(t.req, ceo.token, 'flow', flowId, { inputs: { amount: '42' } });
    await waitForStatus(t.req, ceo.token, 'flow', runId, ['paused']);
    await settle();
    expect(hits('/pay')).toHaveLength(0);

    // The timeline shows the exact call.
    const event = (await timelineOf(t.req, ceo.token, 'flow', runId)).find(
      (e) => e.type === 'approval_required',
    );
    expect(event?.details).toMatchObject({
      tool: 'Pay vendor',
      method: 'POST',
      url: listener.url('/pay'),
      headers: { 'content-type': 'application/json' },
      body: { amount: '42' },
    });
    const [pending] = await pendingOf(ceo, runId);
    expect(pending.id).toBe(event?.details?.approval_id);

    // Answering it like a question is refused; another user cannot see or decide it.
    const answered = await t.req({
      method: 'POST',
      url: `/api/flow-runs/${runId}/continue`,
      token: ceo.token,
      body: { user_input: 'yes' },
    });
    expect(answered.statusCode).toBe(409);
    expect(answered.json().detail).toBe(RUN_AWAITS_APPROVAL);
    const approveUrl = `/api/runs/${runId}/approvals/${pending.id}/approve`;
    for (const who of [other, admin]) {
      expect((await t.req({ method: 'POST', url: approveUrl, token: who.token, body: {} })).statusCode).toBe(
        404,
      );
      expect(
        (await t.req({ method: 'GET', url: `/api/runs/${runId}/approvals`, token: who.token })).statusCode,
      ).toBe(404);
    }
    expect(hits('/pay')).toHaveLength(0);

    const approved = await t.req({
      method: 'POST',
      url: approveUrl,
      token: ceo.token,
      body: { edits: { arguments: { amount: '40' } } },
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'approved', edited: true, body: { amount: '40' } });
    const again = await t.req({ method: 'POST', url: approveUrl, token: ceo.token, body: {} });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe(APPROVAL_ALREADY_DECIDED);
    const reject = await t.req({
      method: 'POST',
      url: `/api/runs/${runId}/approvals/${pending.id}/reject`,
      token: ceo.token,
      body: { reason: 'Too late' },
    });
    expect(reject.statusCode).toBe(409);

    const run = await waitForStatus(t.req, ceo.token, 'flow', runId, ['completed', 'failed']);
    expect(run.status).toBe('completed');
    await settle();
    expect(hits('/pay')).toHaveLength(1);
    expect(JSON.parse(hits('/pay')[0].body)).toEqual({ amount: '40' });
    expect(String(run.result)).toContain('recorded-answer');
    const types = (await timelineOf(t.req, ceo.token, 'flow', runId)).map((e) => e.type);
    expect(types).toContain('approval_granted');
    const [decided] = (
      await t.req({ method: 'GET', url: `/api/runs/${runId}/approvals`, token: ceo.token })
    ).json().items;
    expect(decided.status).toBe('done');
  });

  it("reject feeds the person's reason to the agent as the tool's result, and the run goes on", async () => {
    const hook = await tool(ceo, { name: 'Email blast', http: { url: listener.url('/blast') } });
    const agents = await builtinAgentIds(t, ceo);
    const flowId = await flow(ceo, {
      name: 'Blast',
      steps: [{ title: 'Send it', kind: 'agent', agent_id: agents.Writer, tool_id: hook.id }],
    });
    const runId = await startRun(t.req, ceo.token, 'flow', flowId);
    await waitForStatus(t.req, ceo.token, 'flow', runId, ['paused']);
    const [pending] = await pendingOf(ceo, runId);
    const rejectUrl = `/api/runs/${runId}/approvals/${pending.id}/reject`;
    const blank = await t.req({ method: 'POST', url: rejectUrl, token: ceo.token, body: { reason: '   ' } });
    expect(blank.statusCode).toBe(422);
    const rejected = await t.req({
      method: 'POST',
      url: rejectUrl,
      token: ceo.token,
      body: { reason: 'Not to the whole list' },
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json()).toMatchObject({ status: 'rejected', reason: 'Not to the whole list' });
    const run = await waitForStatus(t.req, ceo.token, 'flow', runId, ['completed', 'failed']);
    expect(run.status).toBe('completed');
    // The offline agent quotes what its tool returned: the person's reason.
    expect(String(run.result)).toContain('The person rejected this call: Not to the whole list');
    expect(hits('/blast')).toHaveLength(0);
    const timeline = await timelineOf(t.req, ceo.token, 'flow', runId);
    expect(timeline.find((e) => e.type === 'approval_rejected')?.details).toMatchObject({
      reason: 'Not to the whole list',
    });
  });

  it('a tool the owner does not gate runs without a pause', async () => {
    const hook = await tool(ceo, {
      name: 'Ping',
      http: { url: listener.url('/ping') },
      requires_approval: false,
    });
    const flowId = await flow(ceo, {
      name: 'Ping',
      steps: [{ title: 'Ping', kind: 'tool', tool_id: hook.id }],
    });
    const runId = await startRun(t.req, ceo.token, 'flow', flowId);
    const run = await waitForStatus(t.req, ceo.token, 'flow', runId, ['completed', 'failed', 'paused']);
    expect(run.status).toBe('completed');
    expect(hits('/ping')).toHaveLength(1);
    expect(await pendingOf(ceo, runId)).toHaveLength(0);
  });

  describe('public items', () => {
    it('only a platform administrator makes an item public; a ceo gets 403', async () => {
      const cases: [string, Record<string, unknown>][] = [
        ['/api/tools/', { name: 'Pub tool' }],
        ['/api/agents/', { name: 'Pub agent', role: 'r', goal: 'g' }],
        ['/api/crews/', { name: 'Pub crew', version: '1' }],
        ['/api/flows/', { name: 'Pub flow', steps: [{ title: 'Wait', kind: 'wait_for_human' }] }],
      ];
      for (const [url, body] of cases) {
        const byCeo = await t.req({
          method: 'POST',
          url,
          token: ceo.token,
          body: { ...body, is_public: true },
        });
        expect(byCeo.statusCode, url).toBe(403);
        const byAdmin = await t.req({
          method: 'POST',
          url,
          token: admin.token,
          body: { ...body, is_public: true },
        });
        expect(byAdmin.statusCode, url).toBe(201);
        expect(byAdmin.json().is_public).toBe(true);
      }
      // Nor can a ceo turn an own item public later.
      const own = await tool(ceo, { name: 'Private tool' });
      const put = await t.req({
        method: 'PUT',
        url: `/api/tools/${own.id}`,
        token: ceo.token,
        body: { name: 'Private tool', is_public: true },
      });
      expect(put.statusCode).toBe(403);
    });

    it("running someone else's public flow asks the runner before its tool calls a destination, once per destination", async () => {
      const hook = await tool(admin, {
        name: 'Collector',
        http: { url: listener.url('/collect') },
        requires_approval: false,
        is_public: true,
      });
      const flowId = await flow(admin, {
        name: 'Shared collector',
        is_public: true,
        steps: [
          { title: 'Send', kind: 'tool', tool_id: hook.id },
          { title: 'Send again', kind: 'tool', tool_id: hook.id },
        ],
      });
      // The owner's own run of it is not gated (the tool does not require approval).
      const own = await startRun(t.req, admin.token, 'flow', flowId);
      expect((await waitForStatus(t.req, admin.token, 'flow', own, ['completed', 'paused'])).status).toBe(
        'completed',
      );
      expect(hits('/collect')).toHaveLength(2);

      const runId = await startRun(t.req, ceo.token, 'flow', flowId, { inputs: { secret: 'runner data' } });
      await waitForStatus(t.req, ceo.token, 'flow', runId, ['paused']);
      await settle();
      expect(hits('/collect')).toHaveLength(2);
      const [pending] = (
        await t.req({ method: 'GET', url: `/api/runs/${runId}/approvals`, token: ceo.token })
      ).json().items;
      expect(pending).toMatchObject({ gate_reason: 'foreign_item', status: 'pending' });
      const approved = await t.req({
        method: 'POST',
        url: `/api/runs/${runId}/approvals/${pending.id}/approve`,
        token: ceo.token,
        body: {},
      });
      expect(approved.statusCode, approved.body).toBe(200);
      const run = await waitForStatus(t.req, ceo.token, 'flow', runId, ['completed', 'failed', 'paused']);
      // The second call goes to the destination already approved in this run: no second pause.
      expect(run.status).toBe('completed');
      expect(hits('/collect')).toHaveLength(4);
      expect(
        (await t.req({ method: 'GET', url: `/api/runs/${runId}/approvals`, token: ceo.token })).json().items,
      ).toHaveLength(1);
    });
  });
});
