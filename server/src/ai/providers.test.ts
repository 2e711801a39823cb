import { generateText, streamText } from 'ai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../test/helpers.ts';
import { type MockOpenAI, startMockOpenAI } from '../../test/mock-openai.ts';
import type { AuthUser } from '../platform/auth/authenticate.ts';
import { AssistantTurnError, streamAssistantTurn } from './assistant.ts';
import { resolveModel, resolveModelFresh } from './models.ts';

/** These calls are made for no one: metered (where an app context meters) to no user. */
const NO_USER = { userId: null, organizationId: null };

const authUser = (u: TestUser): AuthUser => ({
  id: u.id,
  email: u.email,
  first_name: 'Pat',
  last_name: 'Tester',
  user_level: u.user_level,
  organization_id: null,
});

apiSuite('AI providers against the mock OpenAI-compatible server', () => {
  let mock: MockOpenAI;
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    mock = await startMockOpenAI({ models: ['mock-model', 'gpt-5-chat'] });
    t = await createTestApp({
      OPENAI_BASE_URL: mock.url,
      AI_STREAM_IDLE_TIMEOUT_MS: '400',
      AI_MAX_RETRIES: '2',
    });
    user = await t.createUser('ceo');
    // An endpoint model is callable once an administrator offers it (issue 46 row 13).
    const admin = await t.createUser('admin');
    const offered = await t.req({
      method: 'PUT',
      url: '/api/admin/model-prices',
      token: admin.token,
      body: { models: [], offered_models: ['mock-model'] },
    });
    if (offered.statusCode !== 200) throw new Error(offered.body);
  });
  afterAll(async () => {
    await t.close();
    await mock.close();
  });
  afterEach(() => {
    mock.requests.length = 0;
  });

  const turn = (extra: Partial<Parameters<typeof streamAssistantTurn>[0]> = {}) =>
    streamAssistantTurn({
      ctx: t.ctx,
      user: authUser(user),
      history: [],
      message: 'Hello?',
      useMemory: false,
      useInternalSearch: false,
      useInternet: false,
      ...extra,
    });

  it('resolves spec and endpoint models to the endpoint; unknown ids are 422', async () => {
    expect(resolveModel(t.ctx, 'gpt-5-chat', NO_USER).engine).toBe('openai-compatible');
    expect((await resolveModelFresh(t.ctx, 'mock-model', NO_USER)).id).toBe('mock-model');
    await expect(resolveModelFresh(t.ctx, 'no-such-model', NO_USER)).rejects.toMatchObject({
      statusCode: 422,
    });
    const res = await t.req({ method: 'GET', url: '/api/models', token: user.token });
    expect(res.statusCode).toBe(200);
    const list = res.json() as { id: string; engine: string; available: boolean; is_default: boolean }[];
    expect(list.map((m) => m.id)).toEqual([
      'gpt-5-chat',
      'gpt-5',
      'gpt-5-mini',
      'gemini-2.5-pro',
      'mock-model',
    ]);
    expect(list.find((m) => m.id === 'gpt-5-chat')).toMatchObject({
      engine: 'openai-compatible',
      is_default: true,
    });
    expect(list.find((m) => m.id === 'gemini-2.5-pro')?.engine).toBe('offline');
  });

  it('streams chunk by chunk as the model sends them, with token usage', async () => {
    mock.script({
      kind: 'text',
      chunks: ['Alpha ', 'beta ', 'gamma ', 'delta'],
      delayMs: 120,
      usage: { prompt_tokens: 21, completion_tokens: 4 },
    });
    const started = Date.now();
    const turnRes = await turn({ modelId: 'mock-model' });
    const arrivals: { delta: string; at: number }[] = [];
    for await (const delta of turnRes.textStream) arrivals.push({ delta, at: Date.now() - started });
    expect(arrivals.map((a) => a.delta)).toEqual(['Alpha ', 'beta ', 'gamma ', 'delta']);
    // The first chunk reached us long before the model had sent the last one.
    expect(arrivals[3].at - arrivals[0].at).toBeGreaterThanOrEqual(250);
    const result = await turnRes.result;
    expect(result).toMatchObject({
      text: 'Alpha beta gamma delta',
      engine: 'openai-compatible',
      model: 'mock-model',
      usage: { inputTokens: 21, outputTokens: 4 },
      aborted: false,
    });
    const sent = mock.chatRequests()[0].body as {
      model: string;
      stream: boolean;
      messages: { role: string; content: string }[];
    };
    expect(sent.model).toBe('mock-model');
    expect(sent.stream).toBe(true);
    expect(sent.messages.at(-1)).toMatchObject({ role: 'user', content: 'Hello?' });
  });

  it('aborting the turn aborts the upstream request', async () => {
    mock.script({ kind: 'text', chunks: Array.from({ length: 30 }, (_, i) => `w${i} `), delayMs: 100 });
    const controller = new AbortController();
    const r = await turn({ modelId: 'mock-model', abortSignal: controller.signal });
    const got: string[] = [];
    for await (const d of r.textStream) {
      got.push(d);
      if (got.length === 2) controller.abort();
    }
    const aborted = await mock.waitForAbort(3000);
    expect(aborted.completed).toBe(false);
    const result = await r.result;
    expect(result.aborted).toBe(true);
    expect(result.text.startsWith('w0 w1 ')).toBe(true);
    expect(got.length).toBeLessThan(30);
  });

  it('a consumer that stops reading aborts the upstream request too', async () => {
    mock.script({ kind: 'text', chunks: Array.from({ length: 30 }, (_, i) => `w${i} `), delayMs: 100 });
    const r = await turn({ modelId: 'mock-model' });
    for await (const _ of r.textStream) break;
    expect((await mock.waitForAbort(3000)).completed).toBe(false);
    expect((await r.result).aborted).toBe(true);
  });

  it('retries a 429 (honouring Retry-After) and then succeeds', async () => {
    mock.script(
      { kind: 'status', status: 429, message: 'Rate limit reached', headers: { 'retry-after-ms': '20' } },
      { kind: 'status', status: 503, headers: { 'retry-after-ms': '20' } },
      { kind: 'text', chunks: ['Recovered.'] },
    );
    const r = await turn({ modelId: 'mock-model' });
    expect((await r.result).text).toBe('Recovered.');
    expect(mock.chatRequests()).toHaveLength(3);
  });

  it('a 500 that persists gives a failure with the provider message', async () => {
    mock.script(
      { kind: 'status', status: 500, message: 'upstream exploded', headers: { 'retry-after-ms': '5' } },
      { kind: 'status', status: 500, message: 'upstream exploded', headers: { 'retry-after-ms': '5' } },
      { kind: 'status', status: 500, message: 'upstream exploded', headers: { 'retry-after-ms': '5' } },
    );
    const r = await turn({ modelId: 'mock-model' });
    await expect(r.result).rejects.toBeInstanceOf(AssistantTurnError);
    await expect(r.result).rejects.toThrow(/upstream exploded/);
    await expect(
      (async () => {
        for await (const _ of r.textStream) {
          // drain
        }
      })(),
    ).rejects.toThrow(/upstream exploded/);
    expect(mock.chatRequests()).toHaveLength(3);
  });

  it('a stalled stream times out after AI_STREAM_IDLE_TIMEOUT_MS and the upstream request is aborted', async () => {
    mock.script({ kind: 'stall', chunks: ['Partial '] });
    const started = Date.now();
    const r = await turn({ modelId: 'mock-model' });
    const err = await r.result.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AssistantTurnError);
    expect((err as AssistantTurnError).message).toMatch(/stopped responding/);
    expect((err as AssistantTurnError).partialText).toBe('Partial ');
    expect(Date.now() - started).toBeLessThan(5000);
    expect((await mock.waitForAbort(3000)).completed).toBe(false);
  });

  it('runs tool calls from a real provider with the invoking user identity', async () => {
    const create = await t.req({
      method: 'POST',
      url: '/api/tasks/',
      token: user.token,
      body: { title: 'Negotiate the pelican contract' },
    });
    expect(create.statusCode).toBe(201);
    mock.script(
      { kind: 'tool-calls', calls: [{ name: 'internal_search', arguments: { query: 'pelican' } }] },
      { kind: 'text', chunks: ['The pelican task is open.'] },
    );
    const r = await turn({ modelId: 'mock-model', useInternalSearch: true, message: 'pelican?' });
    const result = await r.result;
    expect(result.text).toBe('The pelican task is open.');
    expect(result.sources).toEqual([
      { type: 'task', id: create.json().id, title: 'Negotiate the pelican contract' },
    ]);
    const [first, second] = mock.chatRequests();
    const tools = ((first.body?.tools ?? []) as { function: { name: string } }[])
      .map((x) => x.function.name)
      .sort();
    expect(tools).toEqual(['internal_search', 'workspace_snapshot']);
    expect(JSON.stringify(second.body?.messages)).toContain('Negotiate the pelican contract');
  });

  it('generateText (non-streaming) goes through the same registry', async () => {
    mock.script({ kind: 'text', chunks: ['Plain answer.'] });
    const { model } = resolveModel(t.ctx, 'mock-model', NO_USER);
    const res = await generateText({ model, prompt: 'hi' });
    expect(res.text).toBe('Plain answer.');
    expect(res.usage.inputTokens).toBe(11);
  });
});

