import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp } from '../../../test/helpers.ts';
import { knownDemoCredentials, seedIfEmpty } from './demo.ts';

apiSuite('demo workspace seed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ DEMO_SEED: 'true', DEMO_PASSWORD: 'demo-password-1' });
  });
  afterAll(() => t.close());

  it('seeds an empty database once, with sign-in details for every demo role', async () => {
    const first = await seedIfEmpty(t.ctx);
    expect(first.kind).toBe('demo');
    expect(first.credentials.map((c) => c.level).sort()).toEqual(['admin', 'ceo', 'user', 'user']);
    expect((await seedIfEmpty(t.ctx)).kind).toBe('none');
    expect(await knownDemoCredentials(t.ctx)).toHaveLength(4);
  });

  it('gives the demo CEO a live workspace: organization, goals with progress, tasks, notes, contacts, advice', async () => {
    const token = await t.login('ceo@demo.example', 'demo-password-1');
    const get = async (url: string) => {
      const r = await t.req({ method: 'GET', url, token });
      expect(r.statusCode, url).toBe(200);
      return r.json();
    };
    const orgs = await get('/api/organizations');
    expect(orgs.map((o: { name: string }) => o.name)).toEqual(['Northwind Ventures']);
    expect(orgs[0].member_count).toBe(6); // four people and the two scripted Comms colleagues
    const goals = await get('/api/strategic-goals/');
    expect(goals.length).toBe(3);
    expect(goals.every((g: { progress: number }) => g.progress > 0 && g.progress <= 100)).toBe(true);
    expect((await get('/api/tasks/')).length).toBe(5); // the Done task is hidden by default
    expect((await get('/api/tasks/urgent?limit=3')).map((x: { priority: string }) => x.priority)).toEqual([
      'Urgent',
      'High',
      'High',
    ]);
    expect((await get('/api/journals/')).length).toBe(3);
    const contacts = await get('/api/contacts/');
    expect(contacts.length).toBe(3);
    expect(contacts.find((c: { name: string }) => c.name === 'Maya Patel').is_user).toBe(true);
    expect((await get('/api/strategic-advice/')).length).toBe(1);
  });

  it('the demo members are accounts the organization manages (not the platform admin), with no invitation', async () => {
    const token = await t.login('ceo@demo.example', 'demo-password-1');
    const [org] = (await t.req({ method: 'GET', url: '/api/organizations', token })).json();
    const members = (await t.req({ method: 'GET', url: `/api/organizations/${org.id}/users`, token })).json();
    const editable = Object.fromEntries(
      members.map((m: { email: string; can_edit_account: boolean }) => [m.email, m.can_edit_account]),
    );
    expect(editable).toMatchObject({
      'maya@demo.example': true,
      'leo@demo.example': true,
      'admin@demo.example': false,
      'ceo@demo.example': false,
    });
    expect(members.every((m: { is_invite: boolean }) => !m.is_invite)).toBe(true);
  });

  it('a team member sees shared work but not the CEO’s private notes', async () => {
    const token = await t.login('maya@demo.example', 'demo-password-1');
    const tasks = (await t.req({ method: 'GET', url: '/api/tasks/', token })).json();
    expect(tasks.length).toBeGreaterThan(0);
    expect((await t.req({ method: 'GET', url: '/api/journals/', token })).json()).toEqual([]);
  });
});
