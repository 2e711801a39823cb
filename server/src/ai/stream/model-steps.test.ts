import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import {
  APICallError,
  type LanguageModelV3,
  type LanguageModelV3CallOptions,
  type LanguageModelV3Prompt,
  type LanguageModelV3StreamPart,
} from '@ai-sdk/provider';
import { RetryError, type ToolSet, tool } from 'ai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type MockOpenAI, type MockStep, startMockOpenAI } from '../../../test/mock-openai.ts';
import { withLeanStream } from './compat-chat-stream.ts';
import { type ModelStepsInput, streamModelSteps } from './model-steps.ts';
import { UNTRUSTED_CLOSE, UNTRUSTED_OPEN, unwrapUntrusted } from '../untrusted.ts';

/** A tool result as the model gets it: wrapped as untrusted data (issue 46 row 5). */
const wrapped = (tool: string, text: string) =>
  `${UNTRUSTED_OPEN}\n[result of the tool ${tool}]\n${text}\n${UNTRUSTED_CLOSE}`;

type Part = LanguageModelV3StreamPart;

const text = (...deltas: string[]): Part[] => [
  { type: 'text-start', id: 't' },
  ...deltas.map((delta): Part => ({ type: 'text-delta', id: 't', delta })),
  { type: 'text-end', id: 't' },
];
const call = (toolCallId: string, toolName: string, input: string): Part => ({
  type: 'tool-call',
  toolCallId,
  toolName,
  input,
});
const finish = (
  input: number | undefined,
  output: number | undefined,
  unified: 'stop' | 'tool-calls' = 'stop',
): Part => ({
  type: 'finish',
  finishReason: { unified, raw: unified === 'stop' ? 'stop' : 'tool_calls' },
  usage: {
    inputTokens: { total: input, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: output, text: undefined, reasoning: undefined },
  },
});
const streamOf = (parts: Part[]) =>
  new ReadableStream<Part>({
    start(c) {
      c.enqueue({ type: 'stream-start', warnings: [] });
      for (const p of parts) c.enqueue(p);
      c.close();
    },
  });

interface SeenCall extends Omit<LanguageModelV3CallOptions, 'prompt'> {
  /** A copy of the prompt as it was when the model was called. */
  prompt: LanguageModelV3Prompt;
}

/**
 * A language model whose `doStream` answers call n (from 1) with `script(n)`: the parts of a stream,
 * a ReadableStream of parts, or a throw. Each call's options are recorded.
 */
function fakeModel(
  script: (n: number, options: LanguageModelV3CallOptions) => Part[] | ReadableStream<Part>,
) {
  const calls: SeenCall[] = [];
  const model: LanguageModelV3 = {
    specificationVersion: 'v3',
    provider: 'fake',
    modelId: 'fake-model',
    supportedUrls: {},
    doGenerate: async () => {
      throw new Error('not used');
    },
    doStream: async (options) => {
      calls.push({ ...options, prompt: structuredClone(options.prompt) });
      const out = script(calls.length, options);
      return { stream: Array.isArray(out) ? streamOf(out) : out };
    },
  };
  return { model, calls };
}

const rateLimited = (headers: Record<string, string>, statusCode = 429) =>
  new APICallError({
    message: 'Rate limited',
    url: 'http://model.test/chat/completions',
    requestBodyValues: {},
    statusCode,
    responseHeaders: headers,
    isRetryable: true,
  });

function run(model: LanguageModelV3, extra: Partial<ModelStepsInput> = {}) {
  const deltas: string[] = [];
  const result = streamModelSteps({
    model,
    system: 'Be brief.',
    messages: [{ role: 'user', content: 'Hi' }],
    tools: {},
    maxSteps: 5,
    maxRetries: 2,
    abortSignal: new AbortController().signal,
    onText: (d) => deltas.push(d),
    ...extra,
  });
  return { result, deltas };
}

/** A run whose reader aborts (with `reason`) once `after` deltas have arrived. */
function runAbortingAfter(model: LanguageModelV3, after: number, reason: Error) {
  const controller = new AbortController();
  const deltas: string[] = [];
  const { result } = run(model, {
    abortSignal: controller.signal,
    onText: (d) => {
      deltas.push(d);
      if (deltas.length === after) setTimeout(() => controller.abort(reason), 0);
    },
  });
  return { result, deltas };
}

