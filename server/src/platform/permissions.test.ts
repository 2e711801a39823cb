import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../test/helpers.ts';

type Role = 'anonymous' | 'waitlisted' | 'user' | 'ceo' | 'admin';
const ROLES: Role[] = ['anonymous', 'waitlisted', 'user', 'ceo', 'admin'];

/**
 * Every foundation and workspace endpoint × every role. Each row is called with a fresh target so that one role's
 * success does not change what the next role sees. `ok` means the 2xx the endpoint answers on success.
 */
apiSuite('permission matrix', () => {
  let t: TestApp;
  const users = {} as Record<Exclude<Role, 'anonymous'>, TestUser>;
  let orgId: string;
  beforeAll(async () => {
    t = await createTestApp();
    for (const r of ['waitlisted', 'user', 'ceo', 'admin'] as const) users[r] = await t.createUser(r);
    // The ceo runs an organization of which the plain user is a member; admin is not a member.
    orgId = await t.createOrg(users.ceo, 'Matrix Co');
    await t.addToOrg(users.ceo, orgId, users.user);
  });
  afterAll(() => t.close());

  interface Row {
    name: string;
    expect: Record<Role, number>;
    call: (token: string | undefined, role: Role) => Promise<{ statusCode: number }>;
  }

  const A = 401;
  const rows: Row[] = [
    {
      name: 'GET /api/users/me',
      expect: { anonymous: A, waitlisted: 200, user: 200, ceo: 200, admin: 200 },
      call: (token) => t.req({ method: 'GET', url: '/api/users/me', token }),
    },
    {
      name: 'PATCH /api/users/me',
      expect: { anonymous: A, waitlisted: 200, user: 200, ceo: 200, admin: 200 },
      call: (token) => t.req({ method: 'PATCH', url: '/api/users/me', token, body: { behavior_notes: 'x' } }),
    },
    {
      name: 'GET /api/users/',
      expect: { anonymous: A, waitlisted: 403, user: 403, ceo: 403, admin: 200 },
      call: (token) => t.req({ method: 'GET', url: '/api/users/', token }),
    },
    {
      name: 'POST /api/users/',
      expect: { anonymous: A, waitlisted: 403, user: 403, ceo: 403, admin: 201 },
      call: (token, role) =>
        t.req({
          method: 'POST',
          url: '/api/users/',
          token,
          body: { email: `m-${role}@test.example`, password: 'long-enough' },
        }),
    },
    {
      name: 'PATCH /api/users/{id}',
      expect: { anonymous: A, waitlisted: 403, user: 403, ceo: 403, admin: 200 },
      call: async (token) => {
        const v = await t.createUser('user');
        return t.req({ method: 'PATCH', url: `/api/users/${v.id}`, token, body: { user_level: 'ceo' } });
      },
    },
    {
      name: 'DELETE /api/users/{id}',
      expect: { anonymous: A, waitlisted: 403, user: 403, ceo: 403, admin: 204 },
      call: async (token) => {
        const v = await t.createUser('user');
        return t.req({ method: 'DELETE', url: `/api/users/${v.id}`, token });
      },
    },
    {
      name: 'GET /api/organizations',
      expect: { anonymous: A, waitlisted: 403, user: 200, ceo: 200, admin: 200 },
      call: (token) => t.req({ method: 'GET', url: '/api/organizations', token }),
    },
    {
      name: 'POST /api/organizations',
      expect: { anonymous: A, waitlisted: 403, user: 403, ceo: 201, admin: 201 },
      call: (token) => t.req({ method: 'POST', url: '/api/organizations', token, body: { name: 'New' } }),
    },
    {
      name: 'PATCH /api/organizations/{id}',
      expect: { anonymous: A, waitlisted: 403, user: 403, ceo: 200, admin: 200 },
      call: (token) =>
        t.req({ method: 'PATCH', url: `/api/organizations/${orgId}`, token, body: { name: 'Matrix Co' } }),
    },
    {
      name: 'DELETE /api/organizations/{id}',
      expect: { anonymous: A, waitlisted: 403, user: 403, ceo: 204, admin: 204 },
      call: async (token) => {
        const id = await t.createOrg(users.ceo, 'Doomed');
        await t.addToOrg(users.ceo, id, users.user);
        return t.req({ method: 'DELETE', url: `/api/organizations/${id}`, token });
      },
    },
    {
      name: 'GET /api/organizations/{id}/users',
      expect: { anonymous: A, waitlisted: 403, user: 200, ceo: 200, admin: 200 },
      call: (token) => t.req({ method: 'GET', url: `/api/organizations/${orgId}/users`, token }),
    },
    {
      name: 'POST /api/organizations/{id}/users',
      expect: { anonymous: A, waitlisted: 403, user: 403, ceo: 201, admin: 201 },
      call: (token, role) =>
        t.req({
          method: 'POST',
          url: `/api/organizations/${orgId}/users`,
          token,
          body: { email: `inv-${role}@test.example` },
        }),
    },
    {
      name: 'PATCH /api/organizations/{id}/users/{userId}',
      expect: { anonymous: A, waitlisted: 403, user: 403, ceo: 200, admin: 200 },
      call: async (token) => {
        const v = await t.createUser('user');
        await t.addToOrg(users.ceo, orgId, v);
        return t.req({
          method: 'PATCH',
          url: `/api/organizations/${orgId}/users/${v.id}`,
          token,
          body: { org_access_level: 'manager' },
        });
      },
    },
    {
      name: 'DELETE /api/organizations/{id}/users/{userId}',
      expect: { anonymous: A, waitlisted: 403, user: 403, ceo: 204, admin: 204 },
      call: async (token) => {
        const v = await t.createUser('user');
        await t.addToOrg(users.ceo, orgId, v);
        return t.req({ method: 'DELETE', url: `/api/organizations/${orgId}/users/${v.id}`, token });
      },
    },
    {
      name: 'POST /api/auth/logout',
      expect: { anonymous: A, waitlisted: 204, user: 204, ceo: 204, admin: 204 },
      call: async (token, role) =>
        t.req({
          method: 'POST',
          url: '/api/auth/logout',
          token: token && role !== 'anonymous' ? await t.login(users[role].email) : undefined,
        }),
    },
  ];

  // ---- the executive workspace: tasks, contacts, goals, advice, notes ----
  // A record endpoint is called on a record of the caller's own (of the plain user for anonymous and
  // waitlisted callers, who are refused before the record is looked up).
  const ownerOf = (role: Role) => (role === 'anonymous' || role === 'waitlisted' ? users.user : users[role]);
  const made = async (role: Role, url: string, body: Record<string, unknown>) => {
    const res = await t.req({ method: 'POST', url, token: ownerOf(role).token, body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; past_interactions?: { id: string }[] };
  };
  const task = (role: Role) => made(role, '/api/tasks/', { title: 'Matrix task' });
  const contact = (role: Role) => made(role, '/api/contacts/', { name: 'Matrix Contact' });
  const goal = (role: Role) =>
    made(role, '/api/strategic-goals/', { title: 'Matrix goal', due_date: '2027-01-01' });
  const advice = (role: Role) => made(role, '/api/strategic-advice/', { content: 'Matrix advice' });
  const note = (role: Role) => made(role, '/api/journals/', { content: 'Matrix note' });
  const interaction = async (role: Role) => {
    const c = await contact(role);
    const withOne = await made(role, `/api/contacts/${c.id}/past-interactions`, {
      date: '2026-01-02',
      summary: 'Call',
    });
    return { contactId: c.id, id: withOne.past_interactions?.[0]?.id ?? '' };
  };
  const ok = (code: number): Record<Role, number> => ({
    anonymous: A,
    waitlisted: 403,
    user: code,
    ceo: code,
    admin: code,
  });
  type Call = Row['call'];
  const workspace: [string, number, Call][] = [
    ['GET /api/tasks/', 200, (token) => t.req({ method: 'GET', url: '/api/tasks/', token })],
    ['GET /api/tasks/urgent', 200, (token) => t.req({ method: 'GET', url: '/api/tasks/urgent', token })],
    [
      'POST /api/tasks/',
      201,
      (token) => t.req({ method: 'POST', url: '/api/tasks/', token, body: { title: 'T' } }),
    ],
    [
      'GET /api/tasks/{id}',
      200,
      async (token, role) => t.req({ method: 'GET', url: `/api/tasks/${(await task(role)).id}`, token }),
    ],
    [
      'PUT /api/tasks/{id}',
      200,
      async (token, role) =>
        t.req({
          method: 'PUT',
          url: `/api/tasks/${(await task(role)).id}`,
          token,
          body: { title: 'Renamed' },
        }),
    ],
    [
      'PUT /api/tasks/{id}/assign',
      200,
      async (token, role) =>
        t.req({
          method: 'PUT',
          url: `/api/tasks/${(await task(role)).id}/assign`,
          token,
          body: { assigned_to_user_id: null },
        }),
    ],
    [
      'DELETE /api/tasks/{id}',
      204,
      async (token, role) => t.req({ method: 'DELETE', url: `/api/tasks/${(await task(role)).id}`, token }),
    ],
    [
      'POST /api/tasks/{id}/share/orgs',
      200,
      async (token, role) =>
        t.req({
          method: 'POST',
          url: `/api/tasks/${(await task(role)).id}/share/orgs`,
          token,
          body: { ids: [] },
        }),
    ],
    [
      'GET /api/tasks/{id}/shares',
      200,
      async (token, role) =>
        t.req({ method: 'GET', url: `/api/tasks/${(await task(role)).id}/shares`, token }),
    ],
    [
      'GET /api/contacts/',
      200,
      (token) => t.req({ method: 'GET', url: '/api/contacts/?search=a&limit=5', token }),
    ],
    [
      'GET /api/contacts/assignable',
      200,
      (token) => t.req({ method: 'GET', url: '/api/contacts/assignable', token }),
    ],
    [
      'POST /api/contacts/',
      201,
      (token) => t.req({ method: 'POST', url: '/api/contacts/', token, body: { name: 'C' } }),
    ],
    [
      'GET /api/contacts/{id}',
      200,
      async (token, role) =>
        t.req({ method: 'GET', url: `/api/contacts/${(await contact(role)).id}`, token }),
    ],
    [
      'PATCH /api/contacts/{id}',
      200,
      async (token, role) =>
        t.req({
          method: 'PATCH',
          url: `/api/contacts/${(await contact(role)).id}`,
          token,
          body: { role: 'Chair' },
        }),
    ],
    [
      'DELETE /api/contacts/{id}',
      204,
      async (token, role) =>
        t.req({ method: 'DELETE', url: `/api/contacts/${(await contact(role)).id}`, token }),
    ],
    [
      'POST /api/contacts/{id}/past-interactions',
      201,
      async (token, role) =>
        t.req({
          method: 'POST',
          url: `/api/contacts/${(await contact(role)).id}/past-interactions`,
          token,
          body: { date: '2026-01-01', summary: 'Met' },
        }),
    ],
    [
      'PUT /api/contacts/{id}/past-interactions/{interactionId}',
      200,
      async (token, role) => {
        const i = await interaction(role);
        return t.req({
          method: 'PUT',
          url: `/api/contacts/${i.contactId}/past-interactions/${i.id}`,
          token,
          body: { date: '2026-01-03', summary: 'Met again' },
        });
      },
    ],
    [
      'DELETE /api/contacts/{id}/past-interactions/{interactionId}',
      204,
      async (token, role) => {
        const i = await interaction(role);
        return t.req({
          method: 'DELETE',
          url: `/api/contacts/${i.contactId}/past-interactions/${i.id}`,
          token,
        });
      },
    ],
    [
      'GET /api/strategic-goals/',
      200,
      (token) => t.req({ method: 'GET', url: '/api/strategic-goals/', token }),
    ],
    [
      'POST /api/strategic-goals/',
      201,
      (token) =>
        t.req({
          method: 'POST',
          url: '/api/strategic-goals/',
          token,
          body: { title: 'G', due_date: '2027-02-01' },
        }),
    ],
    [
      'GET /api/strategic-goals/{id}',
      200,
      async (token, role) =>
        t.req({ method: 'GET', url: `/api/strategic-goals/${(await goal(role)).id}`, token }),
    ],
    [
      'PUT /api/strategic-goals/{id}',
      200,
      async (token, role) =>
        t.req({
          method: 'PUT',
          url: `/api/strategic-goals/${(await goal(role)).id}`,
          token,
          body: { title: 'Renamed', due_date: '2027-03-01' },
        }),
    ],
    [
      'DELETE /api/strategic-goals/{id}',
      204,
      async (token, role) =>
        t.req({ method: 'DELETE', url: `/api/strategic-goals/${(await goal(role)).id}`, token }),
    ],
    [
      'GET /api/strategic-advice/',
      200,
      (token) => t.req({ method: 'GET', url: '/api/strategic-advice/', token }),
    ],
    [
      'POST /api/strategic-advice/',
      201,
      (token) => t.req({ method: 'POST', url: '/api/strategic-advice/', token, body: { content: 'A' } }),
    ],
    [
      'GET /api/strategic-advice/{id}',
      200,
      async (token, role) =>
        t.req({ method: 'GET', url: `/api/strategic-advice/${(await advice(role)).id}`, token }),
    ],
    [
      'PUT /api/strategic-advice/{id}',
      200,
      async (token, role) =>
        t.req({
          method: 'PUT',
          url: `/api/strategic-advice/${(await advice(role)).id}`,
          token,
          body: { content: 'Edited' },
        }),
    ],
    [
      'PATCH /api/strategic-advice/{id}/feedback',
      200,
      async (token, role) =>
        t.req({
          method: 'PATCH',
          url: `/api/strategic-advice/${(await advice(role)).id}/feedback`,
          token,
          body: { feedback: 'Useful' },
        }),
    ],
    [
      'DELETE /api/strategic-advice/{id}',
      204,
      async (token, role) =>
        t.req({ method: 'DELETE', url: `/api/strategic-advice/${(await advice(role)).id}`, token }),
    ],
    [
      'GET /api/journals/',
      200,
      (token) => t.req({ method: 'GET', url: '/api/journals/?skip=0&limit=100', token }),
    ],
    [
      'POST /api/journals/',
      201,
      (token) => t.req({ method: 'POST', url: '/api/journals/', token, body: { content: 'N' } }),
    ],
    [
      'GET /api/journals/{id}',
      200,
      async (token, role) => t.req({ method: 'GET', url: `/api/journals/${(await note(role)).id}`, token }),
    ],
    [
      'PUT /api/journals/{id}',
      200,
      async (token, role) =>
        t.req({
          method: 'PUT',
          url: `/api/journals/${(await note(role)).id}`,
          token,
          body: { content: 'Edited' },
        }),
    ],
    [
      'DELETE /api/journals/{id}',
      204,
      async (token, role) =>
        t.req({ method: 'DELETE', url: `/api/journals/${(await note(role)).id}`, token }),
    ],
  ];
  for (const [name, code, call] of workspace) rows.push({ name, expect: ok(code), call });

  for (const row of rows) {
    it(row.name, async () => {
      const got: Record<string, number> = {};
      for (const role of ROLES) {
        const token = role === 'anonymous' ? undefined : users[role].token;
        got[role] = (await row.call(token, role)).statusCode;
      }
      expect(got).toEqual(row.expect);
    });
  }
});
