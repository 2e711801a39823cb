import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { type BuiltApp, buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { type Req, startRecordingServer, startRun, waitForStatus } from './runs-test-kit.ts';

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

  async function pausedRun(req: Req, path: string): Promise<{ runId: string; approvalId: string }> {
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
    const runId = await startRun(req, ceo.token, 'flow', flow.json().id);
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

  it('an approved call interrupted after it was claimed is never sent again', async () => {
    const app = await newInstance();
    const req = requester(app.app);
    const { runId, approvalId } = await pausedRun(req, '/claimed');
    // As if an instance had claimed the approved call and died before recording its result.
    await app.ctx.db
      .updateTable('tool_approvals')
      .set({ status: 'executing' })
      .where('id', '=', approvalId)
      .execute();
    await app.ctx.db.updateTable('runs').set({ status: 'running' }).where('id', '=', runId).execute();
    const run = await waitForStatus(req, ceo.token, 'flow', runId, ['completed', 'failed']);
    // Its outcome is unknown: the step (and the run) fails with that reason (issue 46 row 9).
    expect(run.status).toBe('failed');
    expect(String(run.error)).toContain('not repeated');
    expect(hits('/claimed')).toBe(0);
  });
});
