import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';

apiSuite('factory items shared with organizations (issue 19 section 1)', () => {
  let t: TestApp;
  let ceo: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  let orgId: string;
  let otherOrg: string;
  beforeAll(async () => {
    t = await createTestApp();
    ceo = await t.createUser('ceo');
    member = await t.createUser('user');
    outsider = await t.createUser('ceo');
    orgId = await t.createOrg(ceo, 'Acme');
    otherOrg = await t.createOrg(outsider, 'Elsewhere');
    await t.addToOrg(ceo, orgId, member);
  });
  afterAll(() => t.close());

  const get = (who: TestUser, url: string) => t.req({ method: 'GET', url, token: who.token });

  it("a ceo shares a flow with their own organization: its members see and run it, others don't", async () => {
    const flow = await t.req({
      method: 'POST',
      url: '/api/flows/',
      token: ceo.token,
      body: {
        name: 'Shared with Acme',
        shared_org_ids: [orgId],
        steps: [{ title: 'Wait', kind: 'wait_for_human' }],
      },
    });
    expect(flow.statusCode, flow.body).toBe(201);
    expect(flow.json()).toMatchObject({ shared_org_ids: [orgId], is_public: false, can_edit: true });
    const id = flow.json().id as string;

    expect((await get(member, `/api/flows/${id}`)).statusCode).toBe(200);
    expect((await get(member, '/api/flows/')).json().map((f: { id: string }) => f.id)).toContain(id);
    expect((await get(member, `/api/flows/${id}`)).json().can_edit).toBe(false);
    const run = await t.req({
      method: 'POST',
      url: '/api/flow-runs/',
      token: member.token,
      body: { flow_id: id },
    });
    expect(run.statusCode, run.body).toBe(201);

    expect((await get(outsider, `/api/flows/${id}`)).statusCode).toBe(404);
    expect((await get(outsider, '/api/flows/')).json().map((f: { id: string }) => f.id)).not.toContain(id);
    expect(
      (await t.req({ method: 'POST', url: '/api/flow-runs/', token: outsider.token, body: { flow_id: id } }))
        .statusCode,
    ).toBe(404);

    // Unshared (an update with an empty list), the member loses it.
    const put = await t.req({
      method: 'PUT',
      url: `/api/flows/${id}`,
      token: ceo.token,
      body: {
        name: 'Shared with Acme',
        shared_org_ids: [],
        steps: [{ title: 'Wait', kind: 'wait_for_human' }],
      },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect((await get(member, `/api/flows/${id}`)).statusCode).toBe(404);
  });

  it('sharing with an organization the owner does not belong to is 403 and saves nothing', async () => {
    const res = await t.req({
      method: 'POST',
      url: '/api/tools/',
      token: ceo.token,
      body: { name: 'Leaky', shared_org_ids: [otherOrg] },
    });
    expect(res.statusCode).toBe(403);
    const names = (await get(ceo, '/api/tools/')).json().map((x: { name: string }) => x.name);
    expect(names).not.toContain('Leaky');
  });
});