/** A tool that records the input and options it was run with. */
function lookupTool() {
  const runs: { input: unknown; toolCallId: string; abortSignal?: AbortSignal }[] = [];
  const lookup = tool({
    description: 'Search the workspace.',
    inputSchema: z.object({ query: z.string(), limit: z.number().int().default(5) }),
    execute: async (input, options) => {
      runs.push({ input, toolCallId: options.toolCallId, abortSignal: options.abortSignal });
      return { hits: [`${input.query} task`] };
    },
  });
  return { lookup, runs };
}

describe('streamModelSteps with a scripted language model', () => {
  it('sends the system and history as the prompt and passes text deltas to onText in order', async () => {
    const { model, calls } = fakeModel(() => [...text('Hel', 'lo', '', ' there'), finish(12, 3)]);
    const controller = new AbortController();
    const { result, deltas } = run(model, {
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello!' },
        { role: 'user', content: 'Again?' },
      ],
      abortSignal: controller.signal,
      providerOptions: { offline: { task: 'chat' } },
    });
    expect(await result).toEqual({ usage: { inputTokens: 12, outputTokens: 3 }, toolResults: [] });
    expect(deltas).toEqual(['Hel', 'lo', ' there']);
    expect(calls).toHaveLength(1);
    expect(calls[0].prompt).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello!' }] },
      { role: 'user', content: [{ type: 'text', text: 'Again?' }] },
    ]);
    expect(calls[0].tools).toBeUndefined();
    expect(calls[0].toolChoice).toBeUndefined();
    expect(calls[0].providerOptions).toEqual({ offline: { task: 'chat' } });
    expect(calls[0].abortSignal).toBe(controller.signal);
  });

  it('leaves the system message out when there is none', async () => {
    const { model, calls } = fakeModel(() => [...text('ok'), finish(1, 1)]);
    await run(model, { system: '' }).result;
    expect(calls[0].prompt).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }]);
  });

  it('runs tool calls with validated input and sends the call and its result back to the model', async () => {
    const { lookup, runs } = lookupTool();
    const note = tool({
      description: 'Take a note.',
      inputSchema: z.object({ text: z.string() }),
      execute: async ({ text }) => `noted: ${text}`,
    });
    const { model, calls } = fakeModel((n) =>
      n === 1
        ? [
            ...text('Let me check.'),
            call('c1', 'lookup', '{"query":"pelican"}'),
            call('c2', 'note', '{"text":"x"}'),
            finish(10, 2, 'tool-calls'),
          ]
        : [...text('Found it.'), finish(20, 5)],
    );
    const controller = new AbortController();
    const { result, deltas } = run(model, { tools: { lookup, note }, abortSignal: controller.signal });
    expect(await result).toEqual({
      usage: { inputTokens: 30, outputTokens: 7 },
      toolResults: [
        { toolName: 'lookup', output: { hits: ['pelican task'] } },
        { toolName: 'note', output: 'noted: x' },
      ],
    });
    expect(deltas).toEqual(['Let me check.', 'Found it.']);
    // The schema's default shows the input was validated before the tool ran.
    expect(runs).toEqual([
      { input: { query: 'pelican', limit: 5 }, toolCallId: 'c1', abortSignal: controller.signal },
    ]);

    expect(calls).toHaveLength(2);
    expect(calls[0].toolChoice).toEqual({ type: 'auto' });
    expect(calls[0].tools).toEqual([
      {
        type: 'function',
        name: 'lookup',
        description: 'Search the workspace.',
        inputSchema: expect.objectContaining({
          type: 'object',
          properties: expect.objectContaining({ query: expect.objectContaining({ type: 'string' }) }),
        }),
      },
      expect.objectContaining({ type: 'function', name: 'note', description: 'Take a note.' }),
    ]);
    expect(calls[1].tools).toEqual(calls[0].tools);
    expect(calls[1].prompt.slice(0, 2)).toEqual(calls[0].prompt);
    expect(calls[1].prompt.slice(2)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me check.' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'lookup', input: { query: 'pelican', limit: 5 } },
          { type: 'tool-call', toolCallId: 'c2', toolName: 'note', input: { text: 'x' } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'lookup',
            // Tool results reach the model as untrusted data between the fixed delimiters.
            output: { type: 'text', value: wrapped('lookup', '{"hits":["pelican task"]}') },
          },
          {
            type: 'tool-result',
            toolCallId: 'c2',
            toolName: 'note',
            output: { type: 'text', value: wrapped('note', 'noted: x') },
          },
        ],
      },
    ]);
  });

  it('hands invalid input, unknown tools and failing tools back to the model as error results', async () => {
    const { lookup, runs } = lookupTool();
    const tools: ToolSet = {
      lookup,
      explode: tool({
        inputSchema: z.object({}),
        execute: async (): Promise<string> => {
          throw new Error('kaboom');
        },
      }),
      noExecute: tool({ inputSchema: z.object({}) }),
    };
    const { model, calls } = fakeModel((n) =>
      n === 1
        ? [
            call('c1', 'lookup', '{"query": 42}'),
            call('c2', 'nope', '{}'),
            call('c3', 'explode', '{}'),
            call('c4', 'lookup', '{"query": "unterminated'),
            call('c5', 'noExecute', ''),
            finish(4, 4, 'tool-calls'),
          ]
        : [...text('Sorry, that failed.'), finish(6, 3)],
    );
    const { result, deltas } = run(model, { tools });
    expect(await result).toEqual({ usage: { inputTokens: 10, outputTokens: 7 }, toolResults: [] });
    expect(deltas).toEqual(['Sorry, that failed.']);
    expect(runs).toEqual([]);
    expect(calls).toHaveLength(2);

    const toolMessage = calls[1].prompt.at(-1);
    expect(toolMessage?.role).toBe('tool');
    const outputs = new Map(
      (
        (toolMessage?.content ?? []) as { toolCallId: string; output: { type: string; value: unknown } }[]
      ).map((r) => [r.toolCallId, r.output]),
    );
    expect([...outputs.keys()]).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);
    const inner = new Map<string, string | null>();
    for (const [id, output] of outputs) {
      expect(output.type).toBe('error-text');
      expect(output.value).toEqual(expect.any(String));
      inner.set(id, unwrapUntrusted(output.value as string));
    }
    expect(inner.get('c1')).toMatch(/query/);
    expect(inner.get('c2')).toBe("Model tried to call unavailable tool 'nope'.");
    expect(inner.get('c3')).toBe('kaboom');
    expect(inner.get('c4')).toMatch(/JSON/i);
    expect(inner.get('c5')).toBe("Model tried to call unavailable tool 'noExecute'.");
  });

  it('calls the model at most maxSteps times', async () => {
    const { lookup, runs } = lookupTool();
    const { model, calls } = fakeModel((n) => [
      call(`c${n}`, 'lookup', '{"query":"again"}'),
      finish(1, 1, 'tool-calls'),
    ]);
    const out = await run(model, { tools: { lookup }, maxSteps: 3 }).result;
    expect(calls).toHaveLength(3);
    expect(runs).toHaveLength(3);
    expect(out.toolResults).toHaveLength(3);
    expect(out.usage).toEqual({ inputTokens: 3, outputTokens: 3 });
    // Each call carries the earlier rounds: system, user, then (assistant, tool) per round.
    expect(calls.map((c) => c.prompt.length)).toEqual([2, 4, 6]);

    const once = fakeModel(() => [call('c', 'lookup', '{"query":"x"}'), finish(1, 1, 'tool-calls')]);
    await run(once.model, { tools: { lookup }, maxSteps: 1 }).result;
    expect(once.calls).toHaveLength(1);
  });

  it('sums usage over the steps, skipping steps that report none', async () => {
    const { lookup } = lookupTool();
    const { model } = fakeModel((n) =>
      n === 1
        ? [call('c1', 'lookup', '{"query":"x"}'), finish(undefined, undefined, 'tool-calls')]
        : n === 2
          ? [call('c2', 'lookup', '{"query":"y"}'), finish(7, 2, 'tool-calls')]
          : [...text('done'), finish(5, undefined)],
    );
    expect((await run(model, { tools: { lookup } }).result).usage).toEqual({
      inputTokens: 12,
      outputTokens: 2,
    });

    const silent = fakeModel(() => [...text('no usage'), finish(undefined, undefined)]);
    expect((await run(silent.model).result).usage).toEqual({
      inputTokens: undefined,
      outputTokens: undefined,
    });
  });

  it('retries a retryable APICallError after its retry-after-ms, then succeeds', async () => {
    const { model, calls } = fakeModel((n) => {
      if (n < 3) throw rateLimited({ 'retry-after-ms': '5' });
      return [...text('Recovered.'), finish(3, 1)];
    });
    const started = Date.now();
    const { result, deltas } = run(model, { maxRetries: 2 });
    expect((await result).usage).toEqual({ inputTokens: 3, outputTokens: 1 });
    expect(deltas).toEqual(['Recovered.']);
    expect(calls).toHaveLength(3);
    // Not the 2 s + 4 s exponential backoff.
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('honours a retry-after header in seconds', async () => {
    const { model, calls } = fakeModel((n) => {
      if (n === 1) throw rateLimited({ 'retry-after': '0' }, 503);
      return [...text('ok'), finish(1, 1)];
    });
    const started = Date.now();
    await run(model, { maxRetries: 1 }).result;
    expect(calls).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('throws a non-retryable error at once', async () => {
    const badRequest = new APICallError({
      message: 'Invalid tool schema',
      url: 'http://model.test/chat/completions',
      requestBodyValues: {},
      statusCode: 400,
      isRetryable: false,
    });
    const first = fakeModel(() => {
      throw badRequest;
    });
    await expect(run(first.model, { maxRetries: 3 }).result).rejects.toBe(badRequest);
    expect(first.calls).toHaveLength(1);

    const plain = new Error('not an API error');
    const second = fakeModel(() => {
      throw plain;
    });
    await expect(run(second.model, { maxRetries: 3 }).result).rejects.toBe(plain);
    expect(second.calls).toHaveLength(1);
  });

  it('throws a RetryError when the retries are used up', async () => {
    const { model, calls } = fakeModel(() => {
      throw rateLimited({ 'retry-after-ms': '5' });
    });
    const err = await run(model, { maxRetries: 2 }).result.catch((e: unknown) => e);
    expect(RetryError.isInstance(err)).toBe(true);
    expect((err as RetryError).message).toBe('Failed after 3 attempts. Last error: Rate limited');
    expect((err as RetryError).reason).toBe('maxRetriesExceeded');
    expect((err as RetryError).errors).toHaveLength(3);
    expect(calls).toHaveLength(3);
  });

  it('rejects with the error of an error part, after the text before it', async () => {
    const broke = new Error('model broke');
    const { lookup, runs } = lookupTool();
    const { model, calls } = fakeModel(() => [
      ...text('partial'),
      call('c1', 'lookup', '{"query":"x"}'),
      { type: 'error', error: broke },
      finish(1, 1, 'tool-calls'),
    ]);
    const { result, deltas } = run(model, { tools: { lookup } });
    await expect(result).rejects.toBe(broke);
    expect(deltas).toEqual(['partial']);
    expect(calls).toHaveLength(1);
    expect(runs).toEqual([]);
  });

  it('an abort mid-stream rejects with the signal’s reason and stops reading the stream', async () => {
    let pulls = 0;
    let cancelled = false;
    const endless = () =>
      new ReadableStream<Part>(
        {
          async pull(c) {
            pulls++;
            await new Promise((r) => setTimeout(r, 5));
            c.enqueue({ type: 'text-delta', id: 't', delta: `w${pulls} ` });
          },
          cancel() {
            cancelled = true;
          },
        },
        { highWaterMark: 0 },
      );
    const { model } = fakeModel(endless);
    const reason = new Error('the user left');
    const { result, deltas } = runAbortingAfter(model, 3, reason);
    await expect(result).rejects.toBe(reason);
    expect(cancelled).toBe(true);
    const seen = pulls;
    await new Promise((r) => setTimeout(r, 50));
    expect(pulls).toBe(seen);
    expect(deltas.length).toBeGreaterThanOrEqual(3);
    expect(deltas.length).toBeLessThan(10);
  });

  it('an abort while waiting to retry rejects at once without calling the model again', async () => {
    const { model, calls } = fakeModel(() => {
      throw rateLimited({ 'retry-after-ms': '10000' });
    });
    const controller = new AbortController();
    const started = Date.now();
    const { result } = run(model, { abortSignal: controller.signal, maxRetries: 2 });
    const reason = new Error('gone');
    setTimeout(() => controller.abort(reason), 30);
    await expect(result).rejects.toBe(reason);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(calls).toHaveLength(1);
  });
});

describe('streamModelSteps through withLeanStream and the mock OpenAI-compatible server', () => {
  let mock: MockOpenAI;
  let model: LanguageModelV3;
  beforeAll(async () => {
    mock = await startMockOpenAI();
    const provider = createOpenAICompatible({
      name: 'mock',
      baseURL: mock.url,
      apiKey: 'k',
      includeUsage: true,
    });
    model = withLeanStream(provider.chatModel('mock-model'));
  });
  afterAll(async () => {
    await mock.close();
  });
  afterEach(() => {
    mock.requests.length = 0;
  });

  it('streams the reply to onText and returns its usage', async () => {
    mock.script({
      kind: 'text',
      chunks: ['Alpha ', 'beta ', 'gamma'],
      usage: { prompt_tokens: 21, completion_tokens: 4 },
    });
    const { result, deltas } = run(model);
    expect(await result).toEqual({ usage: { inputTokens: 21, outputTokens: 4 }, toolResults: [] });
    expect(deltas).toEqual(['Alpha ', 'beta ', 'gamma']);
    const body = mock.chatRequests()[0].body as { messages: unknown[]; tools?: unknown };
    expect(body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
    ]);
    expect(body.tools).toBeUndefined();
  });

  it('runs a tool the model calls and sends its result in the next request', async () => {
    const { lookup, runs } = lookupTool();
    mock.script(
      {
        kind: 'tool-calls',
        calls: [{ id: 'call_p', name: 'lookup', arguments: { query: 'pelican', limit: 2 } }],
      },
      { kind: 'text', chunks: ['The pelican task is open.'] },
    );
    const { result, deltas } = run(model, { tools: { lookup } });
    expect(await result).toEqual({
      usage: { inputTokens: 22, outputTokens: 14 },
      toolResults: [{ toolName: 'lookup', output: { hits: ['pelican task'] } }],
    });
    expect(deltas).toEqual(['The pelican task is open.']);
    expect(runs.map((r) => r.input)).toEqual([{ query: 'pelican', limit: 2 }]);
    const [first, second] = mock.chatRequests();
    expect(
      ((first.body?.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name),
    ).toEqual(['lookup']);
    expect(((second.body?.messages ?? []) as unknown[]).slice(2)).toMatchObject([
      {
        role: 'assistant',
        tool_calls: [
          {
            id: 'call_p',
            type: 'function',
            function: { name: 'lookup', arguments: JSON.stringify({ query: 'pelican', limit: 2 }) },
          },
        ],
      },
      {
        role: 'tool',
        tool_call_id: 'call_p',
        content: wrapped('lookup', JSON.stringify({ hits: ['pelican task'] })),
      },
    ]);
  });

  it('retries 429 and 503 replies after their retry-after-ms, then streams the answer', async () => {
    mock.script(
      { kind: 'status', status: 429, message: 'Rate limit reached', headers: { 'retry-after-ms': '5' } },
      { kind: 'status', status: 503, headers: { 'retry-after-ms': '5' } },
      { kind: 'text', chunks: ['Recovered.'] },
    );
    const started = Date.now();
    const { result, deltas } = run(model, { maxRetries: 2 });
    await result;
    expect(deltas).toEqual(['Recovered.']);
    expect(mock.chatRequests()).toHaveLength(3);
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
    const err = await run(model, { maxRetries: 2 }).result.catch((e: unknown) => e);
    expect(RetryError.isInstance(err)).toBe(true);
    expect((err as Error).message).toBe('Failed after 3 attempts. Last error: upstream exploded');
    expect(mock.chatRequests()).toHaveLength(3);
  });

  it('a 400 is not retried', async () => {
    mock.script({ kind: 'status', status: 400, message: 'Invalid request' });
    const err = await run(model, { maxRetries: 2 }).result.catch((e: unknown) => e);
    expect(APICallError.isInstance(err)).toBe(true);
    expect((err as APICallError).statusCode).toBe(400);
    expect(mock.chatRequests()).toHaveLength(1);
  });

  it('an abort mid-stream rejects with the signal’s reason and closes the upstream request', async () => {
    mock.script({ kind: 'text', chunks: Array.from({ length: 40 }, (_, i) => `w${i} `), delayMs: 30 });
    const reason = new Error('the user left');
    const { result, deltas } = runAbortingAfter(model, 2, reason);
    await expect(result).rejects.toBe(reason);
    expect((await mock.waitForAbort(3000)).completed).toBe(false);
    expect(deltas.length).toBeLessThan(40);
  });
});
