import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { renderedAgain as renderedAgainIn, storedEntry } from '../../../test/list-entries.ts';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { expectListsFresh } from '../../../test/fresh-lists.ts';
import { rendererOf } from './contacts.list-entry.ts';

interface Contact {
  id: string;
  name: string;
  emails: string[];
  is_user: boolean;
  linked_user_id: string | null;
  created_by_user: { id: string; name: string; email: string };
  shared_organizations: { id: string; name: string; is_owner: boolean }[];
  past_interactions: { summary: string }[];
  can_edit: boolean;
  can_delete: boolean;
}

/**
 * Stored contact list entries (contacts.list_json, migration 0027): written with the contact,
 * forgotten by the database when anything they show changes, completed per read with the linked app
 * user and the caller's rights, never shown stale.
 */
apiSuite('contact list entries', () => {
  let t: TestApp;
  let owner: TestUser;
  let manager: TestUser;
  let member: TestUser;
  let org: string;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createUser('ceo');
    manager = await t.createUser('user');
    member = await t.createUser('user');
    org = await t.createOrg(owner, 'Directory Co');
    await t.addToOrg(owner, org, manager, 'manager');
    await t.addToOrg(owner, org, member, 'user');
  });
  afterAll(() => t.close());
  // After each case's writes, every page equals its rows presented afresh (a stale entry would differ).
  afterEach(() => expectListsFresh(t, [owner, manager, member]));

  const stored = (id: string) => storedEntry(t.ctx.db, 'contacts', id);
  const listed = async (u: TestUser, id: string): Promise<Contact> => {
    const res = await t.req({ method: 'GET', url: '/api/contacts/?limit=100', token: u.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const found = (res.json() as Contact[]).find((c) => c.id === id);
    expect(found, `contact ${id} in the list`).toBeDefined();
    return found as Contact;
  };
  const make = async (body: Record<string, unknown>): Promise<Contact> => {
    const res = await t.req({ method: 'POST', url: '/api/contacts/', token: owner.token, body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  /** The background renderer stores the entry again after a list met it forgotten. */
  const renderedAgain = (id: string) => renderedAgainIn(t.ctx.db, 'contacts', id);

  it('stores the entry with the contact and completes it per caller', async () => {
    const c = await make({ name: 'Ada Partner', emails: ['ada@partner.example'], organization_id: org });
    const entry = JSON.parse((await stored(c.id)) as string);
    const { is_user: _u, linked_user_id: _l, can_edit: _e, can_delete: _d, ...fields } = c;
    expect(entry).toEqual(fields);
    expect(await listed(owner, c.id)).toEqual(c);
    const asManager = await listed(manager, c.id);
    expect([asManager.can_edit, asManager.can_delete]).toEqual([true, false]);
    const asMember = await listed(member, c.id);
    expect([asMember.can_edit, asMember.can_delete]).toEqual([false, false]);
  });

  it('shows a past interaction, an organization rename and an owner rename at once', async () => {
    const c = await make({ name: 'Grace Vendor', organization_id: org });
    const added = await t.req({
      method: 'POST',
      url: `/api/contacts/${c.id}/past-interactions`,
      token: owner.token,
      body: { date: '2026-11-01', summary: 'Intro call' },
    });
    expect(added.statusCode, added.body).toBe(201);
    expect(JSON.parse((await stored(c.id)) as string).past_interactions).toHaveLength(1);

    const renamed = await t.req({
      method: 'PATCH',
      url: `/api/organizations/${org}`,
      token: owner.token,
      body: { name: 'Directory Group' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await stored(c.id)).toBeNull();
    expect((await listed(member, c.id)).shared_organizations.map((o) => o.name)).toEqual(['Directory Group']);
    await renderedAgain(c.id);

    const me = await t.req({
      method: 'PATCH',
      url: '/api/users/me',
      token: owner.token,
      body: { first_name: 'Olive', last_name: 'Owner' },
    });
    expect(me.statusCode, me.body).toBe(200);
    expect(await stored(c.id)).toBeNull();
    expect((await listed(member, c.id)).created_by_user.name).toBe('Olive Owner');
    expect((await renderedAgain(c.id)).created_by_user.name).toBe('Olive Owner');
  });

  it('links the app user of a contact e-mail per read (no stored entry changes)', async () => {
    const email = `later-${Date.now()}@people.example`;
    const c = await make({ name: 'Later User', emails: [email] });
    expect((await listed(owner, c.id)).is_user).toBe(false);
    const before = await stored(c.id);
    const user = await t.createUser('user', { email });
    const now = await listed(owner, c.id);
    expect([now.is_user, now.linked_user_id]).toEqual([true, user.id]);
    expect(await stored(c.id)).toBe(before);
  });

  it('shows a share removed, a linked user deleted and a shared organization deleted at once', async () => {
    const admin = await t.createUser('admin');
    const gone = await t.createOrg(owner, 'Gone Co');
    const linked = await t.createUser('user', { email: `linked-${Date.now()}@people.example` });
    const c = await make({ name: 'Three Changes', emails: [linked.email], organization_id: org });
    const share = await t.req({
      method: 'PATCH',
      url: `/api/contacts/${c.id}`,
      token: owner.token,
      body: { shared_org_ids: [org, gone] },
    });
    expect(share.statusCode, share.body).toBe(200);
    const shared = async () => (await listed(owner, c.id)).shared_organizations.map((o) => o.id).sort();
    expect(await shared()).toEqual([org, gone].sort());
    expect((await listed(owner, c.id)).linked_user_id).toBe(linked.id);
    // Each change below is a foreign key action or a trigger's work, not a write of the contact.
    const deleted = await t.req({ method: 'DELETE', url: `/api/users/${linked.id}`, token: admin.token });
    expect(deleted.statusCode).toBe(204);
    expect((await listed(owner, c.id)).linked_user_id).toBeNull();
    const orgGone = await t.req({ method: 'DELETE', url: `/api/organizations/${gone}`, token: owner.token });
    expect(orgGone.statusCode, orgGone.body).toBeLessThan(300);
    expect(await shared()).toEqual([org]);
  });

  it("links the user of the contact's first e-mail that belongs to one, in the contact's order", async () => {
    const stamp = Date.now();
    const [first, second] = await Promise.all([
      t.createUser('user', { email: `first-${stamp}@people.example` }),
      t.createUser('user', { email: `second-${stamp}@people.example` }),
    ]);
    // The users were created first, second; the contact lists them the other way round.
    const c = await make({
      name: 'Two Accounts',
      emails: [
        `nobody-${stamp}@people.example`,
        `second-${stamp}@people.example`,
        `first-${stamp}@people.example`,
      ],
    });
    const listedNow = await listed(owner, c.id);
    expect([listedNow.is_user, listedNow.linked_user_id]).toEqual([true, second.id]);
    const one = await t.req({ method: 'GET', url: `/api/contacts/${c.id}`, token: owner.token });
    expect(one.json().linked_user_id).toBe(second.id);
    expect(first.id).not.toBe(second.id);
  });

  it('renders entries written without one, for the list and by the catch-up', async () => {
    const c = await make({ name: 'Imported Contact', organization_id: org });
    await t.ctx.db.updateTable('contacts').set({ list_json: null }).where('id', '=', c.id).execute();
    expect((await listed(member, c.id)).name).toBe('Imported Contact');
    expect((await renderedAgain(c.id)).name).toBe('Imported Contact');
    await t.ctx.db.updateTable('contacts').set({ list_json: null }).where('id', '=', c.id).execute();
    expect(await rendererOf(t.ctx).catchUp()).toBeGreaterThanOrEqual(1);
    expect(JSON.parse((await stored(c.id)) as string).shared_organizations).toHaveLength(1);
  });
});
