import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSuite, createTestApp, TEST_DB, type TestApp, type TestUser } from '../../test/helpers.ts';
import { nextVersion, STALE_VERSION_DETAIL } from './concurrency.ts';

type Obj = Record<string, unknown>;

describe('nextVersion', () => {
  it('is now, or 1 ms past the previous version when the clock has not moved past it', () => {
    const now = new Date('2026-11-24T10:00:00.000Z');
    expect(nextVersion('2026-11-24T09:00:00.000Z', now)).toBe('2026-11-24T10:00:00.000Z');
    expect(nextVersion('2026-11-24T10:00:00.000Z', now)).toBe('2026-11-24T10:00:00.001Z');
    expect(nextVersion('2026-11-24T10:00:05.000Z', now)).toBe('2026-11-24T10:00:05.001Z');
  });
});

apiSuite('optimistic concurrency: ETag on reads, If-Match on writes', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createUser('ceo');
    stranger = await t.createUser('ceo');
  });
  afterAll(() => t.close());

  const send = (method: string, url: string, u: TestUser, body?: unknown, ifMatch?: string) =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: { authorization: `Bearer ${u.token}`, ...(ifMatch ? { 'if-match': ifMatch } : {}) },
      ...(body !== undefined ? { payload: body as object } : {}),
    });

  /** Each domain: how to create a record, where it lives, how to write it, and one field to change. */
  const domains: Record<
    string,
    {
      create: [string, Obj];
      url: (id: string) => string;
      method: 'PUT' | 'PATCH';
      field: string;
      body: (v: string) => Obj;
    }
  > = {
    goals: {
      create: ['/api/strategic-goals', { title: 'Grow', due_date: '2027-03-01' }],
      url: (id) => `/api/strategic-goals/${id}`,
      method: 'PUT',
      field: 'title',
      body: (v) => ({ title: v, due_date: '2027-03-01' }),
    },
    tasks: {
      create: ['/api/tasks', { title: 'Call' }],
      url: (id) => `/api/tasks/${id}`,
      method: 'PUT',
      field: 'title',
      body: (v) => ({ title: v }),
    },
    contacts: {
      create: ['/api/contacts', { name: 'Ada' }],
      url: (id) => `/api/contacts/${id}`,
      method: 'PATCH',
      field: 'name',
      body: (v) => ({ name: v }),
    },
    notes: {
      create: ['/api/journals', { content: 'Day one' }],
      url: (id) => `/api/journals/${id}`,
      method: 'PUT',
      field: 'content',
      body: (v) => ({ content: v }),
    },
    advice: {
      create: ['/api/strategic-advice', { content: 'Focus' }],
      url: (id) => `/api/strategic-advice/${id}`,
      method: 'PUT',
      field: 'content',
      body: (v) => ({ content: v }),
    },
    agents: {
      create: ['/api/agents', { name: 'Analyst', role: 'Analyst', goal: 'Analyse' }],
      url: (id) => `/api/agents/${id}`,
      method: 'PUT',
      field: 'name',
      body: (v) => ({ name: v, role: 'Analyst', goal: 'Analyse' }),
    },
    conversations: {
      create: ['/api/conversations', { name: 'Plans' }],
      url: (id) => `/api/conversations/${id}`,
      method: 'PUT',
      field: 'name',
      body: (v) => ({ name: v }),
    },
  };

  for (const [name, d] of Object.entries(domains)) {
    it(`${name}: GET sends the version as ETag; a stale If-Match gets 412 and changes nothing`, async () => {
      const created = await send('POST', d.create[0], owner, d.create[1]);
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json().id as string;

      const read = await send('GET', d.url(id), owner);
      expect(read.statusCode).toBe(200);
      const v1 = read.headers.etag as string;
      expect(v1).toBe(`"${read.json().updated_at}"`);

      // A matching If-Match writes, and the answer carries the new version.
      const first = await send(d.method, d.url(id), owner, d.body('first edit'), v1);
      expect(first.statusCode, first.body).toBe(200);
      const v2 = first.headers.etag as string;
      expect(v2).toBe(`"${first.json().updated_at}"`);
      expect(v2).not.toBe(v1);

      // The other tab still holds v1: refused, with a detail, and the row keeps the first edit.
      const stale = await send(d.method, d.url(id), owner, d.body('second edit'), v1);
      expect(stale.statusCode).toBe(412);
      expect(stale.json()).toEqual({ detail: STALE_VERSION_DETAIL });
      const after = await send('GET', d.url(id), owner);
      expect(after.json()[d.field]).toBe('first edit');
      expect(after.headers.etag).toBe(v2);

      // A weak form of the current tag, `*`, or no If-Match at all write as before.
      expect((await send(d.method, d.url(id), owner, d.body('weak'), `W/${v2}`)).statusCode).toBe(200);
      expect((await send(d.method, d.url(id), owner, d.body('star'), '*')).statusCode).toBe(200);
      const plain = await send(d.method, d.url(id), owner, d.body('plain'));
      expect(plain.statusCode).toBe(200);
      expect(plain.json()[d.field]).toBe('plain');

      // Someone who may not see the record learns nothing from a precondition: 404, not 412.
      expect((await send(d.method, d.url(id), stranger, d.body('x'), v1)).statusCode).toBe(404);
    });
  }

  it('two writes in the same millisecond still get two versions', async () => {
    const task = (await send('POST', '/api/tasks', owner, { title: 'Fast' })).json();
    const a = await send('PUT', `/api/tasks/${task.id}`, owner, { title: 'a' });
    const b = await send('PUT', `/api/tasks/${task.id}`, owner, { title: 'b' });
    const tags = new Set([`"${task.updated_at}"`, a.headers.etag, b.headers.etag]);
    expect(tags.size).toBe(3);
  });

  it('task assignment and advice feedback honour If-Match too', async () => {
    const task = (await send('POST', '/api/tasks', owner, { title: 'Assign' })).json();
    const stale = `"${task.updated_at}"`;
    await send('PUT', `/api/tasks/${task.id}`, owner, { title: 'moved on' });
    const assign = await send(
      'PUT',
      `/api/tasks/${task.id}/assign`,
      owner,
      { assigned_to_user_id: owner.id },
      stale,
    );
    expect(assign.statusCode).toBe(412);
    expect((await send('GET', `/api/tasks/${task.id}`, owner)).json().assigned_to_user_id).toBeNull();

    const advice = (await send('POST', '/api/strategic-advice', owner, { content: 'Hire' })).json();
    await send('PUT', `/api/strategic-advice/${advice.id}`, owner, { content: 'Hire two' });
    const fb = await send(
      'PATCH',
      `/api/strategic-advice/${advice.id}/feedback`,
      owner,
      { feedback: 'ok' },
      `"${advice.updated_at}"`,
    );
    expect(fb.statusCode).toBe(412);
    expect((await send('GET', `/api/strategic-advice/${advice.id}`, owner)).json().feedback).toBeNull();
  });

  it("a contact's interaction carries its own version, and a stale If-Match on it gets 412", async () => {
    const contact = (await send('POST', '/api/contacts', owner, { name: 'Bo' })).json();
    const url = `/api/contacts/${contact.id}/past-interactions`;
    const first = (await send('POST', url, owner, { date: '2026-11-01', summary: 'Lunch' })).json()
      .past_interactions[0];
    const v1 = `"${first.updated_at}"`;
    const ok = await send(
      'PUT',
      `${url}/${first.id}`,
      owner,
      { date: '2026-11-01', summary: 'Long lunch' },
      v1,
    );
    expect(ok.statusCode, ok.body).toBe(200);
    const stale = await send(
      'PUT',
      `${url}/${first.id}`,
      owner,
      { date: '2026-11-01', summary: 'Brunch' },
      v1,
    );
    expect(stale.statusCode).toBe(412);
    const now = (await send('GET', `/api/contacts/${contact.id}`, owner)).json().past_interactions[0];
    expect(now.summary).toBe('Long lunch');
    expect(now.updated_at).not.toBe(first.updated_at);
  });

  it('a body served from the read cache carries the same ETag as a fresh one, and a new one after a write', async () => {
    const first = await send('GET', '/api/users/me', owner);
    const second = await send('GET', '/api/users/me', owner);
    if (TEST_DB === 'sqlite') expect(second.headers['x-cache']).toBe('hit');
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.headers.etag).toBe(`"${second.json().updated_at}"`);

    // A profile-only edit moves the account's version (and so its tag).
    const edit = await send('PATCH', '/api/users/me', owner, { behavior_notes: 'Prefers mornings' });
    expect(edit.statusCode, edit.body).toBe(200);
    const third = await send('GET', '/api/users/me', owner);
    expect(third.headers.etag).toBe(`"${third.json().updated_at}"`);
    expect(third.headers.etag).not.toBe(first.headers.etag);
  });
});
