import {
  NO_NEW_SUGGESTIONS,
  REJECTION_REASON_REQUIRED,
  SUGGESTION_NOT_PENDING,
  TASK_SUGGESTIONS_CEO_ONLY,
  type TTaskSuggestion,
} from '@cc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, TEST_DB, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { expectIndexedPlan, sqlitePlan } from '../../../test/query-plan.ts';
import { listPendingQuery } from './task-suggestions.repository.ts';

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

apiSuite('task suggestions (offline engine)', () => {
  let t: TestApp;
  let ceo: TestUser;
  let member: TestUser;
  let admin: TestUser;
  let plain: TestUser;
  let waitlisted: TestUser;
  let otherCeo: TestUser;
  let org: string;

  const post = (u: TestUser | undefined, url: string, body?: unknown) =>
    t.req({ method: 'POST', url, token: u?.token, body });
  const get = (u: TestUser | undefined, url: string) => t.req({ method: 'GET', url, token: u?.token });
  const generate = async (u: TestUser) => {
    const res = await post(u, '/api/task-suggestions/generate');
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { suggestions: TTaskSuggestion[]; message: string };
  };
  const pending = async (u: TestUser): Promise<TTaskSuggestion[]> => {
    const res = await get(u, '/api/task-suggestions/');
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const bySource = (list: TTaskSuggestion[], type: string) => list.filter((s) => s.source_type === type);

  beforeAll(async () => {
    t = await createTestApp();
    ceo = await t.createUser('ceo');
    member = await t.createUser('user');
    admin = await t.createUser('admin');
    plain = await t.createUser('user');
    waitlisted = await t.createUser('waitlisted');
    otherCeo = await t.createUser('ceo');
    org = await t.createOrg(ceo, 'Suggest Co');
    await t.addToOrg(ceo, org, member, 'user');
    const goal = async (body: Record<string, unknown>) => {
      const res = await post(ceo, '/api/strategic-goals/', body);
      expect(res.statusCode, res.body).toBe(201);
    };
    // A year-long plan due in 30 days: ~92% has passed, so both low KPIs lag; the third is on pace.
    await goal({
      title: 'Expand to Europe',
      start_date: day(-335),
      due_date: day(30),
      organization_id: org,
      kpis: [
        { name: 'EU customers signed', current_value: 1, target_value: 5 },
        { name: 'Key hires', current_value: 2, target_value: 6 },
        { name: 'Office readiness', current_value: 99, target_value: 100 },
      ],
    });
    await goal({ title: 'Ship the partner portal', due_date: day(-20), status: 'in_progress' });
    await goal({ title: 'Finished goal', due_date: day(-20), status: 'done' });
    const task = async (body: Record<string, unknown>) => {
      const res = await post(ceo, '/api/tasks/', body);
      expect(res.statusCode, res.body).toBe(201);
    };
    await task({ title: 'Draft hiring plan', priority: 'High' });
    await task({ title: 'Assigned already', assigned_to_user_id: member.id });
    await task({ title: 'Closed unassigned', status: 'Done' });
    // An open task with the title of the "Key hires" suggestion: that one must not be suggested.
    await task({ title: 'Close the Key hires gap on “Expand to Europe”', assigned_to_user_id: ceo.id });
  });
  afterAll(() => t.close());

  let first: TTaskSuggestion[] = [];

  it('generates from lagging KPIs, overdue goals and unassigned work, each with llm_context', async () => {
    const res = await generate(ceo);
    first = res.suggestions;
    expect(res.message).toBe('3 new suggestions');
    expect(first.map((s) => s.title).sort()).toEqual(
      [
        'Close the EU customers signed gap on “Expand to Europe”',
        'Find an owner for “Draft hiring plan”',
        'Re-plan the overdue goal “Ship the partner portal”',
      ].sort(),
    );
    for (const s of first) {
      expect(s.status).toBe('pending');
      expect(s.llm_context).toBeTruthy();
      expect(s.rejection_reason).toBeNull();
      expect(s.source_id).toBeTruthy();
    }
    const [kpi] = bySource(first, 'kpi');
    expect(kpi.llm_context).toContain('EU customers signed');
    expect(kpi.llm_context).toContain('20%');
    expect(kpi).toMatchObject({ organization_id: org, assignee_user_id: ceo.id });
    expect(bySource(first, 'goal')[0]).toMatchObject({ priority: 'Urgent' });
    expect(bySource(first, 'task')[0].llm_context).toContain('not assigned');
    expect((await pending(ceo)).map((s) => s.id).sort()).toEqual(first.map((s) => s.id).sort());
  });

  it('does not repeat pending suggestions: "No new suggestions"', async () => {
    expect(await generate(ceo)).toEqual({ suggestions: [], message: NO_NEW_SUGGESTIONS });
    expect(await pending(ceo)).toHaveLength(3);
  });

  it('suggestions are private to their ceo', async () => {
    expect(await pending(otherCeo)).toEqual([]);
    const id = first[0].id;
    expect((await post(otherCeo, `/api/task-suggestions/${id}/reject`, { reason: 'x' })).statusCode).toBe(
      404,
    );
    const approve = await post(otherCeo, '/api/task-suggestions/approve', [{ id, title: 'Mine now' }]);
    expect(approve.statusCode).toBe(404);
  });

  it('rejecting needs a non-blank reason (422 with the message)', async () => {
    const id = bySource(first, 'goal')[0].id;
    for (const body of [{ reason: '' }, { reason: '   ' }, {}]) {
      const res = await post(ceo, `/api/task-suggestions/${id}/reject`, body);
      expect(res.statusCode).toBe(422);
      expect(res.json().detail[0]).toMatchObject({ loc: ['body', 'reason'], msg: REJECTION_REASON_REQUIRED });
    }
    const res = await post(ceo, `/api/task-suggestions/${id}/reject`, {
      reason: '  Already handled offline ',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id, status: 'rejected', rejection_reason: 'Already handled offline' });
    expect((await pending(ceo)).map((s) => s.id)).not.toContain(id);
    const again = await post(ceo, `/api/task-suggestions/${id}/reject`, { reason: 'twice' });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe(SUGGESTION_NOT_PENDING);
  });

  it('approving edited suggestions creates the tasks (all or none)', async () => {
    const kpi = bySource(first, 'kpi')[0];
    const rejected = bySource(first, 'goal')[0];
    // One refused item (already rejected) means no task at all.
    const refused = await post(ceo, '/api/task-suggestions/approve', [
      { id: kpi.id, title: 'Edited title' },
      { id: rejected.id, title: rejected.title },
    ]);
    expect(refused.statusCode).toBe(409);
    const before = (await get(ceo, '/api/tasks/?search=Edited')).json();
    expect(before).toEqual([]);
    expect((await pending(ceo)).map((s) => s.id)).toContain(kpi.id);

    const res = await post(ceo, '/api/task-suggestions/approve', {
      suggestions: [
        {
          ...kpi,
          title: '  Win two EU design partners ',
          description: 'Edited in review',
          priority: 'urgent',
          due_date: day(10),
          assignee_user_id: member.id,
        },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const { tasks, message } = res.json();
    expect(message).toBe('1 task created');
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({
      title: 'Win two EU design partners',
      description: 'Edited in review',
      priority: 'Urgent',
      due_date: day(10),
      assigned_to_user_id: member.id,
      status: 'To Do',
      created_by: ceo.id,
      shared_org_ids: [org],
    });
    // The assignee sees the task; the suggestion left the list.
    const seen = (await get(member, '/api/tasks/')).json() as { id: string }[];
    expect(seen.map((x) => x.id)).toContain(tasks[0].id);
    expect((await pending(ceo)).map((s) => s.id)).not.toContain(kpi.id);
  });

  it('an assignee outside the ceo organizations is refused and nothing is created', async () => {
    const task = bySource(first, 'task')[0];
    const res = await post(ceo, '/api/task-suggestions/approve', [
      { id: task.id, title: task.title, assignee_user_id: plain.id },
    ]);
    // The tasks service's own assignment rule refuses it.
    expect([400, 403]).toContain(res.statusCode);
    expect((await pending(ceo)).map((s) => s.id)).toContain(task.id);
  });

  it('approved and rejected suggestions are never suggested again', async () => {
    expect(await generate(ceo)).toEqual({ suggestions: [], message: NO_NEW_SUGGESTIONS });
    // Even after the approved task is done, and with the rejected goal still overdue.
    const tasks = (await get(ceo, '/api/tasks/?search=Win two')).json() as { id: string }[];
    await t.req({
      method: 'PUT',
      url: `/api/tasks/${tasks[0].id}`,
      token: ceo.token,
      body: { status: 'Done' },
    });
    expect((await generate(ceo)).message).toBe(NO_NEW_SUGGESTIONS);
    // New work is suggested.
    await post(ceo, '/api/tasks/', { title: 'Book the offsite venue' });
    const next = await generate(ceo);
    expect(next.suggestions.map((s) => s.title)).toEqual(['Find an owner for “Book the offsite venue”']);
  });

  it('validates the approve body', async () => {
    const id = bySource(first, 'task')[0].id;
    expect((await post(ceo, '/api/task-suggestions/approve', [])).statusCode).toBe(422);
    expect((await post(ceo, '/api/task-suggestions/approve', [{ id, title: '  ' }])).statusCode).toBe(422);
    expect(
      (await post(ceo, '/api/task-suggestions/approve', [{ id, title: 'x', user_level: 'admin' }]))
        .statusCode,
    ).toBe(422);
    expect(
      (await post(ceo, '/api/task-suggestions/approve', [{ id: 'missing', title: 'x' }])).statusCode,
    ).toBe(404);
  });

  it('permission matrix: ceo only; other levels 403, waitlisted 403, anonymous 401', async () => {
    const id = bySource(first, 'task')[0].id;
    const calls: [string, (u?: TestUser) => ReturnType<typeof get>][] = [
      ['list', (u) => get(u, '/api/task-suggestions/')],
      ['generate', (u) => post(u, '/api/task-suggestions/generate')],
      ['approve', (u) => post(u, '/api/task-suggestions/approve', [{ id, title: 'x' }])],
      ['reject', (u) => post(u, `/api/task-suggestions/${id}/reject`, { reason: 'no' })],
    ];
    for (const [name, call] of calls) {
      for (const u of [member, admin, plain]) {
        const res = await call(u);
        expect(res.statusCode, `${name} as ${u.user_level}`).toBe(403);
        expect(res.json().detail).toBe(TASK_SUGGESTIONS_CEO_ONLY);
      }
      expect((await call(waitlisted)).statusCode, `${name} waitlisted`).toBe(403);
      expect((await call(undefined)).statusCode, `${name} anonymous`).toBe(401);
    }
    expect((await pending(ceo)).map((s) => s.id)).toContain(id);
  });

  it.skipIf(TEST_DB === 'postgres')('the pending list query is served by an index', async () => {
    expectIndexedPlan(
      await sqlitePlan(t.ctx.db, listPendingQuery(t.ctx.db, ceo.id, 100)),
      'task_suggestions',
    );
  });
});
