import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { type MockOpenAI, startMockOpenAI } from '../../../test/mock-openai.ts';

/** Issue 46 row 12: every model call is charged to an organization the caller belongs to. */
apiSuite('whom a model call is charged to', () => {
  let mock: MockOpenAI;
  let t: TestApp;
  let ceoA: TestUser;
  let ceoB: TestUser;
  beforeAll(async () => {
    mock = await startMockOpenAI({ models: ['gpt-5-chat'] });
    t = await createTestApp({ OPENAI_BASE_URL: mock.url, OPENAI_API_KEY: 'test-key', AI_MAX_RETRIES: '0' });
    const admin = await t.createUser('admin');
    ceoA = await t.createUser('ceo');
    ceoB = await t.createUser('ceo');
    // $1,000 per million output tokens: a turn reserves $1 (1,000 output tokens) and uses exactly that.
    const priced = await t.req({
      method: 'PUT',
      url: '/api/admin/model-prices',
      token: admin.token,
      body: { models: [{ model: 'gpt-5-chat', input_per_million_usd: 0, output_per_million_usd: 1000 }] },
    });
    expect(priced.statusCode, priced.body).toBe(200);
  });
  afterEach(async () => {
    for (const table of ['usage_budgets', 'usage_counters', 'usage_events', 'usage_daily'] as const)
      await t.ctx.db.deleteFrom(table).execute();
  });
  afterAll(async () => {
    await t.close();
    await mock.close();
  });

  const conversation = async (u: TestUser) =>
    (await t.req({ method: 'POST', url: '/api/conversations/', token: u.token, body: {} })).json()
      .id as string;
  const turn = (u: TestUser, c: string) =>
    t.req({
      method: 'POST',
      url: `/api/conversations/${c}/chat`,
      token: u.token,
      body: { message_text: 'q' },
    });
  const setBudget = async (orgId: string, owner: TestUser, usd: number) => {
    const r = await t.req({
      method: 'PUT',
      url: `/api/organizations/${orgId}/budget`,
      token: owner.token,
      body: { monthly_usd: usd },
    });
    expect(r.statusCode, r.body).toBe(200);
  };

  it('an invited member whose primary organization is gone is held by the budget of the one they joined: 50 turns at once, 10 fit', async () => {
    const orgA = await t.createOrg(ceoA);
    const orgB = await t.createOrg(ceoB);
    const member = await t.createUser('user');
    await t.addToOrg(ceoA, orgA, member); // primary: A
    await t.addToOrg(ceoB, orgB, member); // joined B by invitation
    const gone = await t.req({ method: 'DELETE', url: `/api/organizations/${orgA}`, token: ceoA.token });
    expect(gone.statusCode, gone.body).toBe(204);
    await setBudget(orgB, ceoB, 10.5);
    const ids: string[] = [];
    for (let i = 0; i < 50; i++) ids.push(await conversation(member));
    mock.script(
      ...ids.map(() => ({
        kind: 'text' as const,
        chunks: ['x'],
        delayMs: 50,
        usage: { prompt_tokens: 0, completion_tokens: 1_000 },
      })),
    );
    const statuses = await Promise.all(ids.map(async (c) => (await turn(member, c)).statusCode));
    expect(statuses.filter((s) => s === 200).length).toBe(10);
    expect(statuses.filter((s) => s !== 200).every((s) => s === 429)).toBe(true);
    const events = await t.ctx.db.selectFrom('usage_events').select('organization_id').execute();
    expect(events).toHaveLength(10);
    expect(new Set(events.map((e) => e.organization_id))).toEqual(new Set([orgB]));
    const budget = await t.req({
      method: 'GET',
      url: `/api/organizations/${orgB}/budget`,
      token: ceoB.token,
    });
    expect(budget.json()).toMatchObject({ used_usd: 10, remaining_usd: 0.5 });
  }, 60_000);

  it('the primary organization is chosen on Profile among the caller’s own; calls are then charged to it', async () => {
    const orgA = await t.createOrg(ceoA);
    const orgB = await t.createOrg(ceoB);
    const member = await t.createUser('user');
    await t.addToOrg(ceoA, orgA, member);
    await t.addToOrg(ceoB, orgB, member);
    const me = async () => (await t.req({ method: 'GET', url: '/api/users/me', token: member.token })).json();
    expect((await me()).organization_id).toBe(orgA);

    const strangers = await t.createOrg(await t.createUser('ceo'));
    const refused = await t.req({
      method: 'PUT',
      url: '/api/users/me/primary-organization',
      token: member.token,
      body: { organization_id: strangers },
    });
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({ detail: 'Organization not found' });
    expect((await me()).organization_id).toBe(orgA);

    const chosen = await t.req({
      method: 'PUT',
      url: '/api/users/me/primary-organization',
      token: member.token,
      body: { organization_id: orgB },
    });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json()).toEqual({ organization_id: orgB });
    expect((await me()).organization_id).toBe(orgB);

    await setBudget(orgB, ceoB, 0.5);
    const held = await turn(member, await conversation(member));
    expect(held.statusCode).toBe(429);
    expect(held.json().detail).toBe(
      `Monthly AI budget reached: $0.00 of $0.50 used; it resets on ${held.json().detail.split('resets on ')[1]}`,
    );
    const mine = await t.req({ method: 'GET', url: '/api/users/me/usage', token: member.token });
    expect(mine.json()).toMatchObject({ budget: { monthly_usd: 0.5 }, charged_organization_id: orgB });
    // Organization A, which has no budget, is no longer the one met.
    await setBudget(orgB, ceoB, 100);
    mock.script({ kind: 'text', chunks: ['ok'], usage: { prompt_tokens: 0, completion_tokens: 10 } });
    expect((await turn(member, await conversation(member))).statusCode).toBe(200);
    expect(await t.ctx.db.selectFrom('usage_events').select('organization_id').execute()).toEqual([
      { organization_id: orgB },
    ]);
  });
});
