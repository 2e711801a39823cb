import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';

// Every shared-record request reads the caller's memberships: they go through the read cache, and a
// membership change (here a removal) must take effect on the very next request.
apiSuite('memberships through the read cache', () => {
  let t: TestApp;
  let ceo: TestUser;
  let member: TestUser;
  let orgId: string;

  beforeAll(async () => {
    t = await createTestApp();
    ceo = await t.createUser('ceo');
    member = await t.createUser('user');
    orgId = await t.createOrg(ceo);
    await t.addToOrg(ceo, orgId, member);
  });
  afterAll(() => t.close());

  it('a member’s requests reuse their memberships until one changes, and a removal applies at once', async () => {
    const created = await t.req({
      method: 'POST',
      url: '/api/tasks/',
      token: ceo.token,
      body: { title: 'Board pack', shared_org_ids: [orgId] },
    });
    expect(created.statusCode).toBe(201);
    const url = `/api/tasks/${created.json().id}`;
    const cache = t.ctx.memberships;
    if (!cache) throw new Error('the test app runs with the read cache on');

    expect((await t.req({ method: 'GET', url, token: member.token })).statusCode).toBe(200);
    const hits = cache.hits;
    // A write that checks the caller's organizations reads them from memory.
    const own = await t.req({
      method: 'POST',
      url: '/api/tasks/',
      token: member.token,
      body: { title: 'Member note', shared_org_ids: [orgId] },
    });
    expect(own.statusCode).toBe(201);
    expect((await t.req({ method: 'GET', url, token: member.token })).statusCode).toBe(200);
    expect(cache.hits).toBeGreaterThan(hits);

    const removed = await t.req({
      method: 'DELETE',
      url: `/api/organizations/${orgId}/users/${member.id}`,
      token: ceo.token,
    });
    expect(removed.statusCode).toBe(204);
    expect((await t.req({ method: 'GET', url, token: member.token })).statusCode).toBe(404);
    const again = await t.req({
      method: 'POST',
      url: '/api/tasks/',
      token: member.token,
      body: { title: 'Too late', shared_org_ids: [orgId] },
    });
    expect(again.statusCode).toBe(403);
  });

  it('with the read cache off, memberships are read every time', async () => {
    const off = await createTestApp({ READ_CACHE_MB: '0' });
    try {
      expect(off.ctx.memberships).toBeNull();
    } finally {
      await off.close();
    }
  });
});
