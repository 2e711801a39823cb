import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';

apiSuite('models (no provider configured)', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    user = await t.createUser('user');
  });
  afterAll(() => t.close());

  it('lists the four spec models, all served by the offline engine, gpt-5-chat by default', async () => {
    const res = await t.req({ method: 'GET', url: '/api/models', token: user.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { id: 'gpt-5-chat', name: 'GPT-5 Chat', engine: 'offline', available: true, is_default: true },
      { id: 'gpt-5', name: 'GPT-5', engine: 'offline', available: true, is_default: false },
      { id: 'gpt-5-mini', name: 'GPT-5 mini', engine: 'offline', available: true, is_default: false },
      { id: 'gemini-2.5-pro', name: 'Gemini 2.5 Pro', engine: 'offline', available: true, is_default: false },
    ]);
    expect((await t.req({ method: 'GET', url: '/api/models/', token: user.token })).statusCode).toBe(200);
  });

  it('reports capabilities: offline, and no internet search', async () => {
    const res = await t.req({ method: 'GET', url: '/api/ai/capabilities', token: user.token });
    expect(res.json()).toEqual({ internet_search: false, offline: true, default_model: 'gpt-5-chat' });
    expect((await t.req({ method: 'GET', url: '/api/models' })).statusCode).toBe(401);
  });
});

apiSuite('models (providers configured)', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp({
      OPENAI_API_KEY: 'sk-test',
      GOOGLE_GENERATIVE_AI_API_KEY: 'g-test',
      SEARCH_PROVIDER: 'searxng',
      SEARCH_URL: 'http://127.0.0.1:9',
    });
    user = await t.createUser('user');
  });
  afterAll(() => t.close());

  it('maps the spec ids to OpenAI and Google and reports internet search', async () => {
    const list = (await t.req({ method: 'GET', url: '/api/models', token: user.token })).json();
    expect(list.map((m: { engine: string }) => m.engine)).toEqual(['openai', 'openai', 'openai', 'google']);
    const caps = (await t.req({ method: 'GET', url: '/api/ai/capabilities', token: user.token })).json();
    expect(caps).toEqual({ internet_search: true, offline: false, default_model: 'gpt-5-chat' });
  });
});
