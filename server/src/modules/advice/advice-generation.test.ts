import { ADVICE_GENERATION_STARTED, type TAdviceGeneration } from '@cc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { loadWorkspaceSnapshot } from '../../ai/context/workspace-snapshot.ts';
import { settleAdviceGenerations, userChannel } from './advice-generation.service.ts';

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

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
    // Due in 30 days: a year-long plan is ~92% through, so 20% progress lags and 95% does not.
    expect(
      (
        await goal(ceo, {
          title: 'Expand to Europe',
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

  const start = (u: TestUser | undefined, body: unknown) =>
    t.req({ method: 'POST', url: '/api/flow/run/strategic_flow', token: u?.token, body });
  const status = async (u: TestUser, id: string) =>
    t.req({ method: 'GET', url: `/api/flow/runs/${id}`, token: u.token });

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

  it('starts at once with a run id and writes advice naming the lagging KPI, then announces it', async () => {
    const heard: Record<string, unknown>[] = [];
    const off = t.ctx.bus.subscribe(userChannel(ceo.id), (p) => heard.push(p));
    const res = await start(ceo, { inputs: { user_id: ceo.id } });
    expect(res.statusCode, res.body).toBe(202);
    const run: TAdviceGeneration = res.json();
    expect(run).toMatchObject({ status: 'running', message: ADVICE_GENERATION_STARTED, user_id: ceo.id });
    expect(run.flow_run_id).toBe(run.id);

    await settleAdviceGenerations(t.ctx);
    const done = (await status(ceo, run.id)).json();
    expect(done).toMatchObject({ status: 'completed', error: null });
    expect(typeof done.advice_id).toBe('string');
    off();
    expect(heard).toContainEqual({
      kind: 'advice',
      run_id: run.id,
      status: 'completed',
      advice_id: done.advice_id,
    });

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
  });

  it('defaults to the caller when user_id is missing', async () => {
    for (const body of [{ inputs: {} }, {}, undefined]) {
      const res = await start(member, body);
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json().user_id).toBe(member.id);
    }
    await settleAdviceGenerations(t.ctx);
  });

  it('user_id must be the caller (403), unless admin (any existing user; unknown 404)', async () => {
    const other = await start(member, { inputs: { user_id: ceo.id } });
    expect(other.statusCode).toBe(403);
    expect(typeof other.json().detail).toBe('string');
    const byAdmin = await start(admin, { inputs: { user_id: ceo.id } });
    expect(byAdmin.statusCode).toBe(202);
    expect(byAdmin.json().user_id).toBe(ceo.id);
    expect((await start(admin, { inputs: { user_id: 'no-such-user' } })).statusCode).toBe(404);
    await settleAdviceGenerations(t.ctx);
    // The advice belongs to the user it was generated for.
    const adviceId = (await status(admin, byAdmin.json().id)).json().advice_id;
    const got = await t.req({ method: 'GET', url: `/api/strategic-advice/${adviceId}`, token: ceo.token });
    expect(got.json().user_id).toBe(ceo.id);
  });

  it('runs are visible to their user and requester only; anonymous 401, waitlisted 403', async () => {
    const run = (await start(ceo, { inputs: { user_id: ceo.id } })).json();
    expect((await status(outsider, run.id)).statusCode).toBe(404);
    expect((await status(member, run.id)).statusCode).toBe(404);
    expect((await status(ceo, run.id)).statusCode).toBe(200);
    expect((await status(ceo, 'missing')).statusCode).toBe(404);
    expect((await start(undefined, { inputs: {} })).statusCode).toBe(401);
    expect((await start(waitlisted, { inputs: {} })).statusCode).toBe(403);
    expect(
      (await t.req({ method: 'GET', url: `/api/flow/runs/${run.id}`, token: waitlisted.token })).statusCode,
    ).toBe(403);
    await settleAdviceGenerations(t.ctx);
  });

  it('refuses a malformed body with 422', async () => {
    const res = await start(ceo, { inputs: { user_id: 42 } });
    expect(res.statusCode).toBe(422);
  });
});
