import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseUrl, TEST_DB } from '../../../test/helpers.ts';
import { type MockOpenAI, startMockOpenAI } from '../../../test/mock-openai.ts';
import { type ServerProcess, startServerProcess } from '../../../test/server-process.ts';

// Issue 46 rows 10 and 11 with a real crash: two instances on one PostgreSQL database; the one making a
// model call is killed mid-stream; the other releases its hold once the lease runs out and bills the
// call as interrupted. SQLite is single-instance by design (its start settles every leftover row).
const pgReady = TEST_DB === 'postgres' && !!process.env.TEST_PG_URL;

describe.runIf(pgReady)('a model call whose instance is killed (PostgreSQL, two instances)', () => {
  let mock: MockOpenAI;
  let a: ServerProcess;
  let b: ServerProcess;
  let drop: () => Promise<void>;
  const admin = { email: 'admin@lease.example', password: 'admin-password-1' };
  const ceo = { email: 'ceo@lease.example', password: 'ceo-password-123' };

  const call = async (base: string, method: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, text, json: () => JSON.parse(text) };
  };
  const signIn = async (base: string, email: string, password: string) => {
    const res = await fetch(`${base}/api/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: email, password }).toString(),
    });
    return ((await res.json()) as { access_token: string }).access_token;
  };

  beforeAll(async () => {
    mock = await startMockOpenAI({ models: ['gpt-5-chat'] });
    const db = await freshDatabaseUrl();
    drop = db.drop;
    const env = {
      DATABASE_URL: db.url,
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      OPENAI_BASE_URL: mock.url,
      OPENAI_API_KEY: 'test-key',
      AI_MAX_RETRIES: '0',
      SPEND_LEASE_MS: '1500',
    };
    a = await startServerProcess(env);
    b = await startServerProcess(env);
  }, 90_000);

  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await drop?.();
    await mock?.close();
  }, 30_000);

  it('the other instance releases the hold after the lease and bills the cut call as interrupted', async () => {
    const adminToken = await signIn(b.url, admin.email, admin.password);
    expect(
      (await call(b.url, 'POST', '/api/users/', adminToken, { ...ceo, user_level: 'ceo', first_name: 'Cy' }))
        .status,
    ).toBe(201);
    const ceoToken = await signIn(b.url, ceo.email, ceo.password);
    const org = (await call(b.url, 'POST', '/api/organizations', ceoToken, { name: 'Lease Co' })).json();
    // A turn reserves $1 (1,000 output tokens at $1,000 per million); the budget fits one at a time.
    const priced = await call(b.url, 'PUT', '/api/admin/model-prices', adminToken, {
      models: [{ model: 'gpt-5-chat', input_per_million_usd: 0, output_per_million_usd: 1000 }],
    });
    expect(priced.status, priced.text).toBe(200);
    const budget = await call(b.url, 'PUT', `/api/organizations/${org.id}/budget`, ceoToken, {
      monthly_usd: 1.5,
    });
    expect(budget.status, budget.text).toBe(200);

    const turn = async (base: string) => {
      const c = (await call(base, 'POST', '/api/conversations/', ceoToken, {})).json();
      return call(base, 'POST', `/api/conversations/${c.id}/chat`, ceoToken, { message_text: 'Hi there' });
    };
    // Instance A's call streams a little, then the model stalls and A is killed.
    mock.script({ kind: 'stall', chunks: ['Some words of an answer'] });
    const before = mock.chatRequests().length;
    const cut = turn(a.url).catch(() => null);
    await expect.poll(() => mock.chatRequests().length, { timeout: 10_000 }).toBe(before + 1);
    await new Promise((r) => setTimeout(r, 1_200)); // lease renewals record what streamed
    a.process.kill('SIGKILL');
    await cut;

    // B refuses while A's hold stands…
    const held = await turn(b.url);
    expect(held.status, held.text).toBe(429);
    // …and serves again once B's sweep has released it.
    mock.script(
      ...Array.from({ length: 20 }, () => ({
        kind: 'text' as const,
        chunks: ['ok'],
        usage: { prompt_tokens: 0, completion_tokens: 1 },
      })),
    );
    await expect.poll(async () => (await turn(b.url)).status, { timeout: 15_000, interval: 500 }).toBe(200);

    const csv = (await call(b.url, 'GET', '/api/usage/export?format=csv', adminToken)).text;
    const interrupted = csv.split('\n').filter((l) => l.endsWith(',interrupted'));
    expect(interrupted).toHaveLength(1);
    const head = csv.split('\n')[0].split(',');
    const cells = interrupted[0].split(',');
    const at = (name: string) => Number(cells[head.indexOf(name)]);
    // At least the prompt's estimate, and the words that had streamed.
    expect(at('input_tokens')).toBeGreaterThan(0);
    expect(at('output_tokens')).toBeGreaterThan(0);
    expect(cells[head.indexOf('organization_id')]).toBe(org.id);
  }, 60_000);
});
