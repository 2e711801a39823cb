import { ADVICE_GENERATION_PAUSED, ADVICE_GENERATION_STARTED, type TAdviceGeneration } from '@cc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { loadWorkspaceSnapshot } from '../../ai/context/workspace-snapshot.ts';
import { day, type ProviderWorkspace, startProviderWorkspace } from './advice-test-kit.ts';

type Req = TestApp['req'];
const startAdvice = (req: Req, u: TestUser | undefined, body: unknown) =>
  req({ method: 'POST', url: '/api/flow/run/strategic_flow', token: u?.token, body });
const adviceRun = (req: Req, u: TestUser, id: string) =>
  req({ method: 'GET', url: `/api/flow/runs/${id}`, token: u.token });

/** Follows GET /api/flow/runs/{id} (as the dashboard does) until the run has ended. */
async function waitForAdvice(req: Req, u: TestUser, id: string): Promise<TAdviceGeneration> {
  const deadline = Date.now() + 15_000;
  let last: TAdviceGeneration | undefined;
  while (Date.now() < deadline) {
    const res = await adviceRun(req, u, id);
    expect(res.statusCode, res.body).toBe(200);
    last = res.json() as TAdviceGeneration;
    if (last.status === 'completed' || last.status === 'failed') return last;
    await new Promise((r) => setTimeout(r, 40));
  }
  throw new Error(`advice run ${id} is still ${last?.status}`);
}

