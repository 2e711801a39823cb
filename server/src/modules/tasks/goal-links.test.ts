import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { expectListsFresh } from '../../../test/fresh-lists.ts';

interface Task {
  id: string;
  title: string;
  goal_id: string | null;
}

/** Tasks linked to strategic goals (issue 20 §1): the link obeys the goal's visibility. */
apiSuite('tasks linked to goals', () => {
  let t: TestApp;
  let ceo: TestUser; // owns org A
  let member: TestUser; // plain member of A
  let outsider: TestUser; // another tenant
  let orgA: string;
  let orgGoal: string; // the ceo's goal in org A: the member sees it
  let privateGoal: string; // the ceo's goal outside any organization
  let foreignGoal: string; // the outsider's goal

  beforeAll(async () => {
    t = await createTestApp();
    ceo = await t.createUser('ceo');
    member = await t.createUser('user');
    outsider = await t.createUser('ceo');
    orgA = await t.createOrg(ceo, 'Link Co');
    await t.addToOrg(ceo, orgA, member, 'user');
    orgGoal = await goal(ceo, orgA);
    privateGoal = await goal(ceo, null);
    foreignGoal = await goal(outsider, null);
  });
  afterAll(() => t.close());
  // After each case's writes, every list page equals its rows presented afresh (stored entries).
  afterEach(() => expectListsFresh(t, [ceo, member, outsider], { include_completed: 'true' }));

  const goal = async (u: TestUser, organization_id: string | null) => {
    const res = await t.req({
      method: 'POST',
      url: '/api/strategic-goals/',
      token: u.token,
      body: { title: 'G', due_date: '2027-01-01', organization_id },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };
  const create = (u: TestUser, body: Record<string, unknown>) =>
    t.req({ method: 'POST', url: '/api/tasks/', token: u.token, body });
  const make = async (u: TestUser, body: Record<string, unknown>): Promise<Task> => {
    const res = await create(u, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const put = (u: TestUser, id: string, body: Record<string, unknown>) =>
    t.req({ method: 'PUT', url: `/api/tasks/${id}`, token: u.token, body });
  const goalTasks = (u: TestUser, goalId: string) =>
    t.req({ method: 'GET', url: `/api/strategic-goals/${goalId}/tasks`, token: u.token });

  it('links a task to a goal the caller sees; any other goal id is the same 422', async () => {
    const task = await make(member, { title: 'Call the bank', goal_id: orgGoal });
    expect(task.goal_id).toBe(orgGoal);
    const got = await t.req({ method: 'GET', url: `/api/tasks/${task.id}`, token: member.token });
    expect(got.json().goal_id).toBe(orgGoal);
    expect((await make(member, { title: 'No goal' })).goal_id).toBeNull();

    for (const goal_id of [privateGoal, foreignGoal, 'no-such-goal']) {
      const res = await create(member, { title: 'x', goal_id });
      expect(res.statusCode).toBe(422);
      expect(res.json().detail).toEqual([
        { loc: ['body', 'goal_id'], msg: 'Goal not found', type: 'value_error' },
      ]);
    }
  });

  it('PUT links, relinks and unlinks with the same rule; editing needs can_edit', async () => {
    const task = await make(ceo, { title: 'Plan', shared_org_ids: [orgA] });
    const linked = await put(ceo, task.id, { goal_id: privateGoal });
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json().goal_id).toBe(privateGoal);
    const foreign = await put(ceo, task.id, { goal_id: foreignGoal });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().detail[0].loc).toEqual(['body', 'goal_id']);
    // A plain member sees the shared task but may not edit it.
    expect((await put(member, task.id, { goal_id: orgGoal })).statusCode).toBe(403);
    const unlinked = await put(ceo, task.id, { goal_id: null });
    expect(unlinked.json().goal_id).toBeNull();
  });

  it('the goal lists its open and recently done tasks, only those the caller may see; outsiders 404', async () => {
    const orgGoal = await goal(ceo, orgA); // a goal no other test links to
    const later = await make(ceo, {
      title: 'Later',
      due_date: '2027-02-01',
      goal_id: orgGoal,
      shared_org_ids: [orgA],
    });
    const sooner = await make(ceo, {
      title: 'Sooner',
      due_date: '2027-01-10',
      goal_id: orgGoal,
      shared_org_ids: [orgA],
    });
    const undated = await make(member, { title: 'Undated', goal_id: orgGoal });
    const done = await make(member, { title: 'Shipped', goal_id: orgGoal, status: 'Done' });
    const oldDone = await make(member, { title: 'Long ago', goal_id: orgGoal, status: 'Done' });
    await t.ctx.db
      .updateTable('tasks')
      .set({ updated_at: '2020-01-01T00:00:00.000Z' })
      .where('id', '=', oldDone.id)
      .execute();
    await make(member, { title: 'Dropped', goal_id: orgGoal, status: 'Cancelled' });
    const privateToCeo = await make(ceo, { title: 'Ceo only', goal_id: orgGoal });
    await make(ceo, { title: 'Other goal', goal_id: privateGoal });

    const asMember = await goalTasks(member, orgGoal);
    expect(asMember.statusCode, asMember.body).toBe(200);
    const titles = (ts: Task[]) => ts.map((x) => x.title);
    expect(titles(asMember.json().open)).toEqual([sooner.title, later.title, undated.title]);
    expect(titles(asMember.json().done)).toEqual([done.title]);

    const asCeo = (await goalTasks(ceo, orgGoal)).json();
    expect(titles(asCeo.open)).toContain(privateToCeo.title);
    expect(titles(asCeo.open)).not.toContain(undated.title); // the member's own task, not shared

    for (const res of [await goalTasks(outsider, orgGoal), await goalTasks(member, privateGoal)]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().detail).toBe('Goal not found');
    }
  });

  it('deleting the goal leaves its tasks, unlinked', async () => {
    const goal = (
      await t.req({
        method: 'POST',
        url: '/api/strategic-goals/',
        token: ceo.token,
        body: { title: 'Short-lived', due_date: '2027-01-01' },
      })
    ).json().id;
    const task = await make(ceo, { title: 'Survivor', goal_id: goal });
    expect(
      (await t.req({ method: 'DELETE', url: `/api/strategic-goals/${goal}`, token: ceo.token })).statusCode,
    ).toBe(204);
    const got = await t.req({ method: 'GET', url: `/api/tasks/${task.id}`, token: ceo.token });
    expect(got.statusCode).toBe(200);
    expect(got.json().goal_id).toBeNull();
  });
});
