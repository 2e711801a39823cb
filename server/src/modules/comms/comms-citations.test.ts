import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { commsIdle } from './comms.messages.ts';

interface Citation {
  type: string;
  id: string;
  title: string;
  url: string;
}

/** Issue 20 §3: a reply suggestion cites the thread and the contact record it was drafted from. */
apiSuite('comms reply suggestions cite their records', () => {
  let t: TestApp;
  let ceo: TestUser;
  let maya: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    ceo = await t.createUser('ceo', { first_name: 'Olivia' });
    maya = await t.createUser('user', { first_name: 'Maya' });
    const org = await t.createOrg(ceo, 'Cite Co');
    await t.addToOrg(ceo, org, maya, 'user');
  });
  afterAll(() => t.close());

  const thread = async () => {
    const res = await t.req({
      method: 'POST',
      url: '/api/comms/threads',
      token: ceo.token,
      body: { participant_ids: [maya.id] },
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json() as { id: string; name: string };
  };
  const mayaSays = async (threadId: string, text: string) => {
    const res = await t.req({
      method: 'POST',
      url: `/api/comms/threads/${threadId}/messages`,
      token: maya.token,
      body: { text },
    });
    expect(res.statusCode, res.body).toBe(201);
    await commsIdle(t.ctx);
  };
  const citations = async (threadId: string): Promise<Citation[]> => {
    const res = await t.req({
      method: 'GET',
      url: `/api/comms/threads/${threadId}/suggestion`,
      token: ceo.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().suggestion?.status).toBe('ready');
    return res.json().suggestion.citations;
  };

  it('cites the thread, and the contact record once the recipient has one; a deleted contact is no longer cited', async () => {
    const th = await thread();
    await mayaSays(th.id, 'Can we move the budget review to Friday?');
    expect(await citations(th.id)).toEqual([
      { type: 'thread', id: th.id, title: th.name, url: `/app/comms?thread=${th.id}` },
    ]);

    const contact = await t.req({
      method: 'POST',
      url: '/api/contacts/',
      token: ceo.token,
      body: { name: 'Maya Patel', emails: [maya.email], notes: 'Runs the budget.' },
    });
    expect(contact.statusCode, contact.body).toBe(201);
    const contactId = contact.json().id as string;
    await mayaSays(th.id, 'And bring the Q3 numbers, please.');
    expect(await citations(th.id)).toEqual([
      { type: 'thread', id: th.id, title: th.name, url: `/app/comms?thread=${th.id}` },
      { type: 'contact', id: contactId, title: 'Maya Patel', url: `/app/contacts?contact=${contactId}` },
    ]);

    expect(
      (await t.req({ method: 'DELETE', url: `/api/contacts/${contactId}`, token: ceo.token })).statusCode,
    ).toBe(204);
    expect((await citations(th.id)).map((c) => c.type)).toEqual(['thread']);
  });
});
