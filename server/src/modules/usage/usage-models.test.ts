import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { type MockOpenAI, startMockOpenAI } from '../../../test/mock-openai.ts';

/** Issue 46 row 13: unpriced endpoint models under a budget, and the endpoint models administrators offer. */
apiSuite('endpoint models: offered by administrators, never free under a budget', () => {
  let mock: MockOpenAI;
  let t: TestApp;
  let admin: TestUser;
  let ceo: TestUser;
  let member: TestUser;
  let orgId: string;
  beforeAll(async () => {
    mock = await startMockOpenAI({ models: ['gpt-5-chat', 'local-llm', 'other-llm'] });
    t = await createTestApp({ OPENAI_BASE_URL: mock.url, OPENAI_API_KEY: 'test-key', AI_MAX_RETRIES: '0' });
    admin = await t.createUser('admin');
    ceo = await t.createUser('ceo');
    member = await t.createUser('user');
    orgId = await t.createOrg(ceo);
    await t.addToOrg(ceo, orgId, member);
  });
  afterEach(async () => {
    for (const table of [
      'usage_budgets',
      'usage_counters',
      'usage_events',
      'usage_daily',
      'model_offers',
      'usage_settings',
      'model_prices',
    ] as const)
      await t.ctx.db.deleteFrom(table).execute();
    // The catalog is cached per instance for 30 s: an empty PUT drops this instance's copy.
    await putPrices({ models: [] });
  });
  afterAll(async () => {
    await t.close();
    await mock.close();
  });

  const putPrices = (body: unknown, token = admin.token) =>
    t.req({ method: 'PUT', url: '/api/admin/model-prices', token, body });
  const turn = async (model: string) => {
    const c = (
      await t.req({ method: 'POST', url: '/api/conversations/', token: member.token, body: {} })
    ).json().id;
    return t.req({
      method: 'POST',
      url: `/api/conversations/${c}/chat`,
      token: member.token,
      body: { message_text: 'Hi', model },
    });
  };
  const listed = async (u: TestUser) =>
    (await t.req({ method: 'GET', url: '/api/models', token: u.token }))
      .json()
      .map((m: { id: string }) => m.id);

  it('an endpoint model no administrator offers is neither listed nor callable; offering it makes it both', async () => {
    expect(await listed(member)).not.toContain('local-llm');
    expect(await listed(admin)).not.toContain('local-llm');
    const before = mock.chatRequests().length;
    const refused = await turn('local-llm');
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({
      detail:
        'The model local-llm is not offered here. An administrator can offer it in Super Admin → Models.',
    });
    expect(mock.chatRequests().length).toBe(before);

    const offered = await putPrices({ models: [], offered_models: ['local-llm'] });
    expect(offered.statusCode, offered.body).toBe(200);
    expect(offered.json()).toMatchObject({
      endpoint_models: ['local-llm', 'other-llm'],
      offered_models: ['local-llm'],
      default_price: null,
    });
    expect(offered.json().models).toContainEqual({
      model: 'local-llm',
      input_per_million_usd: 0,
      output_per_million_usd: 0,
      priced: false,
    });
    expect(await listed(member)).toContain('local-llm');
    expect(await listed(member)).not.toContain('other-llm');
    mock.script({ kind: 'text', chunks: ['ok'], usage: { prompt_tokens: 3, completion_tokens: 2 } });
    expect((await turn('local-llm')).statusCode).toBe(200);
    // Members may not change the offer; the built-in models cannot be taken off it.
    expect((await putPrices({ models: [], offered_models: [] }, member.token)).statusCode).toBe(403);
    const builtIn = await putPrices({ models: [], offered_models: ['gpt-5-chat'] });
    expect(builtIn.statusCode).toBe(422);
    expect(builtIn.json().detail[0].msg).toBe(
      'The built-in models are always offered: remove gpt-5-chat from the list.',
    );
  });

  it('an unpriced model is refused with 422 where a budget applies, free where none does, and charged at the default price once set', async () => {
    expect((await putPrices({ models: [], offered_models: ['local-llm'] })).statusCode).toBe(200);
    // No budget: a local model nobody priced costs nothing.
    mock.script({ kind: 'text', chunks: ['ok'], usage: { prompt_tokens: 10, completion_tokens: 1_000 } });
    expect((await turn('local-llm')).statusCode).toBe(200);

    const budget = await t.req({
      method: 'PUT',
      url: `/api/organizations/${orgId}/budget`,
      token: ceo.token,
      body: { monthly_usd: 100 },
    });
    expect(budget.statusCode).toBe(200);
    const before = mock.chatRequests().length;
    const refused = await turn('local-llm');
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({
      detail:
        'The model local-llm has no price, and a monthly AI budget applies to you: an administrator must price it (or set a default price) before it can be used.',
    });
    expect(mock.chatRequests().length).toBe(before);

    const priced = await putPrices({
      models: [],
      default_price: { input_per_million_usd: 0, output_per_million_usd: 1000 },
    });
    expect(priced.statusCode, priced.body).toBe(200);
    expect(priced.json().default_price).toEqual({ input_per_million_usd: 0, output_per_million_usd: 1000 });
    mock.script({ kind: 'text', chunks: ['ok'], usage: { prompt_tokens: 10, completion_tokens: 1_000 } });
    expect((await turn('local-llm')).statusCode).toBe(200);
    const spent = await t.req({ method: 'GET', url: `/api/organizations/${orgId}/budget`, token: ceo.token });
    expect(spent.json()).toMatchObject({ used_usd: 1, remaining_usd: 99 });

    // Removing the default price refuses it again.
    expect((await putPrices({ models: [], default_price: null })).json().default_price).toBeNull();
    expect((await turn('local-llm')).statusCode).toBe(422);
  });
});