apiSuite('Generate Advice (strategic_flow) on the offline engine', () => {
  let t: TestApp;
  let ceo: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  let admin: TestUser;
  let waitlisted: TestUser;
  let org: string;

  beforeAll(async () => {
    t = await createTestApp();
    ceo = await t.createUser('ceo');
    member = await t.createUser('user');
    outsider = await t.createUser('user');
    admin = await t.createUser('admin');
    waitlisted = await t.createUser('waitlisted');
    org = await t.createOrg(ceo, 'Advice Gen Co');
    await t.addToOrg(ceo, org, member, 'user');
    const goal = (u: TestUser, body: Record<string, unknown>) =>
      t.req({ method: 'POST', url: '/api/strategic-goals/', token: u.token, body });
    // A year-long plan due in 30 days is ~92% through, so 20% progress lags and 95% does not.
    expect(
      (
        await goal(ceo, {
          title: 'Expand to Europe',
          start_date: day(-335),
          due_date: day(30),
          status: 'in_progress',
          organization_id: org,
          kpis: [
            { name: 'EU customers signed', current_value: 1, target_value: 5, unit: 'customers' },
            { name: 'Office readiness', current_value: 95, target_value: 100, unit: '%' },
          ],
        })
      ).statusCode,
    ).toBe(201);
    await goal(ceo, {
      title: 'Ship the partner portal',
      due_date: day(-10),
      status: 'in_progress',
      kpis: [{ name: 'Portal features live', current_value: 3, target_value: 4 }],
    });
    // The outsider's goal must never reach the ceo's advice.
    await goal(outsider, {
      title: 'Secret outsider goal',
      due_date: day(-5),
      kpis: [{ name: 'Outsider KPI', current_value: 0, target_value: 10 }],
    });
    await t.req({
      method: 'POST',
      url: '/api/tasks/',
      token: ceo.token,
      body: { title: 'Prepare the board deck', priority: 'High', due_date: day(-2) },
    });
    await t.req({
      method: 'POST',
      url: '/api/journals/',
      token: outsider.token,
      body: { content: 'Private outsider note', entry_date: day(0) },
    });
  });
  afterAll(() => t.close());

  const start = (u: TestUser | undefined, body: unknown) => startAdvice(t.req, u, body);
  const status = (u: TestUser, id: string) => adviceRun(t.req, u, id);

  it('the snapshot holds only what the user may see, with the lagging KPI and overdue items', async () => {
    const s = await loadWorkspaceSnapshot(t.ctx, ceo.id);
    expect(s.lagging_kpis.map((k) => k.title)).toContain('EU customers signed');
    expect(s.lagging_kpis.map((k) => k.title)).not.toContain('Office readiness');
    expect(s.lagging_kpis[0]).toMatchObject({ type: 'kpi', title: 'EU customers signed', progress: 20 });
    expect(s.overdue_goals.map((g) => g.title)).toEqual(['Ship the partner portal']);
    expect(s.overdue_tasks.map((x) => x.title)).toEqual(['Prepare the board deck']);
    expect(s.unassigned_tasks.map((x) => x.title)).toEqual(['Prepare the board deck']);
    expect(JSON.stringify(s)).not.toContain('Secret outsider goal');
    expect(JSON.stringify(s)).not.toContain('Private outsider note');
    // The member sees the organization's goal but not the ceo's private goal or tasks.
    const m = await loadWorkspaceSnapshot(t.ctx, member.id);
    expect(m.goals.map((g) => g.title)).toEqual(['Expand to Europe']);
    expect(m.open_tasks).toEqual([]);
  });

  it('starts at once (202) as a strategic_flow run of the engine, which writes advice naming the lagging KPI', async () => {
    const res = await start(ceo, { inputs: { user_id: ceo.id } });
    expect(res.statusCode, res.body).toBe(202);
    const run: TAdviceGeneration = res.json();
    expect(run).toMatchObject({
      flow: 'strategic_flow',
      status: 'running',
      message: ADVICE_GENERATION_STARTED,
      user_id: ceo.id,
      advice_id: null,
      error: null,
      finished_at: null,
    });
    expect(run.flow_run_id).toBe(run.id);

    const done = await waitForAdvice(t.req, ceo, run.id);
    expect(done).toMatchObject({ id: run.id, status: 'completed', error: null, message: 'Advice generated' });
    expect(typeof done.advice_id).toBe('string');
    expect(done.finished_at).toBeTruthy();

    const latest = await t.req({ method: 'GET', url: '/api/strategic-advice/?limit=1', token: ceo.token });
    const [advice] = latest.json();
    expect(advice.id).toBe(done.advice_id);
    expect(advice).toMatchObject({ user_id: ceo.id, crew_run_id: run.id, can_edit: true });
    expect(advice.advice_title).toBe('Close the gap on EU customers signed');
    expect(advice.content).toContain('**EU customers signed**');
    expect(advice.content).toContain('Offline engine');
    expect(advice.content).toContain('Goal “Ship the partner portal”');
    expect(advice.content).toContain('Task “Prepare the board deck”');
    expect(advice.content).not.toContain('Secret outsider goal');
    expect(advice.content).not.toContain('Office readiness**');

    // One code path: the same run is an ordinary flow run, with the advice step in its timeline.
    const flowRun = await t.req({ method: 'GET', url: `/api/flow-runs/${run.id}`, token: ceo.token });
    expect(flowRun.statusCode, flowRun.body).toBe(200);
    expect(flowRun.json()).toMatchObject({ status: 'completed' });
    const timeline = await t.req({
      method: 'GET',
      url: `/api/flow-runs/${run.id}/timeline`,
      token: ceo.token,
    });
    const saved = (
      timeline.json().timeline as { type: string; details: Record<string, unknown> | null }[]
    ).find((e) => e.type === 'log' && e.details?.advice_id);
    expect(saved?.details?.advice_id).toBe(done.advice_id);
  });

  it('defaults to the caller when user_id is missing', async () => {
    for (const body of [{ inputs: {} }, {}, undefined, { inputs: { user_id: null } }]) {
      const res = await start(member, body);
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json().user_id).toBe(member.id);
      expect((await waitForAdvice(t.req, member, res.json().id)).status).toBe('completed');
    }
  });

  it('user_id must be the caller: another user is 403, an admin included', async () => {
    for (const [caller, target] of [
      [member, ceo],
      [admin, ceo],
      [admin, { id: 'no-such-user' }],
    ] as const) {
      const res = await start(caller, { inputs: { user_id: target.id } });
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().detail).toBe('You can only generate advice for yourself.');
    }
    const own = await start(admin, { inputs: { user_id: admin.id } });
    expect(own.statusCode, own.body).toBe(202);
    const done = await waitForAdvice(t.req, admin, own.json().id);
    const got = await t.req({
      method: 'GET',
      url: `/api/strategic-advice/${done.advice_id}`,
      token: admin.token,
    });
    expect(got.json().user_id).toBe(admin.id);
  });

  it("another user's run is 404; anonymous 401, waitlisted 403", async () => {
    const run = (await start(ceo, { inputs: { user_id: ceo.id } })).json();
    for (const u of [outsider, member, admin]) {
      const res = await status(u, run.id);
      expect(res.statusCode).toBe(404);
      expect(res.json().detail).toBe('Run not found');
    }
    expect((await status(ceo, run.id)).statusCode).toBe(200);
    expect((await status(ceo, 'missing')).statusCode).toBe(404);
    expect((await start(undefined, { inputs: {} })).statusCode).toBe(401);
    expect((await t.req({ method: 'GET', url: `/api/flow/runs/${run.id}` })).statusCode).toBe(401);
    expect((await start(waitlisted, { inputs: {} })).statusCode).toBe(403);
    expect((await status(waitlisted, run.id)).statusCode).toBe(403);
    await waitForAdvice(t.req, ceo, run.id);
  });

  it("its status is the flow run's own (paused is not reported as running)", async () => {
    const res = await start(ceo, { inputs: {} });
    const done = await waitForAdvice(t.req, ceo, res.json().id);
    // A flow run that waits for a person (the run row's status, as the engine writes it).
    await t.ctx.db.updateTable('runs').set({ status: 'paused' }).where('id', '=', done.id).execute();
    const paused = await status(ceo, done.id);
    expect(paused.statusCode).toBe(200);
    expect(paused.json()).toMatchObject({ status: 'paused', message: ADVICE_GENERATION_PAUSED });
    await t.ctx.db.updateTable('runs').set({ status: 'running' }).where('id', '=', done.id).execute();
    expect((await status(ceo, done.id)).json()).toMatchObject({
      status: 'running',
      message: ADVICE_GENERATION_STARTED,
    });
  });

  it('GET /api/flow/runs/{id} reads only strategic flow runs: a crew run is 404', async () => {
    const crews = (await t.req({ method: 'GET', url: '/api/crews/', token: ceo.token })).json() as {
      id: string;
    }[];
    const crewRun = await t.req({
      method: 'POST',
      url: '/api/crew-runs/',
      token: ceo.token,
      body: { crew_id: crews[0].id, inputs: { initial_goal: 'Grow' } },
    });
    expect(crewRun.statusCode, crewRun.body).toBe(201);
    const id = crewRun.json().crew_run_id as string;
    expect((await status(ceo, id)).statusCode).toBe(404);
    await t.req({ method: 'POST', url: `/api/crew-runs/${id}/stop`, token: ceo.token });
  });

  it('refuses a malformed body with 422', async () => {
    const res = await start(ceo, { inputs: { user_id: 42 } });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail[0]).toMatchObject({ loc: ['body', 'inputs', 'user_id'] });
  });
});

