import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, TEST_DB, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { expectListsFresh } from '../../../test/fresh-lists.ts';
import {
  expectIndexedPlan,
  expectMergedIndexBranches,
  sqlitePlan,
  sqlitePlanTree,
} from '../../../test/query-plan.ts';
import { assignableUsersQuery, listContactsQuery } from './contacts.repository.ts';

interface Contact {
  id: string;
  name: string;
  role: string | null;
  avatar_initial: string;
  emails: string[];
  phones: string[];
  notes: string | null;
  organization_id: string | null;
  user_id: string;
  is_user: boolean;
  linked_user_id: string | null;
  shared_org_ids: string[];
  shared_organizations: { id: string; name: string; is_owner: boolean }[];
  past_interactions: { id: string; date: string; summary: string; notes: string | null }[];
  can_edit: boolean;
  can_delete: boolean;
}

apiSuite('contacts', () => {
  let t: TestApp;
  let ceo: TestUser; // org A admin
  let member: TestUser; // plain member of A
  let manager: TestUser; // manager of A
  let outsider: TestUser; // org B
  let waitlisted: TestUser;
  let orgA: string;
  let orgB: string;
  beforeAll(async () => {
    t = await createTestApp();
    ceo = await t.createUser('ceo', { first_name: 'Olivia' });
    member = await t.createUser('user', { first_name: 'Ben' });
    manager = await t.createUser('user', { first_name: 'Mia' });
    outsider = await t.createUser('ceo');
    waitlisted = await t.createUser('waitlisted');
    orgA = await t.createOrg(ceo, 'Contact Co');
    orgB = await t.createOrg(outsider, 'Other Co');
    await t.addToOrg(ceo, orgA, member, 'user');
    await t.addToOrg(ceo, orgA, manager, 'manager');
  });
  afterAll(() => t.close());
  // After each case's writes, every list page equals its rows presented afresh (stored entries).
  afterEach(() => expectListsFresh(t, [ceo, member, manager, outsider], { include_completed: 'true' }));

  const create = (u: TestUser | undefined, body: Record<string, unknown>) =>
    t.req({ method: 'POST', url: '/api/contacts/', token: u?.token, body });
  const make = async (u: TestUser, body: Record<string, unknown> = {}): Promise<Contact> => {
    const res = await create(u, { name: 'Ada Lovelace', ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const patch = (u: TestUser | undefined, id: string, body: Record<string, unknown>) =>
    t.req({ method: 'PATCH', url: `/api/contacts/${id}`, token: u?.token, body });
  const list = async (u: TestUser, qs = ''): Promise<Contact[]> => {
    const res = await t.req({ method: 'GET', url: `/api/contacts/${qs}`, token: u.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it('creates a contact, cleaning its lists, with the owner, shares and app-user link', async () => {
    const res = await create(ceo, {
      name: '  grace Hopper ',
      role: '  Admiral ',
      emails: ['', `  ${member.email.toUpperCase()} `, 'grace@navy.example', '   '],
      phones: [' ', '+1 555 0100 '],
      notes: '   ',
      organization_id: orgA,
      user_id: outsider.id,
    });
    expect(res.statusCode).toBe(201);
    const c: Contact = res.json();
    expect(c).toMatchObject({
      name: 'grace Hopper',
      role: 'Admiral',
      avatar_initial: 'G',
      emails: [member.email, 'grace@navy.example'],
      phones: ['+1 555 0100'],
      notes: null,
      organization_id: orgA,
      user_id: ceo.id,
      is_user: true,
      linked_user_id: member.id,
      created_by_user: { id: ceo.id, name: 'Olivia Tester', email: ceo.email },
      shared_org_ids: [orgA],
      shared_organizations: [{ id: orgA, name: 'Contact Co', is_owner: true }],
      past_interactions: [],
      can_edit: true,
      can_delete: true,
    });
    const plain = await make(ceo, { name: 'Outside Person', emails: ['nobody@elsewhere.example'] });
    expect(plain).toMatchObject({
      is_user: false,
      linked_user_id: null,
      organization_id: null,
      shared_org_ids: [],
      role: null,
      emails: ['nobody@elsewhere.example'],
      phones: [],
    });
    const got = await t.req({ method: 'GET', url: `/api/contacts/${c.id}`, token: member.token });
    expect(got.json()).toEqual({ ...c, can_edit: false, can_delete: false });
  });

  it('validates with the spec messages and refuses foreign organizations', async () => {
    for (const body of [{}, { name: '' }, { name: '   ' }]) {
      const res = await create(ceo, body);
      expect(res.statusCode).toBe(422);
      expect(res.json().detail[0]).toMatchObject({ loc: ['body', 'name'], msg: 'Name is required.' });
    }
    const email = await create(ceo, { name: 'x', emails: ['not-an-email'] });
    expect(email.json().detail[0].msg).toBe('Invalid email address');
    expect((await create(ceo, { name: 'x', organization_id: orgB })).statusCode).toBe(403);
    const share = await create(ceo, { name: 'x', shared_org_ids: [orgA, orgB] });
    expect(share.statusCode).toBe(403);
    expect(share.json().detail).toBe('You can only share with organizations you belong to.');
    expect((await create(ceo, { name: 'x', is_user: true })).statusCode).toBe(422);
    const c = await make(ceo);
    const blank = await patch(ceo, c.id, { name: ' ' });
    expect(blank.json().detail[0].msg).toBe('Name is required.');
  });

  it('PATCH changes only the fields sent; the owner changes sharing', async () => {
    const c = await make(ceo, {
      role: 'CFO',
      emails: ['ada@example.com'],
      phones: ['1'],
      notes: 'Met at summit',
    });
    const res = await patch(ceo, c.id, { notes: 'Prefers e-mail', name: 'Zed Ada' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      notes: 'Prefers e-mail',
      name: 'Zed Ada',
      avatar_initial: 'Z',
      role: 'CFO',
      emails: ['ada@example.com'],
      phones: ['1'],
    });
    const cleared = await patch(ceo, c.id, { notes: ' ', role: '', emails: [''], phones: [] });
    expect(cleared.json()).toMatchObject({ notes: null, role: null, emails: [], phones: [] });
    const shared = await patch(ceo, c.id, { shared_org_ids: [orgA] });
    expect(shared.json().shared_organizations).toEqual([{ id: orgA, name: 'Contact Co', is_owner: false }]);
    expect(
      (await t.req({ method: 'GET', url: `/api/contacts/${c.id}`, token: member.token })).statusCode,
    ).toBe(200);
    const owned = await patch(ceo, c.id, { organization_id: orgA, shared_org_ids: [] });
    // the contact's own organization always stays shared
    expect(owned.json()).toMatchObject({ organization_id: orgA, shared_org_ids: [orgA] });
    expect(owned.json().shared_organizations[0].is_owner).toBe(true);
    const unshared = await patch(ceo, c.id, { organization_id: null, shared_org_ids: [] });
    expect(unshared.json()).toMatchObject({ organization_id: null, shared_org_ids: [] });
    expect(
      (await t.req({ method: 'GET', url: `/api/contacts/${c.id}`, token: member.token })).statusCode,
    ).toBe(404);
  });

  it('permission matrix: owner all; org admin/manager edit; members read; outsiders 404; waitlisted 403', async () => {
    type Codes = [number, number, number, number]; // GET, PATCH, add interaction, DELETE
    const rows: [string, TestUser | undefined, Codes][] = [
      ['owner', member, [200, 200, 201, 204]],
      ['org manager', manager, [200, 200, 201, 403]],
      ['org admin', ceo, [200, 200, 201, 403]],
      ['outsider', outsider, [404, 404, 404, 404]],
      ['waitlisted', waitlisted, [403, 403, 403, 403]],
      ['anonymous', undefined, [401, 401, 401, 401]],
    ];
    for (const [who, u, [get, upd, add, del]] of rows) {
      const c = await make(member, { name: 'Shared', notes: 'original', shared_org_ids: [orgA] });
      const url = `/api/contacts/${c.id}`;
      expect((await t.req({ method: 'GET', url, token: u?.token })).statusCode, `GET ${who}`).toBe(get);
      expect((await patch(u, c.id, { notes: 'changed' })).statusCode, `PATCH ${who}`).toBe(upd);
      const i = await t.req({
        method: 'POST',
        url: `${url}/past-interactions`,
        token: u?.token,
        body: { date: '2026-01-02', summary: 'Call' },
      });
      expect(i.statusCode, `interaction ${who}`).toBe(add);
      expect((await t.req({ method: 'DELETE', url, token: u?.token })).statusCode, `DELETE ${who}`).toBe(del);
      const row = await t.ctx.db
        .selectFrom('contacts')
        .select('notes')
        .where('id', '=', c.id)
        .executeTakeFirst();
      if (del === 204) expect(row, who).toBeUndefined();
      else expect(row?.notes, who).toBe(upd === 200 ? 'changed' : 'original');
    }
    // a plain member of the shared organization reads only
    const c = await make(ceo, { name: 'Read only', shared_org_ids: [orgA] });
    const asMember = (await list(member)).find((x) => x.id === c.id);
    expect(asMember).toMatchObject({ can_edit: false, can_delete: false });
    expect((await patch(member, c.id, { notes: 'x' })).statusCode).toBe(403);
    expect(
      (
        await t.req({
          method: 'POST',
          url: `/api/contacts/${c.id}/past-interactions`,
          token: member.token,
          body: { date: '2026-01-01', summary: 'x' },
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await t.req({ method: 'DELETE', url: `/api/contacts/${c.id}`, token: member.token })).statusCode,
    ).toBe(403);
  });

  it('only the owner changes sharing; an editor may send the same set back', async () => {
    const c = await make(ceo, { name: 'Owned', shared_org_ids: [orgA] });
    const widen = await patch(manager, c.id, { shared_org_ids: [] });
    expect(widen.statusCode).toBe(403);
    expect(widen.json().detail).toBe('Only the owner can change who this contact is shared with.');
    expect((await patch(manager, c.id, { organization_id: orgA })).statusCode).toBe(403);
    const echo = await patch(manager, c.id, { shared_org_ids: [orgA], notes: 'ok' });
    expect(echo.statusCode).toBe(200);
    const rows = await t.ctx.db
      .selectFrom('contact_shares')
      .select('organization_id')
      .where('contact_id', '=', c.id)
      .execute();
    expect(rows).toEqual([{ organization_id: orgA }]);
  });

  it('past interactions: required fields, newest first, edit and delete within the contact', async () => {
    const c = await make(ceo);
    const url = `/api/contacts/${c.id}/past-interactions`;
    const bad = await t.req({ method: 'POST', url, token: ceo.token, body: { date: '', summary: ' ' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail.map((d: { msg: string }) => d.msg)).toEqual([
      'Date is required.',
      'Title is required.',
    ]);
    const missing = await t.req({ method: 'POST', url, token: ceo.token, body: { notes: 'x' } });
    expect(missing.json().detail.map((d: { msg: string }) => d.msg)).toEqual([
      'Date is required.',
      'Title is required.',
    ]);
    const add = async (date: string, summary: string, notes?: string) => {
      const res = await t.req({ method: 'POST', url, token: ceo.token, body: { date, summary, notes } });
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as Contact;
    };
    await add('2026-01-05', 'Lunch', 'Talked about **funding**');
    await add('2026-03-01', 'Call');
    const after = await add('2026-02-01', 'Email', '  ');
    expect(after.past_interactions.map((i) => [i.date, i.summary, i.notes])).toEqual([
      ['2026-03-01', 'Call', null],
      ['2026-02-01', 'Email', null],
      ['2026-01-05', 'Lunch', 'Talked about **funding**'],
    ]);
    const lunch = after.past_interactions[2];
    const edit = await t.req({
      method: 'PUT',
      url: `${url}/${lunch.id}`,
      token: ceo.token,
      body: { date: '2026-04-01', summary: 'Dinner' },
    });
    expect(edit.statusCode).toBe(200);
    expect(edit.json().past_interactions[0]).toEqual({
      id: lunch.id,
      date: '2026-04-01',
      summary: 'Dinner',
      notes: 'Talked about **funding**',
      updated_at: expect.any(String),
    });
    const blank = await t.req({
      method: 'PUT',
      url: `${url}/${lunch.id}`,
      token: ceo.token,
      body: { date: '2026-04-01', summary: '' },
    });
    expect(blank.json().detail[0].msg).toBe('Title is required.');
    const other = await make(ceo, { name: 'Other' });
    const wrongContact = await t.req({
      method: 'PUT',
      url: `/api/contacts/${other.id}/past-interactions/${lunch.id}`,
      token: ceo.token,
      body: { date: '2026-04-01', summary: 'Hijack' },
    });
    expect(wrongContact.statusCode).toBe(404);
    expect(
      (
        await t.req({
          method: 'DELETE',
          url: `/api/contacts/${other.id}/past-interactions/${lunch.id}`,
          token: ceo.token,
        })
      ).statusCode,
    ).toBe(404);
    const del = await t.req({ method: 'DELETE', url: `${url}/${lunch.id}`, token: ceo.token });
    expect(del.statusCode).toBe(204);
    const now = (await t.req({ method: 'GET', url: `/api/contacts/${c.id}`, token: ceo.token })).json();
    expect(now.past_interactions.map((i: { summary: string }) => i.summary)).toEqual(['Call', 'Email']);
  });

  it('caps past interactions per contact', async () => {
    const c = await make(ceo, { name: 'Busy' });
    await t.ctx.db
      .insertInto('contact_interactions')
      .values(
        Array.from({ length: 100 }, (_, i) => ({
          id: `${c.id}-${i}`,
          contact_id: c.id,
          date: '2026-01-01',
          summary: `s${i}`,
          notes: null,
          created_at: '2026-01-01T00:00:00.000Z',
          updated_at: '2026-01-01T00:00:00.000Z',
        })),
      )
      .execute();
    const res = await t.req({
      method: 'POST',
      url: `/api/contacts/${c.id}/past-interactions`,
      token: ceo.token,
      body: { date: '2026-01-02', summary: 'one more' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe('A contact can hold at most 100 past interactions.');
  });

  it('lists own and shared contacts by name, searches name, role and any e-mail, and pages', async () => {
    const u = await t.createUser('ceo');
    const org = await t.createOrg(u, 'Directory Co');
    const peer = await t.createUser('user');
    await t.addToOrg(u, org, peer);
    const cs = {
      zoe: await make(u, { name: 'Zoe Zimmer', role: 'Investor' }),
      adam: await make(u, { name: 'adam Ant', emails: ['x@a.example', 'Deals@Fund.example'] }),
      bea: await make(peer, { name: 'Bea Shared', shared_org_ids: [org] }),
      carl: await make(peer, { name: 'Carl Private', role: 'investor relations' }),
      dan: await make(outsider, { name: 'Dan Elsewhere' }),
    };
    const names = (rows: Contact[]) =>
      rows.map((r) => Object.keys(cs).find((k) => cs[k as keyof typeof cs].id === r.id));
    expect(names(await list(u))).toEqual(['adam', 'bea', 'zoe']);
    expect(names(await list(peer))).toEqual(['bea', 'carl']);
    expect(names(await list(u, '?search=INVESTOR'))).toEqual(['zoe']);
    expect(names(await list(peer, '?search=investor'))).toEqual(['carl']);
    expect(names(await list(u, '?search=deals@fund'))).toEqual(['adam']);
    expect(names(await list(u, '?search=shared'))).toEqual(['bea']);
    expect(names(await list(u, '?skip=1&limit=1'))).toEqual(['bea']);
    expect(await list(u, '?search=elsewhere')).toEqual([]);
    expect((await t.req({ method: 'GET', url: '/api/contacts/?limit=201', token: u.token })).statusCode).toBe(
      422,
    );
    expect((await t.req({ method: 'GET', url: '/api/contacts/', token: waitlisted.token })).statusCode).toBe(
      403,
    );
  });

  it('assignable: approved members of my organizations (no invites, no waitlisted, not me), with shared orgs', async () => {
    const boss = await t.createUser('ceo', { first_name: 'Boss' });
    const o1 = await t.createOrg(boss, 'One');
    const o2 = await t.createOrg(boss, 'Two');
    const both = await t.createUser('user', { first_name: 'Both' });
    const one = await t.createUser('user', { first_name: 'Alone' });
    const wl = await t.createUser('waitlisted', { first_name: 'Waiting' });
    await t.addToOrg(boss, o1, both);
    await t.addToOrg(boss, o2, both, 'manager');
    await t.addToOrg(boss, o1, one);
    await t.addToOrg(boss, o1, wl);
    await t.req({
      method: 'POST',
      url: `/api/organizations/${o1}/users`,
      token: boss.token,
      body: { email: 'invitee@test.example' },
    });
    await t.req({ method: 'PATCH', url: '/api/users/me', token: one.token, body: { role: 'Head of Sales' } });
    const get = async (u: TestUser, qs = '') => {
      const res = await t.req({ method: 'GET', url: `/api/contacts/assignable${qs}`, token: u.token });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as {
        id: string;
        name: string;
        email: string;
        role: string | null;
        organization_ids: string[];
      }[];
    };
    const all = await get(boss);
    expect(all.map((p) => p.name)).toEqual(['Alone Tester', 'Both Tester']);
    expect(all[0]).toEqual({
      id: one.id,
      name: 'Alone Tester',
      email: one.email,
      role: 'Head of Sales',
      organization_ids: [o1],
    });
    expect([...all[1].organization_ids].sort()).toEqual([o1, o2].sort());
    expect((await get(one)).map((p) => p.name)).toEqual(['Boss Tester', 'Both Tester']);
    const viaOne = (await get(one)).find((p) => p.id === both.id);
    expect(viaOne?.organization_ids).toEqual([o1]);
    expect((await get(boss, '?search=sales')).map((p) => p.id)).toEqual([one.id]);
    expect((await get(boss, '?search=both tester')).map((p) => p.id)).toEqual([both.id]);
    expect((await get(boss, '?limit=1&skip=1')).map((p) => p.id)).toEqual([both.id]);
    const loner = await t.createUser('user');
    expect(await get(loner)).toEqual([]);
    expect(
      (await t.req({ method: 'GET', url: '/api/contacts/assignable', token: wl.token })).statusCode,
    ).toBe(403);
  });

  it('merges own and shared contacts: each once, by name, renamed contacts move, pages agree', async () => {
    const u = await t.createUser('user');
    const peer = await t.createUser('ceo');
    const o1 = await t.createOrg(peer, 'Dir One');
    const o2 = await t.createOrg(peer, 'Dir Two');
    await t.addToOrg(peer, o1, u);
    await t.addToOrg(peer, o2, u);
    const both = await make(peer, { name: 'mia Both', shared_org_ids: [o1, o2] });
    const names = ['Zoe', 'adam', 'Bea', 'carl', 'Dora', 'eve'];
    for (const [i, name] of names.entries()) {
      if (i % 2) await make(u, { name: `${name} Own` });
      else await make(peer, { name: `${name} Shared`, shared_org_ids: [i % 4 ? o1 : o2] });
    }
    const all = await list(u);
    expect(all.map((c) => c.name)).toEqual([
      'adam Own',
      'Bea Shared',
      'carl Own',
      'Dora Shared',
      'eve Own',
      'mia Both',
      'Zoe Shared',
    ]);
    for (const [skip, limit] of [
      [0, 2],
      [2, 3],
      [5, 5],
    ]) {
      expect((await list(u, `?skip=${skip}&limit=${limit}`)).map((c) => c.id)).toEqual(
        all.slice(skip, skip + limit).map((c) => c.id),
      );
    }
    expect((await list(u, '?search=SHARED&limit=2')).map((c) => c.name)).toEqual([
      'Bea Shared',
      'Dora Shared',
    ]);
    expect((await list(u, '?search=shared&skip=2')).map((c) => c.name)).toEqual(['Zoe Shared']);
    // a renamed contact moves in every branch (the share rows carry the sort key)
    expect((await patch(peer, both.id, { name: 'Aaron Both' })).statusCode).toBe(200);
    expect((await list(u, '?limit=1')).map((c) => c.name)).toEqual(['Aaron Both']);
    const keys = await t.ctx.db
      .selectFrom('contact_shares')
      .select('contact_name_key')
      .where('contact_id', '=', both.id)
      .execute();
    expect(keys).toEqual([{ contact_name_key: 'aaron both' }, { contact_name_key: 'aaron both' }]);
  });

  // PostgreSQL's planner may prefer a sequential scan on tiny tables, so the plan is checked on SQLite.
  it.skipIf(TEST_DB === 'postgres')('the list and assignable queries are served by indexes', async () => {
    // Each visibility branch reads its index in directory order; SQLite merges them and stops at the page.
    for (const [opts, branches] of [
      [{ userId: ceo.id, orgIds: [orgA, orgB], skip: 0, limit: 50 }, 3],
      [{ userId: ceo.id, orgIds: [orgA], search: 'ada', skip: 50, limit: 50 }, 2],
      [{ userId: ceo.id, orgIds: [], search: 'ada', skip: 0, limit: 50 }, 1],
    ] as const) {
      const query = listContactsQuery(t.ctx.db, opts);
      const tree = await sqlitePlanTree(t.ctx.db, query);
      const text = tree.map((n) => `${n.id} ${n.parent} ${n.detail}`).join('\n');
      // The shared branches read contact_shares_list_idx (counted by the helper, with no scan and no
      // sort anywhere); the own branch reads contacts_user_name_idx, in the same merge.
      expectMergedIndexBranches(tree, branches - 1, ['contacts', 'contact_shares']);
      expect(
        tree.filter((n) =>
          /^SEARCH contacts USING (COVERING )?INDEX contacts_user_name_idx \(user_id=\?\)$/.test(n.detail),
        ).length,
        text,
      ).toBe(1);
      expect(
        tree.some((n) => /^MERGE \(UNION\)/.test(n.detail)),
        text,
      ).toBe(branches > 1);
      expectIndexedPlan(await sqlitePlan(t.ctx.db, query), 'contacts');
    }
    const plan = await sqlitePlan(
      t.ctx.db,
      assignableUsersQuery(t.ctx.db, { orgIds: [orgA], excludeUserId: ceo.id, skip: 0, limit: 200 }),
    );
    expectIndexedPlan(plan, 'users');
    expectIndexedPlan(plan, 'organization_members');
  });
});