describe('timeouts wrapper', () => {
  it('fails a stalled streamText with the idle timeout', async () => {
    const mock = await startMockOpenAI();
    try {
      const { loadConfig } = await import('../config.ts');
      const config = loadConfig({
        OPENAI_BASE_URL: mock.url,
        AI_STREAM_IDLE_TIMEOUT_MS: '200',
        JWT_SECRET: 'x'.repeat(40),
      });
      mock.script({ kind: 'stall' });
      const { model } = resolveModel({ config }, 'mock-model', NO_USER);
      const r = streamText({ model, prompt: 'hi', maxRetries: 0, onError: () => {} });
      const parts: string[] = [];
      // Depending on where the error surfaces, it is an error part or the stream throws.
      try {
        for await (const p of r.fullStream)
          if (p.type === 'error') parts.push(String((p.error as Error).message));
      } catch (err) {
        parts.push((err as Error).message);
      }
      expect(parts.join()).toMatch(/stopped responding/);
      expect((await mock.waitForAbort(2000)).completed).toBe(false);
    } finally {
      await mock.close();
    }
  });
});

describe('endpoint model mapping', () => {
  it('serves a spec id the endpoint lacks by its alias, else by its first model', async () => {
    const mock = await startMockOpenAI({ models: ['llama3.2', 'gpt-5-chat-latest'] });
    try {
      const { loadConfig } = await import('../config.ts');
      const config = loadConfig({ OPENAI_BASE_URL: mock.url, JWT_SECRET: 'x'.repeat(40) });
      expect((await resolveModelFresh({ config }, 'gpt-5-chat', NO_USER)).id).toBe('gpt-5-chat-latest');
      expect((await resolveModelFresh({ config }, 'gpt-5-mini', NO_USER)).id).toBe('llama3.2');
      expect((await resolveModelFresh({ config }, 'llama3.2', NO_USER)).engine).toBe('openai-compatible');
      expect((await resolveModelFresh({ config }, 'gemini-2.5-pro', NO_USER)).engine).toBe('offline');
    } finally {
      await mock.close();
    }
  });
});