// The same route through a real provider (the mock OpenAI-compatible server): the model gets the
// workspace snapshot in its prompt and its markdown becomes the advice.
apiSuite('Generate Advice through an OpenAI-compatible provider', () => {
  let w: ProviderWorkspace;
  beforeAll(async () => {
    w = await startProviderWorkspace({ AI_MAX_RETRIES: '0' });
  });
  afterAll(() => w.close());

  it('the model gets the snapshot and its markdown becomes the advice (title from the heading)', async () => {
    const calls = w.mock.chatRequests().length;
    // The flow's first step (the analyst's review), then its advice step.
    w.mock.script(
      { kind: 'text', chunks: ['Review: the DACH pipeline gap is the main risk.'] },
      { kind: 'text', chunks: ['# Win EU customers\n\n', 'Focus on **EU customers**: 20% vs 92% expected.'] },
    );
    const res = await startAdvice(w.t.req, w.ceo, { inputs: { user_id: w.ceo.id } });
    expect(res.statusCode, res.body).toBe(202);
    const done = await waitForAdvice(w.t.req, w.ceo, res.json().id);
    expect(done.status, JSON.stringify(done)).toBe('completed');
    const advice = (
      await w.t.req({ method: 'GET', url: `/api/strategic-advice/${done.advice_id}`, token: w.ceo.token })
    ).json();
    expect(advice).toMatchObject({
      advice_title: 'Win EU customers',
      content: 'Focus on **EU customers**: 20% vs 92% expected.',
      crew_run_id: done.id,
    });
    expect(w.mock.chatRequests().length - calls).toBe(2);
    const prompt = JSON.stringify(w.mock.chatRequests().at(-1)?.body);
    expect(prompt).toContain('EU customers');
    expect(prompt).toContain('lagging_kpis');
    // The advice step builds on the review step's output.
    expect(prompt).toContain('the DACH pipeline gap is the main risk');
  });

  it('a provider failure fails the run with its error, and writes no advice', async () => {
    const before = (
      await w.t.req({ method: 'GET', url: '/api/strategic-advice/', token: w.ceo.token })
    ).json().length;
    const calls = w.mock.chatRequests().length;
    // The review step answers; the advice step fails (AI_MAX_RETRIES=0: no retry).
    w.mock.script(
      { kind: 'text', chunks: ['Review: the DACH pipeline gap is the main risk.'] },
      { kind: 'status', status: 500, message: 'upstream broke' },
    );
    const res = await startAdvice(w.t.req, w.ceo, { inputs: {} });
    expect(res.statusCode, res.body).toBe(202);
    const done = await waitForAdvice(w.t.req, w.ceo, res.json().id);
    expect(done).toMatchObject({ status: 'failed', advice_id: null });
    expect(done.error).toContain('upstream broke');
    expect(done.message).toBe(done.error);
    expect(w.mock.chatRequests().length - calls).toBe(2);
    expect(
      (await w.t.req({ method: 'GET', url: '/api/strategic-advice/', token: w.ceo.token })).json(),
    ).toHaveLength(before);
  });
});
