import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../test/helpers.ts';

type Role = 'anonymous' | 'waitlisted' | 'user' | 'ceo' | 'admin';
const ROLES: Role[] = ['anonymous', 'waitlisted', 'user', 'ceo', 'admin'];

/**
 * Every foundation endpoint × every role. Each row is called with a fresh target so that one role's
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
