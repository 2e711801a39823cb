import type { TAdvice } from '@cc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { generateStrategicAdvice } from './advice-generation.service.ts';
import { day } from './advice-test-kit.ts';

/** Issue 20 §3: generated advice cites the records it names; each reader sees only those they may see. */
apiSuite('generated advice cites its records, per reader', () => {
  let t: TestApp;
  let ceo: TestUser;
  let member: TestUser; // a plain member of the ceo's organization
  let outsider: TestUser; // another tenant
  let org: string;
  let orgGoal: string;
  let privateTask: string;

  beforeAll(async () => {
    t = await createTestApp();
    ceo = await t.createUser('ceo');
    member = await t.createUser('user');
    outsider = await t.createUser('ceo');
    org = await t.createOrg(ceo, 'Advice Cite Co');
    await t.createOrg(outsider, 'Elsewhere');
    await t.addToOrg(ceo, org, member, 'user');
    const goal = await t.req({
      method: 'POST',
      url: '/api/strategic-goals/',
      token: ceo.token,
      body: {
        title: 'Expand to Europe',
        start_date: day(-335),
        due_date: day(30),
        organization_id: org,
        kpis: [{ name: 'EU customers signed', current_value: 1, target_value: 5 }],
      },
    });
    orgGoal = goal.json().id;
    // The ceo's own task, shared with no one: overdue, so the advice names it.
    const task = await t.req({
      method: 'POST',
      url: '/api/tasks/',
      token: ceo.token,
      body: { title: 'Prepare the board deck', priority: 'High', due_date: day(-3) },
    });
    privateTask = task.json().id;
  });
  afterAll(() => t.close());

  const get = async (u: TestUser, id: string) =>
    t.req({ method: 'GET', url: `/api/strategic-advice/${id}`, token: u.token });

  it('its author sees every record it names; an organization member only those they may see', async () => {
    const row = await generateStrategicAdvice(t.ctx, ceo.id, {
      meter: { userId: ceo.id, organizationId: null, feature: 'advice' },
    });
    const mine = (await get(ceo, row.id)).json() as TAdvice;
    expect(mine.citations).toEqual(
      expect.arrayContaining([
        { type: 'goal', id: orgGoal, title: 'Expand to Europe', url: `/app/strategy?goal=${orgGoal}` },
        {
          type: 'task',
          id: privateTask,
          title: 'Prepare the board deck',
          url: `/app/my-tasks?task=${privateTask}`,
        },
      ]),
    );
    for (const c of mine.citations) expect(row.content).toContain(c.title);

    // Filed under the organization, the member reads it: the goal is cited, the ceo's own task is not.
    const filed = await t.req({
      method: 'PUT',
      url: `/api/strategic-advice/${row.id}`,
      token: ceo.token,
      body: { content: row.content, organization_id: org },
    });
    expect(filed.statusCode, filed.body).toBe(200);
    const theirs = (await get(member, row.id)).json() as TAdvice;
    expect(theirs.citations.map((c) => c.id)).toContain(orgGoal);
    expect(theirs.citations.map((c) => c.id)).not.toContain(privateTask);
    const listed = await t.req({ method: 'GET', url: '/api/strategic-advice/', token: member.token });
    const inList = (listed.json() as TAdvice[]).find((a) => a.id === row.id);
    expect(inList?.citations).toEqual(theirs.citations);
    expect((await get(outsider, row.id)).statusCode).toBe(404);
  });

  it('advice written by hand cites nothing', async () => {
    const res = await t.req({
      method: 'POST',
      url: '/api/strategic-advice/',
      token: ceo.token,
      body: { content: 'Focus' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().citations).toEqual([]);
  });
});
