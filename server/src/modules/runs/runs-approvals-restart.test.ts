import {
  CALL_INTERRUPTED_EVENT,
  INTERRUPTED_CALL_ANSWER_REQUIRED,
  INTERRUPTED_CALL_NOT_WAITING,
  INTERRUPTED_CALL_QUESTION,
  INTERRUPTED_CALL_STOPPED,
  INTERRUPTED_CALL_WENT_THROUGH_RESULT,
} from '@cc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { type BuiltApp, buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { type Req, startRecordingServer, startRun, timelineOf, waitForStatus } from './runs-test-kit.ts';

/** Requests against any app instance of the same database (tokens stay valid across restarts). */
function requester(app: BuiltApp['app']): Req {
  return (o) =>
    app.inject({
      method: o.method,
      url: o.url,
      headers: { authorization: `Bearer ${o.token}` },
      ...(o.body !== undefined ? { payload: o.body as object } : {}),
    });
}

apiSuite('tool approvals across restarts and instances', () => {
  let t: TestApp;
  let ceo: TestUser;
  let listener: Awaited<ReturnType<typeof startRecordingServer>>;
  const extra: BuiltApp[] = [];
  const env = { AI_HTTP_ALLOWLIST: '127.0.0.1', RUN_POLL_MS: '100', RUN_LEASE_MS: '1500' };
  beforeAll(async () => {
    t = await createTestApp(env);
    ceo = await t.createUser('ceo');
    listener = await startRecordingServer();
  });
  afterAll(async () => {
    for (const b of extra) await b.app.close().catch(() => {});
    await t.close().catch(() => {});
    await listener.close();
  });

  const newInstance = async (overrides: Record<string, string> = {}) => {
    const b = await buildApp(
      loadConfig({
        ...process.env,
        DATABASE_URL: t.config.db.kind === 'postgres' ? t.config.db.url : `file:${t.config.db.file}`,
        JWT_SECRET: t.config.jwtSecret,
        LOG_LEVEL: 'silent',
        DEMO_SEED: 'false',
        FILES_DIR: t.config.filesDir,
        ...env,
        ...overrides,
      }),
      { serveWeb: false },
    );
    await b.app.ready();
    extra.push(b);
    return b;
  };
  const hits = (path: string) => listener.received.filter((r) => r.path === path).length;

  async function pausedRun(
    req: Req,
    path: string,
    conversationId?: string,
  ): Promise<{ runId: string; approvalId: string }> {
    const tool = await req({
      method: 'POST',
      url: '/api/tools/',
      token: ceo.token,
      body: { name: `Hook ${path}`, http: { url: listener.url(path) } },
    });
    const flow = await req({
      method: 'POST',
      url: '/api/flows/',
      token: ceo.token,
      body: { name: `Flow ${path}`, steps: [{ title: 'Call', kind: 'tool', tool_id: tool.json().id }] },
    });
    const runId = await startRun(req, ceo.token, 'flow', flow.json().id, { conversationId });
    await waitForStatus(req, ceo.token, 'flow', runId, ['paused']);
    const list = await req({ method: 'GET', url: `/api/runs/${runId}/approvals`, token: ceo.token });
    return { runId, approvalId: list.json().items[0].id };
  }

  it('a call approved after a restart, on another instance, is made exactly once', async () => {
    const { runId, approvalId } = await pausedRun(requester(t.app), '/restart');
    await t.app.close();
    // Two instances share the database: both workers may pick the run up, one call goes out.
    const [a, b] = [await newInstance(), await newInstance()];
    const approved = await requester(a.app)({
      method: 'POST',
      url: `/api/runs/${runId}/approvals/${approvalId}/approve`,
      token: ceo.token,
      body: {},
    });
    expect(approved.statusCode, approved.body).toBe(200);
    const again = await requester(b.app)({
      method: 'POST',
      url: `/api/runs/${runId}/approvals/${approvalId}/approve`,
      token: ceo.token,
      body: {},
    });
    expect(again.statusCode).toBe(409);
    const run = await waitForStatus(requester(b.app), ceo.token, 'flow', runId, ['completed', 'failed']);
    expect(run.status).toBe('completed');
    await new Promise((r) => setTimeout(r, 300));
    expect(hits('/restart')).toBe(1);
  });

  /** As if an instance had claimed the approved call and died before recording its result. */
  async function interruptedRun(path: string, conversationId?: string) {
    const app = await instance();
    const req = requester(app.app);
    const { runId, approvalId } = await pausedRun(req, path, conversationId);
    await app.ctx.db
      .updateTable('tool_approvals')
      .set({ status: 'executing' })
      .where('id', '=', approvalId)
      .execute();
    await app.ctx.db.updateTable('runs').set({ status: 'running' }).where('id', '=', runId).execute();
    await waitForStatus(req, ceo.token, 'flow', runId, ['paused', 'completed', 'failed']);
    return { app, req, runId, approvalId };
  }
  let shared: BuiltApp | null = null;
  const instance = async () => {
    shared ??= await newInstance();
    return shared;
  };
  const approvalOf = async (req: Req, runId: string) =>
    (await req({ method: 'GET', url: `/api/runs/${runId}/approvals`, token: ceo.token })).json().items[0];
  const inboxItemOf = async (req: Req, approvalId: string) => {
    // The item is opened just after the run's pause is committed: look again for a moment.
    for (let i = 0; i < 50; i++) {
      const res = await req({ method: 'GET', url: '/api/inbox/', token: ceo.token });
      const item = (
        res.json().items as { id: string; kind: string; title: string; source: { id: string } }[]
      ).find((x) => x.kind === 'interrupted_call' && x.source.id === approvalId);
      if (item) return item;
      await new Promise((r) => setTimeout(r, 40));
    }
    return undefined;
  };
  const answer = (req: Req, runId: string, approvalId: string, body: unknown) =>
    req({ method: 'POST', url: `/api/runs/${runId}/approvals/${approvalId}/answer`, token: ceo.token, body });

  it('an approved call cut by a crash is not sent again: the run pauses and asks whether it went through', async () => {
    const conversation = await requester((await instance()).app)({
      method: 'POST',
      url: '/api/conversations/',
      token: ceo.token,
      body: { name: 'Interrupted call' },
    });
    const conversationId = conversation.json().id as string;
    const { req, runId, approvalId } = await interruptedRun('/claimed', conversationId);
    const run = await waitForStatus(req, ceo.token, 'flow', runId, ['paused', 'completed', 'failed']);
    expect(run.status, JSON.stringify(run)).toBe('paused');
    expect(hits('/claimed')).toBe(0);
    expect(await approvalOf(req, runId)).toMatchObject({ id: approvalId, status: 'interrupted' });
    const asked = (await timelineOf(req, ceo.token, 'flow', runId)).find(
      (e) => e.type === CALL_INTERRUPTED_EVENT,
    );
    expect(asked?.details).toMatchObject({
      approval_id: approvalId,
      question: INTERRUPTED_CALL_QUESTION,
      answers: ['went_through', 'retry', 'stop'],
    });
    const item = await inboxItemOf(req, approvalId);
    expect(item).toMatchObject({ kind: 'interrupted_call', title: INTERRUPTED_CALL_QUESTION });
    // The conversation following the run is asked too.
    const messages = await req({
      method: 'GET',
      url: `/api/conversations/${conversationId}/messages`,
      token: ceo.token,
    });
    expect(
      (messages.json().items as { text: string }[]).some((m) => m.text.startsWith(INTERRUPTED_CALL_QUESTION)),
    ).toBe(true);
    // The run cannot be continued past the question with a plain answer.
    const cont = await req({
      method: 'POST',
      url: `/api/flow-runs/${runId}/continue`,
      token: ceo.token,
      body: { user_input: 'go on' },
    });
    expect(cont.statusCode).toBe(409);

    // "It went through": the call ends done, the agent is told so, nothing is sent, the run goes on.
    const ok = await answer(req, runId, approvalId, { answer: 'went_through' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().status).toBe('done');
    const done = await waitForStatus(req, ceo.token, 'flow', runId, ['completed', 'failed']);
    expect(done.status).toBe('completed');
    expect(String(done.result)).toContain(INTERRUPTED_CALL_WENT_THROUGH_RESULT);
    expect(hits('/claimed')).toBe(0);
    expect(await inboxItemOf(req, approvalId)).toBeUndefined();
    const again = await answer(req, runId, approvalId, { answer: 'retry' });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe(INTERRUPTED_CALL_NOT_WAITING);
  });

  it('"it did not, retry" from the inbox sends the approved call once more; the approval ends done', async () => {
    const { req, runId, approvalId } = await interruptedRun('/retry');
    const item = await inboxItemOf(req, approvalId);
    if (!item) throw new Error('the interrupted call is not in the inbox');
    const bad = await req({
      method: 'POST',
      url: `/api/inbox/${item.id}/approve`,
      token: ceo.token,
      body: { edits: { answer: 'maybe' } },
    });
    expect(bad.statusCode, bad.body).toBe(422);
    expect(JSON.stringify(bad.json().detail)).toContain(INTERRUPTED_CALL_ANSWER_REQUIRED);
    expect(hits('/retry')).toBe(0);
    const ok = await req({
      method: 'POST',
      url: `/api/inbox/${item.id}/approve`,
      token: ceo.token,
      body: { edits: { answer: 'retry' } },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const run = await waitForStatus(req, ceo.token, 'flow', runId, ['completed', 'failed']);
    expect(run.status).toBe('completed');
    expect(hits('/retry')).toBe(1);
    expect(await approvalOf(req, runId)).toMatchObject({ status: 'done' });
  });

  it('"stop the run" fails the run as stopped and ends the approval stopped; nothing is sent', async () => {
    const { req, runId, approvalId } = await interruptedRun('/stop');
    const bad = await answer(req, runId, approvalId, { answer: '' });
    expect(bad.statusCode).toBe(422);
    const ok = await answer(req, runId, approvalId, { answer: 'stop' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().status).toBe('stopped');
    const run = await waitForStatus(req, ceo.token, 'flow', runId, ['completed', 'failed']);
    expect(run).toMatchObject({ status: 'failed', error: INTERRUPTED_CALL_STOPPED });
    await new Promise((r) => setTimeout(r, 300));
    expect(hits('/stop')).toBe(0);
    expect(await inboxItemOf(req, approvalId)).toBeUndefined();
  });

  it("the run page's Stop while the question waits ends the approval stopped too", async () => {
    const { req, runId } = await interruptedRun('/stop-button');
    const stopped = await req({ method: 'POST', url: `/api/flow-runs/${runId}/stop`, token: ceo.token });
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(await approvalOf(req, runId)).toMatchObject({ status: 'stopped' });
    expect(hits('/stop-button')).toBe(0);
  });
});
