import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { searchWorkspace } from './search.ts';

apiSuite('internal search', () => {
  let t: TestApp;
  let owner: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  let org: string;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createUser('ceo');
    member = await t.createUser('user');
    outsider = await t.createUser('user');
    org = await t.createOrg(owner, 'Search Co');
    await t.addToOrg(owner, org, member);
  });
  afterAll(() => t.close());

  const post = async (u: TestUser, url: string, body: Record<string, unknown>) => {
    const res = await t.req({ method: 'POST', url, token: u.token, body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string };
  };
  const search = (u: TestUser, q: string) => searchWorkspace(t.ctx, { id: u.id }, q, 20);
  const ids = async (u: TestUser, q: string) => (await search(u, q)).map((h) => `${h.type}:${h.id}`).sort();

  it('finds goals, advice, tasks, notes and contacts by title and body words, prefixes included', async () => {
    const goal = await post(owner, '/api/strategic-goals/', {
      title: 'Expand zephyrine market share',
      description: 'Win the northern region',
      due_date: '2030-01-01',
    });
    const task = await post(owner, '/api/tasks/', {
      title: 'Call the zephyrine distributor',
      priority: 'High',
    });
    const note = await post(owner, '/api/journals/', {
      content: 'Met the zephyrine board today',
      entry_date: '2026-01-02',
    });
    const contact = await post(owner, '/api/contacts/', { name: 'Zoe Zephyrine', role: 'Buyer' });
    const advice = await post(owner, '/api/strategic-advice/', {
      advice_title: 'Pricing',
      content: 'Raise zephyrine prices',
    });
    expect(await ids(owner, 'zephyr')).toEqual(
      [
        `goal:${goal.id}`,
        `task:${task.id}`,
        `note:${note.id}`,
        `contact:${contact.id}`,
        `advice:${advice.id}`,
      ].sort(),
    );
    const hit = (await search(owner, 'northern')).find((h) => h.id === goal.id);
    expect(hit).toMatchObject({ type: 'goal', title: 'Expand zephyrine market share' });
    expect(hit?.snippet).toContain('northern');
  });

  it("never returns another user's records; shared ones only to members", async () => {
    await post(outsider, '/api/tasks/', { title: 'Secret quokka plan' });
    await post(outsider, '/api/journals/', { content: 'quokka diary' });
    expect(await ids(owner, 'quokka')).toEqual([]);
    expect(await ids(member, 'quokka')).toEqual([]);
    expect((await ids(outsider, 'quokka')).length).toBe(2);

    const privateNote = await post(owner, '/api/journals/', { content: 'private wombat thoughts' });
    const sharedGoal = await post(owner, '/api/strategic-goals/', {
      title: 'Wombat expansion',
      due_date: '2030-01-01',
      organization_id: org,
    });
    expect(await ids(member, 'wombat')).toEqual([`goal:${sharedGoal.id}`]);
    expect(await ids(owner, 'wombat')).toEqual([`goal:${sharedGoal.id}`, `note:${privateNote.id}`].sort());
  });

  it('follows edits and deletes', async () => {
    const task = await post(owner, '/api/tasks/', { title: 'Draft the capybara memo' });
    expect(await ids(owner, 'capybara')).toEqual([`task:${task.id}`]);
    const put = await t.req({
      method: 'PUT',
      url: `/api/tasks/${task.id}`,
      token: owner.token,
      body: { title: 'Draft the axolotl memo' },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(await ids(owner, 'capybara')).toEqual([]);
    expect(await ids(owner, 'axolotl')).toEqual([`task:${task.id}`]);
    const del = await t.req({ method: 'DELETE', url: `/api/tasks/${task.id}`, token: owner.token });
    expect(del.statusCode).toBe(204);
    expect(await ids(owner, 'axolotl')).toEqual([]);
  });

  it('treats query syntax as plain words', async () => {
    expect(await search(owner, '" OR * NEAR( -- \' ; drop')).toEqual([]);
    expect(await search(owner, '   ')).toEqual([]);
  });
});
