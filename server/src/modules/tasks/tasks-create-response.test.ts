import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';

/**
 * POST /api/tasks/ answers with the task built from what it wrote (no read-back; the creator is the
 * caller and the assignee comes from the assignability check). Its answer must be exactly what a read
 * of the task gives, whatever the task carries.
 */
apiSuite('tasks: the created task as answered equals a fresh read', () => {
  let t: TestApp;
  let ceo: TestUser;
  let member: TestUser;
  let orgA: string;
  let goalId: string;
  beforeAll(async () => {
    t = await createTestApp();
    ceo = await t.createUser('ceo', { first_name: 'Olivia' });
    member = await t.createUser('user', { first_name: 'Ben' });
    orgA = await t.createOrg(ceo, 'Create Co');
    await t.addToOrg(ceo, orgA, member, 'user');
    const goal = await t.req({
      method: 'POST',
      url: '/api/strategic-goals/',
      token: ceo.token,
      body: { title: 'Grow', due_date: '2027-01-01', organization_id: orgA },
    });
    expect(goal.statusCode, goal.body).toBe(201);
    goalId = goal.json().id;
  });
  afterAll(() => t.close());

  const createAndRead = async (u: TestUser, body: Record<string, unknown>) => {
    const created = await t.req({ method: 'POST', url: '/api/tasks/', token: u.token, body });
    expect(created.statusCode, created.body).toBe(201);
    const read = await t.req({ method: 'GET', url: `/api/tasks/${created.json().id}`, token: u.token });
    expect(read.statusCode, read.body).toBe(200);
    return { created: created.json(), read: read.json() };
  };

  const cases: [string, Record<string, unknown>][] = [
    ['the defaults', {}],
    ['every text field', { description: 'Board deck — “final”', notes: 'ünïcödé ✓', due_date: '2026-12-01' }],
    ['assigned to the caller', { assigned_to_user_id: 'self' }],
    ['assigned to a member', { assigned_to_user_id: 'member' }],
    ['shared with the organization', { shared_org_ids: 'orgA', priority: 'urgent', status: 'In Progress' }],
    ['linked to a goal', { goal_id: 'goal' }],
  ];
  it.each(cases)('%s', async (_name, raw) => {
    const body: Record<string, unknown> = { title: '  Prepare the deck ', ...raw };
    if (raw.assigned_to_user_id === 'self') body.assigned_to_user_id = ceo.id;
    if (raw.assigned_to_user_id === 'member') body.assigned_to_user_id = member.id;
    if (raw.shared_org_ids) body.shared_org_ids = [orgA];
    if (raw.goal_id) body.goal_id = goalId;
    const { created, read } = await createAndRead(ceo, body);
    expect(created).toEqual(read);
    if (raw.assigned_to_user_id === 'member') expect(created.assigned_to_user.name).toContain('Ben');
  });

  it('names the creator as they are now, after a rename', async () => {
    const renamed = await t.req({
      method: 'PATCH',
      url: '/api/users/me',
      token: member.token,
      body: { first_name: 'Benedict' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const { created, read } = await createAndRead(member, { title: 'After the rename' });
    expect(created).toEqual(read);
    expect(created.created_by_user.name).toContain('Benedict');
  });
});
