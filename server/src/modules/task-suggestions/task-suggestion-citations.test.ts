import type { TTaskSuggestion } from '@cc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** Issue 20 §3: a task suggestion cites the record it came from, only while its reader may see it. */
apiSuite('task suggestions cite their source', () => {
  let t: TestApp;
  let ceo: TestUser;
  let rival: TestUser; // another tenant
  let goalId: string;
  let overdueId: string;
  let taskId: string;
  let rivalGoal: string;

  const post = (u: TestUser, url: string, body?: unknown) =>
    t.req({ method: 'POST', url, token: u.token, body });
  const pending = async (): Promise<TTaskSuggestion[]> =>
    (await t.req({ method: 'GET', url: '/api/task-suggestions/', token: ceo.token })).json();

  beforeAll(async () => {
    t = await createTestApp();
    ceo = await t.createUser('ceo');
    rival = await t.createUser('ceo');
    const goal = async (u: TestUser, body: Record<string, unknown>) => {
      const res = await post(u, '/api/strategic-goals/', body);
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as string;
    };
    goalId = await goal(ceo, {
      title: 'Expand to Europe',
      start_date: day(-335),
      due_date: day(30),
      kpis: [{ name: 'EU customers signed', current_value: 1, target_value: 5 }],
    });
    overdueId = await goal(ceo, {
      title: 'Ship the partner portal',
      due_date: day(-20),
      status: 'in_progress',
    });
    const task = await post(ceo, '/api/tasks/', { title: 'Draft hiring plan', priority: 'High' });
    taskId = task.json().id;
    rivalGoal = await goal(rival, { title: 'Rival secret plan', due_date: day(-5) });
  });
  afterAll(() => t.close());

  it('each suggestion cites its goal (a KPI cites its goal) or task, with where to open it', async () => {
    const res = await post(ceo, '/api/task-suggestions/generate');
    expect(res.statusCode, res.body).toBe(200);
    const made = res.json().suggestions as TTaskSuggestion[];
    const of = (type: string) => made.find((s) => s.source_type === type)?.citations;
    expect(of('kpi')).toEqual([
      { type: 'goal', id: goalId, title: 'Expand to Europe', url: `/app/strategy?goal=${goalId}` },
    ]);
    expect(of('goal')).toEqual([
      {
        type: 'goal',
        id: overdueId,
        title: 'Ship the partner portal',
        url: `/app/strategy?goal=${overdueId}`,
      },
    ]);
    expect(of('task')).toEqual([
      { type: 'task', id: taskId, title: 'Draft hiring plan', url: `/app/my-tasks?task=${taskId}` },
    ]);
    const listed = await pending();
    expect(listed.find((s) => s.source_type === 'task')?.citations).toEqual(of('task'));
  });

  it('never cites a record the reader cannot see: another tenant’s goal, or a task deleted since', async () => {
    // A suggestion row naming the other tenant's goal (as a model might): listed, but not cited.
    const row = await t.ctx.db
      .selectFrom('task_suggestions')
      .selectAll()
      .where('user_id', '=', ceo.id)
      .where('source_type', '=', 'goal')
      .executeTakeFirstOrThrow();
    await t.ctx.db
      .insertInto('task_suggestions')
      .values({
        ...row,
        id: 'foreign-source',
        title: 'Copy the rival',
        title_key: 'copy the rival',
        source_id: rivalGoal,
        source_key: `goal:${rivalGoal}`,
      })
      .execute();
    expect(
      (await t.req({ method: 'DELETE', url: `/api/tasks/${taskId}`, token: ceo.token })).statusCode,
    ).toBe(204);

    const listed = await pending();
    expect(listed.find((s) => s.id === 'foreign-source')?.citations).toEqual([]);
    expect(listed.find((s) => s.source_type === 'task')?.citations).toEqual([]);
    expect(listed.find((s) => s.source_type === 'kpi')?.citations).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain('Rival secret plan');
  });
});
