import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError, type LanguageModelV3 } from '@ai-sdk/provider';
import { RetryError, type ToolSet, tool } from 'ai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type MockOpenAI, type MockStep, startMockOpenAI } from '../../test/mock-openai.ts';
import { providerFetch } from './net/provider-fetch.ts';
import { type ToolLoopInput, runToolLoop } from './tool-loop.ts';
import { UNTRUSTED_CLOSE, UNTRUSTED_OPEN, unwrapUntrusted } from './untrusted.ts';

/** A tool result as the model gets it: wrapped as untrusted data (issue 46 row 5). */
const wrapped = (tool: string, text: string) =>
  `${UNTRUSTED_OPEN}\n[result of the tool ${tool}]\n${text}\n${UNTRUSTED_CLOSE}`;

/** A tool that records the input it was run with. */
function lookupTool() {
  const runs: unknown[] = [];
  const lookup = tool({
    description: 'Search the workspace.',
    inputSchema: z.object({ query: z.string(), limit: z.number().int().default(5) }),
    execute: async (input) => {
      runs.push(input);
      return { hits: [`${input.query} task`] };
    },
  });
  return { lookup, runs };
}

interface SentMessage {
  role: string;
  content?: string;
  tool_call_id?: string;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
}

describe('runToolLoop against the mock OpenAI-compatible model over HTTP', () => {
  let mock: MockOpenAI;
  let model: LanguageModelV3;
  beforeAll(async () => {
    mock = await startMockOpenAI();
    // The provider as the app makes it (models.ts): the SDK's own stream over the app's fetch.
    model = createOpenAICompatible({
      name: 'mock',
      baseURL: mock.url,
      apiKey: 'k',
      includeUsage: true,
      fetch: providerFetch,
    }).chatModel('mock-model');
  });
  afterAll(async () => {
    await mock.close();
  });
  afterEach(() => {
    mock.requests.length = 0;
  });

  function run(extra: Partial<ToolLoopInput> = {}) {
    const deltas: string[] = [];
    const result = runToolLoop({
      model,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Hi' }],
      tools: {},
      maxSteps: 4,
      maxRetries: 2,
      abortSignal: new AbortController().signal,
      onText: (d) => deltas.push(d),
      ...extra,
    });
    return { result, deltas };
  }

  const sentMessages = (i: number) => (mock.chatRequests()[i].body?.messages ?? []) as SentMessage[];

  it('streams the reply to onText in order and returns its text and usage', async () => {
    mock.script({
      kind: 'text',
      chunks: ['Alpha ', 'beta ', 'gamma'],
      usage: { prompt_tokens: 21, completion_tokens: 4 },
    });
    const { result, deltas } = run();
    const done = await result;
    expect(done.text).toBe('Alpha beta gamma');
    expect(done.usage).toEqual({ inputTokens: 21, outputTokens: 4 });
    expect(deltas).toEqual(['Alpha ', 'beta ', 'gamma']);
    expect(sentMessages(0)).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
    ]);
    expect(mock.chatRequests()[0].body?.tools).toBeUndefined();
  });

  it('runs a tool with validated input, sends its result wrapped, and sums usage over the steps', async () => {
    const { lookup, runs } = lookupTool();
    mock.script(
      {
        kind: 'tool-calls',
        calls: [{ id: 'call_p', name: 'lookup', arguments: { query: 'pelican', limit: 2 } }],
      },
      {
        kind: 'text',
        chunks: ['The pelican task is open.'],
        usage: { prompt_tokens: 30, completion_tokens: 6 },
      },
    );
    const { result, deltas } = run({ tools: { lookup } });
    const done = await result;
    expect(done.usage).toEqual({ inputTokens: 11 + 30, outputTokens: 7 + 6 });
    expect(done.steps.flatMap((s) => s.toolResults.map((r) => [r.toolName, r.output]))).toEqual([
      ['lookup', { hits: ['pelican task'] }],
    ]);
    expect(deltas).toEqual(['The pelican task is open.']);
    expect(runs).toEqual([{ query: 'pelican', limit: 2 }]);
    const tools = (mock.chatRequests()[0].body?.tools ?? []) as { function: { name: string } }[];
    expect(tools.map((t) => t.function.name)).toEqual(['lookup']);
    expect(sentMessages(1).slice(2)).toMatchObject([
      {
        role: 'assistant',
        tool_calls: [
          { id: 'call_p', function: { name: 'lookup', arguments: '{"query":"pelican","limit":2}' } },
        ],
      },
      {
        role: 'tool',
        tool_call_id: 'call_p',
        content: wrapped('lookup', JSON.stringify({ hits: ['pelican task'] })),
      },
    ]);
  });

  it('hands invalid input, an unknown tool and a throwing tool back to the model as wrapped errors', async () => {
    const { lookup, runs } = lookupTool();
    const tools: ToolSet = {
      lookup,
      explode: tool({
        inputSchema: z.object({}),
        execute: async (): Promise<string> => {
          throw new Error('kaboom');
        },
      }),
    };
    mock.script(
      {
        kind: 'tool-calls',
        calls: [
          { id: 'c1', name: 'lookup', arguments: { query: 42 } },
          { id: 'c2', name: 'nope', arguments: {} },
          { id: 'c3', name: 'explode', arguments: {} },
        ],
      },
      { kind: 'text', chunks: ['Sorry, that failed.'] },
    );
    const { result, deltas } = run({ tools });
    const done = await result;
    expect(deltas).toEqual(['Sorry, that failed.']);
    expect(done.steps.flatMap((s) => s.toolResults)).toEqual([]);
    expect(runs).toEqual([]);
    expect(mock.chatRequests()).toHaveLength(2);
    const results = new Map(
      sentMessages(1)
        .filter((m) => m.role === 'tool')
        .map((m) => [m.tool_call_id, unwrapUntrusted(m.content ?? '')]),
    );
    expect([...results.keys()].sort()).toEqual(['c1', 'c2', 'c3']);
    expect(results.get('c1')).toMatch(/query/);
    expect(results.get('c2')).toMatch(/nope/);
    expect(results.get('c3')).toBe('kaboom');
  });

  it('calls the model at most maxSteps times', async () => {
    const { lookup } = lookupTool();
    const again: MockStep = { kind: 'tool-calls', calls: [{ name: 'lookup', arguments: { query: 'x' } }] };
    mock.script(again, again, again);
    // A fourth call would get the mock's default reply, and be counted.
    const done = await run({ tools: { lookup }, maxSteps: 3 }).result;
    expect(mock.chatRequests()).toHaveLength(3);
    expect(done.steps).toHaveLength(3);
  });

  it('retries 429 and 503 replies after their retry-after-ms, then streams the answer', async () => {
    mock.script(
      { kind: 'status', status: 429, message: 'Rate limit reached', headers: { 'retry-after-ms': '5' } },
      { kind: 'status', status: 503, headers: { 'retry-after-ms': '5' } },
      { kind: 'text', chunks: ['Recovered.'] },
    );
    const started = Date.now();
    const { result, deltas } = run({ maxRetries: 2 });
    await result;
    expect(deltas).toEqual(['Recovered.']);
    expect(mock.chatRequests()).toHaveLength(3);
    // Without Retry-After the SDK waits 2 s, then 4 s.
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('honours a Retry-After header in seconds', async () => {
    mock.script(
      { kind: 'status', status: 429, headers: { 'retry-after': '0.05' } },
      { kind: 'text', chunks: ['Later.'] },
    );
    const started = Date.now();
    const { result, deltas } = run({ maxRetries: 1 });
    await result;
    expect(deltas).toEqual(['Later.']);
    expect(mock.chatRequests()).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('gives up with a RetryError carrying the provider’s message', async () => {
    const failing: MockStep = {
      kind: 'status',
      status: 500,
      message: 'upstream exploded',
      headers: { 'retry-after-ms': '5' },
    };
    mock.script(failing, failing, failing);
    const err = await run({ maxRetries: 2 }).result.catch((e: unknown) => e);
    expect(RetryError.isInstance(err)).toBe(true);
    expect((err as Error).message).toBe('Failed after 3 attempts. Last error: upstream exploded');
    expect(mock.chatRequests()).toHaveLength(3);
  });

  it('a 400 is not retried', async () => {
    mock.script({ kind: 'status', status: 400, message: 'Invalid request' });
    const err = await run({ maxRetries: 2 }).result.catch((e: unknown) => e);
    expect(APICallError.isInstance(err)).toBe(true);
    expect((err as APICallError).statusCode).toBe(400);
    expect(mock.chatRequests()).toHaveLength(1);
  });

  it('an abort mid-stream rejects with the signal’s reason and closes the upstream request', async () => {
    mock.script({ kind: 'text', chunks: Array.from({ length: 40 }, (_, i) => `w${i} `), delayMs: 30 });
    const controller = new AbortController();
    const reason = new Error('the user left');
    const deltas: string[] = [];
    const { result } = run({
      abortSignal: controller.signal,
      onText: (d) => {
        deltas.push(d);
        if (deltas.length === 2) controller.abort(reason);
      },
    });
    await expect(result).rejects.toBe(reason);
    expect((await mock.waitForAbort(3000)).completed).toBe(false);
    expect(deltas.length).toBeLessThan(40);
  });

  it('an abort while waiting to retry rejects at once without calling the model again', async () => {
    mock.script({ kind: 'status', status: 429, headers: { 'retry-after-ms': '10000' } });
    const controller = new AbortController();
    const reason = new Error('gone');
    const started = Date.now();
    const { result } = run({ abortSignal: controller.signal, maxRetries: 2 });
    setTimeout(() => controller.abort(reason), 100);
    await expect(result).rejects.toBe(reason);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(mock.chatRequests()).toHaveLength(1);
  });
});
