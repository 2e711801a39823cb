import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp } from '../../../test/helpers.ts';
import { commsIdle } from '../../modules/comms/comms.messages.ts';
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
    // High tasks only (spec §2): the seed's Urgent task is not among them.
    expect((await get('/api/tasks/urgent?limit=3')).map((x: { priority: string }) => x.priority)).toEqual([
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

  it('the demo colleagues answer the CEO with their scripted lines after 800-2000 ms (spec §2)', async () => {
    const token = await t.login('ceo@demo.example', 'demo-password-1');
    const threads = (await t.req({ method: 'GET', url: '/api/comms/threads', token })).json();
    const [org] = (await t.req({ method: 'GET', url: '/api/organizations', token })).json();
    const people = (await t.req({ method: 'GET', url: `/api/organizations/${org.id}/users`, token })).json();
    const james = people.find((p: { email: string }) => p.email === 'james@demo.example');
    expect(james).toBeDefined();
    const opened = await t.req({
      method: 'POST',
      url: '/api/comms/threads',
      token,
      body: { participant_ids: [james.user_id] },
    });
    expect(opened.statusCode, opened.body).toBe(201);
    const sofiaThread = threads.find((th: { participants: { name: string }[] }) =>
      th.participants.some((p) => p.name === 'Sofia Rossi'),
    );
    expect(sofiaThread).toBeDefined();
    for (const [id, line] of [
      [sofiaThread.id, 'The Helix renewal looks solid; they asked about a multi-year discount.'],
      [opened.json().id, 'Got it. The platform migration is on track for the end of the month.'],
    ]) {
      const sent = await t.req({
        method: 'POST',
        url: `/api/comms/threads/${id}/messages`,
        token,
        body: { text: 'Any news?' },
      });
      expect(sent.statusCode, sent.body).toBe(201);
      let last: { text: string; sender_id: string } | undefined;
      const started = Date.now();
      while (Date.now() - started < 4000) {
        await new Promise((r) => setTimeout(r, 100));
        const list = (await t.req({ method: 'GET', url: `/api/comms/threads/${id}/messages`, token })).json();
        last = list.at(-1);
        if (last?.text === line) break;
      }
      expect(last?.text).toBe(line);
    }
    await commsIdle(t.ctx);
  });
});
