import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { type BuiltApp, buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import {
  builtinAgentIds,
  type RunEventJson,
  startRun,
  startToolServer,
  waitForStatus,
} from './runs-test-kit.ts';

/** Requests against any app instance of the same database (tokens stay valid across restarts). */
function requester(app: BuiltApp['app']) {
  return (o: { method: 'GET' | 'POST'; url: string; token: string; body?: unknown }) =>
    app.inject({
      method: o.method,
      url: o.url,
      headers: { authorization: `Bearer ${o.token}` },
      ...(o.body !== undefined ? { payload: o.body as object } : {}),
    });
}

async function until(check: () => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

apiSuite('durable runs across restarts', () => {
  let t: TestApp;
  let ceo: TestUser;
  let tools: Awaited<ReturnType<typeof startToolServer>>;
  const extra: BuiltApp[] = [];
  const env = { AI_HTTP_ALLOWLIST: '127.0.0.1', RUN_POLL_MS: '100', RUN_LEASE_MS: '1500' };
  beforeAll(async () => {
    t = await createTestApp(env);
    ceo = await t.createUser('ceo');
    tools = await startToolServer();
  });
  afterAll(async () => {
    for (const b of extra) await b.app.close().catch(() => {});
    await t.close().catch(() => {});
    await tools.close();
  });

  const newInstance = async (overrides: Record<string, string> = {}) => {
    const b = await buildApp(loadConfig({ ...process.env, ...envOf(t), ...overrides }), { serveWeb: false });
    await b.app.ready();
    extra.push(b);
    return b;
  };
  const envOf = (app: TestApp): Record<string, string> => ({
    DATABASE_URL: app.config.db.kind === 'postgres' ? app.config.db.url : `file:${app.config.db.file}`,
    JWT_SECRET: app.config.jwtSecret,
    LOG_LEVEL: 'silent',
    DEMO_SEED: 'false',
    FILES_DIR: app.config.filesDir,
    ...env,
  });

  it('an app closed mid-step resumes the run after a restart without redoing finished steps', async () => {
    const req1 = requester(t.app);
    const mk = async (name: string, path: string) =>
      (
        await req1({
          method: 'POST',
          url: '/api/tools/',
          token: ceo.token,
          body: { name, http: { url: tools.url(path) }, requires_approval: false },
        })
      ).json().id as string;
    const fast = await mk('Fast', '/fast');
    const slow = await mk('Slow', '/slow');
    const agents = await builtinAgentIds(t, ceo);
    const flow = await req1({
      method: 'POST',
      url: '/api/flows/',
      token: ceo.token,
      body: {
        name: 'Durable',
        steps: [
          { title: 'First call', kind: 'tool', tool_id: fast },
          { title: 'Slow call', kind: 'tool', tool_id: slow },
          { title: 'Write up', agent_id: agents.Writer },
        ],
      },
    });
    tools.slowOnce(10_000);
    const id = await startRun(req1, ceo.token, 'flow', flow.json().id);
    await until(() => tools.hits('/slow') === 1);

    // Shut down while step 2 waits on its endpoint: the step in flight is abandoned, the run given back.
    await t.app.close();
    const second = await newInstance();
    const req2 = requester(second.app);
    const run = await waitForStatus(req2, ceo.token, 'flow', id, ['completed', 'failed']);
    expect(run.status).toBe('completed');
    expect(tools.hits('/fast')).toBe(1);
    expect(tools.hits('/slow')).toBe(2);
    const timeline = (
      await req2({ method: 'GET', url: `/api/flow-runs/${id}/timeline`, token: ceo.token })
    ).json().timeline as RunEventJson[];
    const outputs = timeline.filter((e) => e.type === 'step_output').map((e) => e.details?.position);
    expect(outputs).toEqual([0, 1, 2]);
    const starts = timeline.filter((e) => e.type === 'step_start').map((e) => e.details?.position);
    expect(starts).toEqual([0, 1, 1, 2]);
    expect(String(run.result)).toContain('"answer":"tool-answer-slow"');
  });

  it("a crashed worker's lease expires and another instance finishes the run from the next step", async () => {
    // No worker of an earlier test may claim the run before it is made to look held by a crashed one
    // (one did, under load: the timeline gained its step_start).
    for (const b of extra.splice(0)) await b.app.close().catch(() => {});
    const owner = await newInstance({ RUN_WORKER_CONCURRENCY: '0' });
    const req = requester(owner.app);
    const flows = (await req({ method: 'GET', url: '/api/flows/', token: ceo.token })).json() as {
      id: string;
      name: string;
    }[];
    const approval = flows.find((f) => f.name === 'Task Plan with Approval') as { id: string };
    const id = await startRun(req, ceo.token, 'flow', approval.id);
    // As if a worker had finished step 1, then crashed while holding the lease.
    const leaseEnds = new Date(Date.now() + 60_000).toISOString();
    await owner.ctx.db
      .updateTable('runs')
      .set({
        lease_owner: 'crashed-worker',
        lease_expires_at: leaseEnds,
        current_step: 1,
        outputs: JSON.stringify([
          { position: 0, name: 'Draft the plan', output: 'PLAN-FROM-CRASHED-WORKER' },
        ]),
      })
      .where('id', '=', id)
      .execute();
    const worker = await newInstance();
    const req2 = requester(worker.app);
    await new Promise((r) => setTimeout(r, 500));
    const held = (
      await req2({ method: 'GET', url: `/api/flow-runs/${id}/timeline`, token: ceo.token })
    ).json();
    expect(held.status).toBe('running');
    expect(held.timeline.map((e: RunEventJson) => e.type)).toEqual(['flow_start']);
    // Time passes: the crashed worker's lease runs out.
    const expiry = new Date(Date.now() + 300).toISOString();
    await owner.ctx.db.updateTable('runs').set({ lease_expires_at: expiry }).where('id', '=', id).execute();
    const deadline = Date.now() + 10_000;
    let status = '';
    while (Date.now() < deadline) {
      status = (await req2({ method: 'GET', url: `/api/flow-runs/${id}`, token: ceo.token })).json().status;
      if (status === 'paused') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe('paused');
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(expiry));
    await req2({
      method: 'POST',
      url: `/api/flow-runs/${id}/continue`,
      token: ceo.token,
      body: { user_input: 'yes' },
    });
    const run = await waitForStatus(req2, ceo.token, 'flow', id, ['completed', 'failed']);
    expect(run.status).toBe('completed');
    const timeline = (
      await req2({ method: 'GET', url: `/api/flow-runs/${id}/timeline`, token: ceo.token })
    ).json().timeline as RunEventJson[];
    // Step 1 was never run by the new worker; step 3 built on the stored outputs.
    expect(timeline.filter((e) => e.type === 'step_start').map((e) => e.details?.position)).toEqual([1, 2]);
    expect(String(run.result)).toMatch(
      /^Your answer to “Approval” was “yes”, so the plan stands as drafted\./,
    );
  });
});
