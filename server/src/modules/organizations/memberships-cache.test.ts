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
    // A write that checks the caller's organizations inside its transaction reads them there.
    const own = await t.req({
      method: 'POST',
      url: '/api/tasks/',
      token: member.token,
      body: { title: 'Member note', shared_org_ids: [orgId] },
    });
    expect(own.statusCode).toBe(201);
    // A read takes them from the session's lookup (itself cached): no statement of its own.
    const clock = t.ctx.changes;
    if (!clock) throw new Error('the test app tracks table changes');
    const before = clock.onRead;
    const membershipReads: string[] = [];
    clock.onRead = (q) => {
      if (q.includes('from "organization_members"')) membershipReads.push(q);
      before?.(q);
    };
    try {
      expect((await t.req({ method: 'GET', url, token: member.token })).statusCode).toBe(200);
    } finally {
      clock.onRead = before;
    }
    expect(membershipReads).toEqual([]);

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

  it('with the read cache off, a request reads its memberships with its session, afresh each time', async () => {
    const off = await createTestApp({ READ_CACHE_MB: '0' });
    try {
      expect(off.ctx.memberships).toBeNull();
      const boss = await off.createUser('ceo');
      const colleague = await off.createUser('user');
      const org = await off.createOrg(boss);
      await off.addToOrg(boss, org, colleague);
      const task = await off.req({
        method: 'POST',
        url: '/api/tasks/',
        token: boss.token,
        body: { title: 'Shared plan', shared_org_ids: [org] },
      });
      const url = `/api/tasks/${task.json().id}`;
      // The session and membership lookups are prepared queries, run through db.executeQuery.
      const db = off.ctx.db;
      const reads: string[] = [];
      const executeQuery = db.executeQuery.bind(db);
      db.executeQuery = ((q: Parameters<typeof executeQuery>[0]) => {
        reads.push('sql' in q ? q.sql : q.compile().sql);
        return executeQuery(q);
      }) as typeof db.executeQuery;
      try {
        expect((await off.req({ method: 'GET', url, token: colleague.token })).statusCode).toBe(200);
        // One statement for the session, its user and memberships; none for the memberships alone.
        expect(reads.filter((q) => q.includes('from "organization_members"'))).toEqual([]);
        expect(reads.filter((q) => q.includes('from "sessions"'))).toHaveLength(1);
        const removed = await off.req({
          method: 'DELETE',
          url: `/api/organizations/${org}/users/${colleague.id}`,
          token: boss.token,
        });
        expect(removed.statusCode).toBe(204);
        expect((await off.req({ method: 'GET', url, token: colleague.token })).statusCode).toBe(404);
      } finally {
        db.executeQuery = executeQuery;
      }
    } finally {
      await off.close();
    }
  });
});
