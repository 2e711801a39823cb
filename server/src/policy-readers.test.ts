import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../test/helpers.ts';
import { loadWorkspaceSnapshot } from './ai/context/workspace-snapshot.ts';
import { searchWorkspace } from './ai/search/search.ts';

/**
 * Every reader of a shared record applies its domain's one policy: for each caller, the REST list,
 * reading by id, the internal search and the AI workspace snapshot agree on exactly which records are
 * visible. A reader that drifts from the policy (shows a private record, or hides one reached through
 * an assignment or a share) fails here.
 */
apiSuite('one access rule per domain, every reader', () => {
  let t: TestApp;
  let owner: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  let org: string;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createUser('ceo');
    member = await t.createUser('user');
    outsider = await t.createUser('ceo');
    org = await t.createOrg(owner, 'Policy Co');
    await t.addToOrg(owner, org, member);
    await t.createOrg(outsider, 'Elsewhere');
  });
  afterAll(() => t.close());

  const post = async (u: TestUser, url: string, body: Record<string, unknown>) => {
    const res = await t.req({ method: 'POST', url, token: u.token, body });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { id: string }).id;
  };
  const listIds = async (u: TestUser, url: string) => {
    const res = await t.req({ method: 'GET', url, token: u.token });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { id: string }[]).map((r) => r.id).sort();
  };
  const searchIds = async (u: TestUser, word: string, type: string) =>
    (await searchWorkspace(t.ctx, { id: u.id }, word, 20))
      .filter((h) => h.type === type)
      .map((h) => h.id)
      .sort();
  const readableIds = async (u: TestUser, base: string, ids: string[]) => {
    const out: string[] = [];
    for (const id of ids) {
      const res = await t.req({ method: 'GET', url: `${base}${id}`, token: u.token });
      expect([200, 404], res.body).toContain(res.statusCode);
      if (res.statusCode === 200) out.push(id);
    }
    return out.sort();
  };

  it('tasks: creator, assignee and members of the shared organizations, in every reader', async () => {
    const own = await post(owner, '/api/tasks/', { title: 'Pangolin private plan' });
    const assigned = await post(owner, '/api/tasks/', {
      title: 'Pangolin assigned work',
      assigned_to_user_id: member.id,
    });
    const shared = await post(owner, '/api/tasks/', { title: 'Pangolin shared work', shared_org_ids: [org] });
    const foreign = await post(outsider, '/api/tasks/', { title: 'Pangolin foreign work' });
    const all = [own, assigned, shared, foreign];
    const expected = new Map([
      [owner, [own, assigned, shared].sort()],
      [member, [assigned, shared].sort()],
      [outsider, [foreign]],
    ]);
    for (const [u, ids] of expected) {
      expect(await listIds(u, '/api/tasks/?include_completed=true')).toEqual(ids);
      expect(await readableIds(u, '/api/tasks/', all)).toEqual(ids);
      expect(await searchIds(u, 'pangolin', 'task')).toEqual(ids);
      const snapshot = await loadWorkspaceSnapshot(t.ctx, u.id);
      expect(snapshot.open_tasks.map((x) => x.id).sort()).toEqual(ids);
    }
  });

  it('goals: the owner and the members of the goal organization, in every reader', async () => {
    const body = (title: string) => ({ title, due_date: '2031-01-01' });
    const own = await post(owner, '/api/strategic-goals/', body('Narwhal own goal'));
    const ofOrg = await post(owner, '/api/strategic-goals/', {
      ...body('Narwhal org goal'),
      organization_id: org,
    });
    const foreign = await post(outsider, '/api/strategic-goals/', body('Narwhal foreign goal'));
    const all = [own, ofOrg, foreign];
    const expected = new Map([
      [owner, [own, ofOrg].sort()],
      [member, [ofOrg]],
      [outsider, [foreign]],
    ]);
    for (const [u, ids] of expected) {
      expect(await listIds(u, '/api/strategic-goals/?include_completed=true')).toEqual(ids);
      expect(await readableIds(u, '/api/strategic-goals/', all)).toEqual(ids);
      expect(await searchIds(u, 'narwhal', 'goal')).toEqual(ids);
      const snapshot = await loadWorkspaceSnapshot(t.ctx, u.id);
      expect(snapshot.goals.map((x) => x.id).sort()).toEqual(ids);
    }
  });

  it('contacts and advice: the owner and the members of the shared organizations', async () => {
    const own = await post(owner, '/api/contacts/', { name: 'Okapi Own' });
    const shared = await post(owner, '/api/contacts/', { name: 'Okapi Shared', shared_org_ids: [org] });
    const foreign = await post(outsider, '/api/contacts/', { name: 'Okapi Foreign' });
    const advOwn = await post(owner, '/api/strategic-advice/', { content: 'Okapi advice, own' });
    const advOrg = await post(owner, '/api/strategic-advice/', {
      content: 'Okapi advice',
      organization_id: org,
    });
    const expected = new Map([
      [owner, { contacts: [own, shared].sort(), advice: [advOwn, advOrg].sort() }],
      [member, { contacts: [shared], advice: [advOrg] }],
      [outsider, { contacts: [foreign], advice: [] }],
    ]);
    for (const [u, ids] of expected) {
      expect(await listIds(u, '/api/contacts/?search=okapi')).toEqual(ids.contacts);
      expect(await readableIds(u, '/api/contacts/', [own, shared, foreign])).toEqual(ids.contacts);
      expect(await searchIds(u, 'okapi', 'contact')).toEqual(ids.contacts);
      expect(await listIds(u, '/api/strategic-advice/')).toEqual(ids.advice);
      expect(await searchIds(u, 'okapi', 'advice')).toEqual(ids.advice);
    }
  });
});
