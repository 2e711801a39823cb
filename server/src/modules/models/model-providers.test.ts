import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { openSecret, sealSecret } from '../../platform/secrets/secret-box.ts';
import { apiSuite, createTestApp, TEST_DB, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { type MockOpenAI, startMockOpenAI } from '../../../test/mock-openai.ts';

/** Issue 47 item 3: model providers from Super Admin → Models. */
const KEY = 'sk-screen-key-0123456789-abcd';
const PROVIDERS = '/api/admin/model-providers';

apiSuite('model providers set from the screen', () => {
  let mock: MockOpenAI;
  let t: TestApp;
  let admin: TestUser;
  let member: TestUser;
  let ceo: TestUser;
  beforeAll(async () => {
    // The endpoint does not list gpt-5-chat: a chat asking for it is answered by the default model.
    mock = await startMockOpenAI({ models: ['mock-model', 'other-model'] });
    t = await createTestApp({ AI_HTTP_ALLOWLIST: '127.0.0.1', AI_MAX_RETRIES: '0' });
    admin = await t.createUser('admin');
    member = await t.createUser('user');
    ceo = await t.createUser('ceo');
  });
  afterAll(async () => {
    await t.close();
    await mock.close();
  });

  const put = (body: unknown, token = admin.token) => t.req({ method: 'PUT', url: PROVIDERS, token, body });
  const test = (body: unknown, token = admin.token) =>
    t.req({ method: 'POST', url: `${PROVIDERS}/test`, token, body });
  const models = async () => (await t.req({ method: 'GET', url: '/api/models', token: member.token })).json();
  const caps = async () =>
    (await t.req({ method: 'GET', url: '/api/ai/capabilities', token: member.token })).json();

  it('only the platform admin may read, change or test the providers', async () => {
    for (const u of [member, ceo]) {
      expect((await t.req({ method: 'GET', url: PROVIDERS, token: u.token })).statusCode).toBe(403);
      expect((await put({ openai_api_key: KEY }, u.token)).statusCode).toBe(403);
      expect((await test({ base_url: mock.url }, u.token)).statusCode).toBe(403);
    }
    expect((await t.req({ method: 'GET', url: PROVIDERS })).statusCode).toBe(401);
    expect(await t.ctx.db.selectFrom('model_settings').selectAll().execute()).toEqual([]);
    const res = await t.req({ method: 'GET', url: PROVIDERS, token: admin.token });
    expect(res.json()).toEqual({
      compatible: { source: null, base_url: null, key: { set: false, last4: null, unreadable: false } },
      openai: { source: null, key: { set: false, last4: null, unreadable: false } },
      google: { source: null, key: { set: false, last4: null, unreadable: false } },
      default_model: { model: 'gpt-5-chat', source: null },
      offline: true,
    });
  });

  it("the test button lists the endpoint's models, sending the key typed", async () => {
    const res = await test({ base_url: mock.url, api_key: KEY });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ models: ['mock-model', 'other-model'] });
    const last = mock.requests.at(-1);
    expect(last?.path).toBe('/v1/models');
    expect(last?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('an unreachable, refused or wrong endpoint is a 422 with a detail, never its body', async () => {
    const closed = await test({ base_url: 'http://127.0.0.1:9/v1' });
    expect(closed.statusCode).toBe(422);
    expect(closed.json().detail).toMatch(/^Could not reach 127\.0\.0\.1:9/);

    const privateAddress = await test({ base_url: 'http://10.0.0.1/v1' });
    expect(privateAddress.statusCode).toBe(422);
    expect(privateAddress.json().detail).toContain('AI_HTTP_ALLOWLIST');

    // The mock answers 404 with `{"error":{"message":"not found"}}` off its /v1 path.
    const wrongPath = await test({ base_url: `${mock.url}/nope` });
    expect(wrongPath.statusCode).toBe(422);
    expect(wrongPath.json().detail).toContain('HTTP 404');
    expect(wrongPath.body).not.toContain('not found');

    const notUrl = await test({ base_url: 'ftp://example.com/v1' });
    expect(notUrl.statusCode).toBe(422);
    expect(notUrl.json().detail).toBe('The base URL must start with http:// or https://.');
  });

  it('saving seals the key (never returned), and GET /api/models and capabilities follow at once', async () => {
    expect((await models()).map((m: { engine: string }) => m.engine)).toEqual([
      'offline',
      'offline',
      'offline',
      'offline',
    ]);
    const res = await put({
      compatible: { base_url: mock.url, api_key: KEY },
      google_api_key: 'g-key-0123456789-wxyz',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).not.toContain(KEY);
    expect(res.json()).toMatchObject({
      compatible: {
        source: 'settings',
        base_url: mock.url,
        key: { set: true, last4: 'abcd', unreadable: false },
      },
      google: { source: 'settings', key: { set: true, last4: 'wxyz' } },
      offline: false,
    });
    const rows = await t.ctx.db.selectFrom('model_settings').selectAll().execute();
    const sealed = rows.find((r) => r.key === 'compat_api_key')?.value ?? '';
    expect(sealed).not.toContain(KEY);
    expect(sealed).not.toContain('abcd');
    expect(openSecret(t.config.secretsKey, sealed)).toBe(KEY);
    expect(JSON.stringify(rows)).not.toContain('g-key-0123456789-wxyz');
    expect((await t.req({ method: 'GET', url: PROVIDERS, token: admin.token })).body).not.toContain(KEY);

    const list = await models();
    expect(list.map((m: { id: string; engine: string }) => `${m.id}:${m.engine}`)).toEqual([
      'gpt-5-chat:openai-compatible',
      'gpt-5:openai-compatible',
      'gpt-5-mini:openai-compatible',
      'gemini-2.5-pro:google',
    ]);
    expect(await caps()).toEqual({ internet_search: false, offline: false, default_model: 'gpt-5-chat' });
    // The model list was fetched with the stored key.
    expect(mock.requests.filter((r) => r.path === '/v1/models').at(-1)?.headers.authorization).toBe(
      `Bearer ${KEY}`,
    );
  });

  it('the default model must be offered; then chats without a listed model answer with it', async () => {
    const unoffered = await put({ default_model: 'mock-model' });
    expect(unoffered.statusCode).toBe(422);
    expect(JSON.stringify(unoffered.json().detail)).toContain('mock-model is not offered');

    const offer = await t.req({
      method: 'PUT',
      url: '/api/admin/model-prices',
      token: admin.token,
      body: { models: [], offered_models: ['mock-model'] },
    });
    expect(offer.statusCode, offer.body).toBe(200);
    const res = await put({ default_model: 'mock-model' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().default_model).toEqual({ model: 'mock-model', source: 'settings' });
    expect(await caps()).toMatchObject({ default_model: 'mock-model' });
    expect((await models()).find((m: { id: string }) => m.id === 'mock-model')).toMatchObject({
      engine: 'openai-compatible',
      is_default: true,
    });

    const conv = (
      await t.req({ method: 'POST', url: '/api/conversations/', token: member.token, body: {} })
    ).json();
    const chat = await t.req({
      method: 'POST',
      url: `/api/conversations/${conv.id}/chat`,
      token: member.token,
      body: { message_text: 'Hello', model: 'gpt-5-chat' },
    });
    expect(chat.statusCode, chat.body).toBe(200);
    expect(chat.json().content).toContain('Hello from the mock model.');
    const sent = mock.chatRequests().at(-1);
    expect(sent?.body?.model).toBe('mock-model');
    expect(sent?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('a new base URL without a key drops the stored key; removing the provider goes back offline', async () => {
    const moved = await put({ compatible: { base_url: `${mock.url}/` } });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().compatible).toMatchObject({ base_url: mock.url, key: { set: true } });
    const other = await put({ compatible: { base_url: 'http://127.0.0.1:9/v1' } });
    expect(other.json().compatible).toEqual({
      source: 'settings',
      base_url: 'http://127.0.0.1:9/v1',
      key: { set: false, last4: null, unreadable: false },
    });
    const removed = await put({ compatible: null, google_api_key: null, default_model: null });
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({
      offline: true,
      default_model: { model: 'gpt-5-chat', source: null },
    });
    expect(await t.ctx.db.selectFrom('model_settings').selectAll().execute()).toEqual([]);
    expect(await caps()).toMatchObject({ offline: true });
  });

  it('bad input is a 422 with a detail and writes nothing', async () => {
    for (const body of [
      { compatible: { base_url: 'not a url' } },
      { compatible: { base_url: 'http://user:pw@127.0.0.1/v1' } },
      { openai_api_key: '' },
      { openai_api_key: 'has space' },
      { unknown: 1 },
    ]) {
      const res = await put(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().detail).toBeTruthy();
    }
    expect(await t.ctx.db.selectFrom('model_settings').selectAll().execute()).toEqual([]);
  });
});

apiSuite('model providers set from the screen: stored rows the server cannot use', () => {
  let mock: MockOpenAI;
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    mock = await startMockOpenAI({ models: ['mock-model'] });
    // No AI_HTTP_ALLOWLIST: a loopback endpoint is refused.
    t = await createTestApp({ AI_MAX_RETRIES: '0' });
    admin = await t.createUser('admin');
  });
  afterAll(async () => {
    await t.close();
    await mock.close();
  });

  it('a key sealed under another SECRETS_KEY shows as unreadable and is never sent', async () => {
    const now = new Date().toISOString();
    await t.ctx.db
      .insertInto('model_settings')
      .values({
        key: 'openai_api_key',
        value: sealSecret('another-secrets-key', 'sk-lost-0123456789'),
        updated_at: now,
      })
      .execute();
    const res = await t.req({ method: 'GET', url: PROVIDERS, token: admin.token });
    expect(res.json().openai).toEqual({
      source: 'settings',
      key: { set: false, last4: null, unreadable: true },
    });
    expect(res.json().offline).toBe(true);
    await t.ctx.db.deleteFrom('model_settings').execute();
  });

  it('an endpoint on a private address is refused at save, and at call time when it was stored anyway', async () => {
    const refused = await t.req({
      method: 'PUT',
      url: PROVIDERS,
      token: admin.token,
      body: { compatible: { base_url: mock.url } },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().detail).toContain('AI_HTTP_ALLOWLIST');
    expect(await t.ctx.db.selectFrom('model_settings').selectAll().execute()).toEqual([]);

    // A row written while the address was allowed (or by hand): the model call is refused before it leaves.
    await t.ctx.db
      .insertInto('model_settings')
      .values({ key: 'compat_base_url', value: mock.url, updated_at: new Date().toISOString() })
      .execute();
    expect(
      (await t.req({ method: 'GET', url: PROVIDERS, token: admin.token })).json().compatible.source,
    ).toBe('settings');
    const conv = (
      await t.req({ method: 'POST', url: '/api/conversations/', token: admin.token, body: {} })
    ).json();
    const chat = await t.req({
      method: 'POST',
      url: `/api/conversations/${conv.id}/chat`,
      token: admin.token,
      body: { message_text: 'Hello', model: 'gpt-5-chat' },
    });
    // The turn fails (as any unreachable model does) and nothing reached the endpoint.
    expect(chat.statusCode, chat.body).toBe(200);
    expect(chat.json()).toMatchObject({ status: 'failed' });
    expect(mock.requests).toEqual([]);
  });
});

apiSuite('model providers from the environment', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await createTestApp({
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
      OPENAI_API_KEY: 'sk-environment-key-9876',
      AI_DEFAULT_MODEL: 'gpt-5',
    });
    admin = await t.createUser('admin');
  });
  afterAll(() => t.close());

  it('shows the environment as read-only rows that win, and refuses to change them', async () => {
    const res = await t.req({ method: 'GET', url: PROVIDERS, token: admin.token });
    expect(res.body).not.toContain('sk-environment-key-9876');
    expect(res.json()).toMatchObject({
      compatible: {
        source: 'environment',
        base_url: 'http://127.0.0.1:9/v1',
        key: { set: true, last4: '9876' },
      },
      openai: { source: null },
      default_model: { model: 'gpt-5', source: 'environment' },
    });
    for (const [body, variable] of [
      [{ compatible: null }, 'OPENAI_BASE_URL'],
      [{ default_model: 'gpt-5-mini' }, 'AI_DEFAULT_MODEL'],
    ] as const) {
      const put = await t.req({ method: 'PUT', url: PROVIDERS, token: admin.token, body });
      expect(put.statusCode).toBe(409);
      expect(put.json().detail).toContain(variable);
    }
    // OpenAI's own key is free to set: OPENAI_API_KEY belongs to the endpoint here.
    const openai = await t.req({
      method: 'PUT',
      url: PROVIDERS,
      token: admin.token,
      body: { openai_api_key: 'sk-openai-0123456789' },
    });
    expect(openai.json().openai).toMatchObject({ source: 'settings', key: { set: true } });
    const list = (await t.req({ method: 'GET', url: '/api/models', token: admin.token })).json();
    expect(list.map((m: { engine: string }) => m.engine).slice(0, 3)).toEqual(['openai', 'openai', 'openai']);
  });
});

describe.runIf(TEST_DB === 'postgres')('model providers on several instances (PostgreSQL)', () => {
  it('a change on one instance applies on the other at once', async () => {
    const mock = await startMockOpenAI({ models: ['mock-model'] });
    const t = await createTestApp({ AI_HTTP_ALLOWLIST: '127.0.0.1' });
    const other = await buildApp({ ...t.config });
    await other.app.ready();
    try {
      const admin = await t.createUser('admin');
      const caps = async () =>
        (
          await other.app.inject({
            method: 'GET',
            url: '/api/ai/capabilities',
            headers: { authorization: `Bearer ${admin.token}` },
          })
        ).json();
      expect(await caps()).toMatchObject({ offline: true });
      const res = await t.req({
        method: 'PUT',
        url: PROVIDERS,
        token: admin.token,
        body: { compatible: { base_url: mock.url } },
      });
      expect(res.statusCode, res.body).toBe(200);
      await expect.poll(caps, { timeout: 1_000, interval: 50 }).toMatchObject({ offline: false });
    } finally {
      await other.app.close();
      await other.ctx.db.destroy().catch(() => {});
      await t.close();
      await mock.close();
    }
  });
});
