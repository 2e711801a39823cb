import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import {
  APICallError,
  type LanguageModelV3,
  type LanguageModelV3CallOptions,
  type LanguageModelV3StreamPart,
} from '@ai-sdk/provider';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type MockOpenAI, type MockStep, startMockOpenAI } from '../../../test/mock-openai.ts';
import { withLeanStream } from './compat-chat-stream.ts';

async function readAll(
  stream: ReadableStream<LanguageModelV3StreamPart>,
): Promise<LanguageModelV3StreamPart[]> {
  const parts: LanguageModelV3StreamPart[] = [];
  for await (const p of stream) parts.push(p);
  return parts;
}

const ofType = <T extends LanguageModelV3StreamPart['type']>(parts: LanguageModelV3StreamPart[], type: T) =>
  parts.filter((p): p is Extract<LanguageModelV3StreamPart, { type: T }> => p.type === type);

/** What a call rejected with (the test fails if it resolved). */
async function rejection(call: PromiseLike<unknown>): Promise<unknown> {
  try {
    await call;
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail');
}

const userPrompt = (text: string): LanguageModelV3CallOptions => ({
  prompt: [{ role: 'user', content: [{ type: 'text', text }] }],
});

/** A call with everything that shapes the request body: system message, history, tools, settings. */
const fullCall = (): LanguageModelV3CallOptions => ({
  prompt: [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: [{ type: 'text', text: 'Find the pelican task.' }] },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Searching.' },
        { type: 'tool-call', toolCallId: 'call_1', toolName: 'lookup', input: { query: 'pelican' } },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'call_1',
          toolName: 'lookup',
          output: { type: 'json', value: { hits: ['Negotiate the pelican contract'] } },
        },
      ],
    },
    { role: 'user', content: [{ type: 'text', text: 'And now?' }] },
  ],
  tools: [
    {
      type: 'function',
      name: 'lookup',
      description: 'Search the workspace.',
      inputSchema: {
        type: 'object',
        properties: { query: { type: 'string' }, limit: { type: 'number' } },
        required: ['query'],
        additionalProperties: false,
      },
    },
  ],
  toolChoice: { type: 'auto' },
  temperature: 0.3,
  maxOutputTokens: 200,
  headers: { 'X-Trace-Id': 'trace-42' },
});

describe('withLeanStream against the mock OpenAI-compatible server', () => {
  let mock: MockOpenAI;
  let provider: ReturnType<typeof createOpenAICompatible>;
  let lean: LanguageModelV3;

  beforeAll(async () => {
    mock = await startMockOpenAI();
    provider = createOpenAICompatible({
      name: 'mock',
      baseURL: mock.url,
      apiKey: 'test-key',
      includeUsage: true,
    });
    lean = withLeanStream(provider.chatModel('mock-model'));
  });
  afterAll(async () => {
    await mock.close();
  });
  afterEach(() => {
    mock.requests.length = 0;
  });

  it('wraps the SDK model: a new model with the same id, and the SDK’s own doGenerate', async () => {
    const sdk = provider.chatModel('mock-model');
    const wrapped = withLeanStream(sdk);
    expect(wrapped).not.toBe(sdk);
    expect(wrapped).toMatchObject({
      specificationVersion: 'v3',
      provider: sdk.provider,
      modelId: 'mock-model',
    });

    mock.script({ kind: 'text', chunks: ['Plain ', 'answer.'] });
    const res = await wrapped.doGenerate(userPrompt('hi'));
    expect(res.content).toEqual([{ type: 'text', text: 'Plain answer.' }]);
    expect(res.usage.inputTokens.total).toBe(11);
    expect(mock.chatRequests()[0].body?.stream).toBeUndefined();
  });

  it('sends the request body the SDK’s own doStream sends (messages, tools, stream options)', async () => {
    const sdk = provider.chatModel('mock-model');
    await readAll((await sdk.doStream(fullCall())).stream);
    const leanResult = await lean.doStream(fullCall());
    await readAll(leanResult.stream);

    const [viaSdk, viaLean] = mock.chatRequests();
    expect(viaLean.body).toEqual(viaSdk.body);
    expect(leanResult.request?.body).toEqual(viaSdk.body);
    const body = viaLean.body as {
      model: string;
      stream: boolean;
      stream_options: unknown;
      messages: { role: string }[];
      tools: { type: string; function: { name: string } }[];
      temperature: number;
      max_tokens: number;
    };
    expect(body.model).toBe('mock-model');
    expect(body.stream).toBe(true);
    expect(body.stream_options).toEqual({ include_usage: true });
    expect(body.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'user']);
    expect(body.messages[0]).toEqual({ role: 'system', content: 'You are terse.' });
    expect(body.tools.map((t) => t.function.name)).toEqual(['lookup']);
    expect(body.temperature).toBe(0.3);
    expect(body.max_tokens).toBe(200);

    // The provider's key and the call's own headers go with it.
    expect(viaLean.headers.authorization).toBe('Bearer test-key');
    expect(viaLean.headers['content-type']).toBe('application/json');
    expect(viaLean.headers['x-trace-id']).toBe('trace-42');
  });

  it('leaves stream_options out, as the SDK does, when the provider does not include usage', async () => {
    const plain = createOpenAICompatible({ name: 'plain', baseURL: mock.url, apiKey: 'k' });
    await readAll((await plain.chatModel('mock-model').doStream(userPrompt('hi'))).stream);
    await readAll((await withLeanStream(plain.chatModel('mock-model')).doStream(userPrompt('hi'))).stream);
    const [viaSdk, viaLean] = mock.chatRequests();
    expect(viaLean.body).toEqual(viaSdk.body);
    expect(viaLean.body).not.toHaveProperty('stream_options');
    expect(viaLean.body?.stream).toBe(true);
  });

  it('maps a text reply to text parts in order, then finish with usage and reason', async () => {
    mock.script({
      kind: 'text',
      chunks: ['Alpha ', 'beta ', 'gamma'],
      usage: { prompt_tokens: 21, completion_tokens: 4 },
    });
    const { stream, response } = await lean.doStream(userPrompt('hi'));
    expect(response?.headers?.['content-type']).toBe('text/event-stream');
    const parts = await readAll(stream);
    expect(parts.map((p) => p.type)).toEqual([
      'stream-start',
      'response-metadata',
      'text-start',
      'text-delta',
      'text-delta',
      'text-delta',
      'text-end',
      'finish',
    ]);
    expect(parts[0]).toEqual({ type: 'stream-start', warnings: [] });
    expect(parts[1]).toMatchObject({
      type: 'response-metadata',
      id: expect.stringMatching(/^chatcmpl-\d+$/),
      modelId: 'mock-model',
    });
    expect((parts[1] as { timestamp?: Date }).timestamp).toBeInstanceOf(Date);
    expect(ofType(parts, 'text-delta')).toEqual([
      { type: 'text-delta', id: 'txt-0', delta: 'Alpha ' },
      { type: 'text-delta', id: 'txt-0', delta: 'beta ' },
      { type: 'text-delta', id: 'txt-0', delta: 'gamma' },
    ]);
    expect(parts[2]).toEqual({ type: 'text-start', id: 'txt-0' });
    expect(parts[6]).toEqual({ type: 'text-end', id: 'txt-0' });
    const [finish] = ofType(parts, 'finish');
    expect(finish.finishReason).toEqual({ unified: 'stop', raw: 'stop' });
    expect(finish.usage.inputTokens.total).toBe(21);
    expect(finish.usage.outputTokens.total).toBe(4);
  });

  it('gives the same text, usage and finish as the SDK’s own stream', async () => {
    const reply: MockStep = {
      kind: 'text',
      chunks: ['One', ' two'],
      usage: { prompt_tokens: 5, completion_tokens: 2 },
    };
    mock.script(reply, reply);
    const sdkParts = await readAll((await provider.chatModel('mock-model').doStream(userPrompt('x'))).stream);
    const leanParts = await readAll((await lean.doStream(userPrompt('x'))).stream);
    const strip = (parts: LanguageModelV3StreamPart[]) => parts.filter((p) => p.type !== 'response-metadata');
    expect(strip(leanParts)).toEqual(strip(sdkParts));
  });

  it('assembles tool calls from argument chunks split across events, in index order', async () => {
    mock.script({
      kind: 'tool-calls',
      calls: [
        { id: 'call_a', name: 'lookup', arguments: { query: 'pelican contract', limit: 3 } },
        { id: 'call_b', name: 'snapshot', arguments: { scope: 'tasks' } },
      ],
    });
    const parts = await readAll((await lean.doStream(fullCall())).stream);
    expect(ofType(parts, 'tool-call')).toEqual([
      {
        type: 'tool-call',
        toolCallId: 'call_a',
        toolName: 'lookup',
        input: JSON.stringify({ query: 'pelican contract', limit: 3 }),
      },
      {
        type: 'tool-call',
        toolCallId: 'call_b',
        toolName: 'snapshot',
        input: JSON.stringify({ scope: 'tasks' }),
      },
    ]);
    expect(ofType(parts, 'text-start')).toEqual([]);
    expect(parts.at(-1)).toMatchObject({
      type: 'finish',
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    });
    expect(ofType(parts, 'error')).toEqual([]);
  });

  it('a 429 throws a retryable APICallError with the response headers', async () => {
    mock.script({
      kind: 'status',
      status: 429,
      message: 'Rate limit reached',
      headers: { 'retry-after-ms': '250' },
    });
    const err = await rejection(lean.doStream(userPrompt('hi')));
    expect(APICallError.isInstance(err)).toBe(true);
    const e = err as APICallError;
    expect(e.statusCode).toBe(429);
    expect(e.isRetryable).toBe(true);
    expect(e.message).toBe('Rate limit reached');
    expect(e.responseHeaders?.['retry-after-ms']).toBe('250');
    expect(e.url).toBe(`${mock.url}/chat/completions`);
    expect((e.requestBodyValues as { stream?: boolean }).stream).toBe(true);
  });

  it('a 5xx is retryable and a 400 is not, each with the provider’s message', async () => {
    mock.script(
      { kind: 'status', status: 503, message: 'Overloaded' },
      { kind: 'status', status: 400, message: 'Invalid tool schema' },
    );
    const unavailable = await rejection(lean.doStream(userPrompt('hi')));
    expect(unavailable).toMatchObject({ statusCode: 503, isRetryable: true, message: 'Overloaded' });
    const bad = await rejection(lean.doStream(userPrompt('hi')));
    expect(APICallError.isInstance(bad)).toBe(true);
    expect(bad).toMatchObject({ statusCode: 400, isRetryable: false, message: 'Invalid tool schema' });
  });

  it('a refused connection throws a retryable APICallError', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const model = withLeanStream(
      createOpenAICompatible({ name: 'gone', baseURL: `http://127.0.0.1:${port}/v1` }).chatModel('m'),
    );
    const err = await rejection(model.doStream(userPrompt('hi')));
    expect(APICallError.isInstance(err)).toBe(true);
    expect((err as APICallError).isRetryable).toBe(true);
    expect((err as APICallError).message).toMatch(/^Cannot connect to API/);
    expect((err as APICallError).url).toBe(`http://127.0.0.1:${port}/v1/chat/completions`);
  });

  it('an abort mid-stream errors the stream and closes the upstream request', async () => {
    mock.script({ kind: 'text', chunks: Array.from({ length: 40 }, (_, i) => `w${i} `), delayMs: 30 });
    const controller = new AbortController();
    const { stream } = await lean.doStream({ ...userPrompt('hi'), abortSignal: controller.signal });
    const reader = stream.getReader();
    const deltas: string[] = [];
    const failure = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return undefined;
        if (value.type === 'text-delta') {
          deltas.push(value.delta);
          if (deltas.length === 2) controller.abort();
        }
      }
    })().catch((e: unknown) => e);
    const err = await failure;
    expect(err).toMatchObject({ name: 'AbortError' });
    expect(deltas.length).toBeLessThan(40);
    const seen = await mock.waitForAbort(3000);
    expect(seen.completed).toBe(false);
  });

  it('a consumer that cancels the stream closes the upstream request', async () => {
    mock.script({ kind: 'text', chunks: Array.from({ length: 40 }, (_, i) => `w${i} `), delayMs: 30 });
    const { stream } = await lean.doStream(userPrompt('hi'));
    const reader = stream.getReader();
    for (;;) {
      const { value } = await reader.read();
      if (value?.type === 'text-delta') break;
    }
    await reader.cancel();
    expect((await mock.waitForAbort(3000)).completed).toBe(false);
  });

  it('a reader that falls behind still gets every delta, in order', async () => {
    const chunks = Array.from({ length: 400 }, (_, i) => `${i},`);
    mock.script({ kind: 'text', chunks });
    const { stream } = await lean.doStream(userPrompt('hi'));
    const reader = stream.getReader();
    const deltas: string[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (value.type === 'text-delta') deltas.push(value.delta);
      // Let the socket run ahead of the reader.
      if (deltas.length % 50 === 1) await new Promise((r) => setTimeout(r, 20));
    }
    expect(deltas).toEqual(chunks);
  });

  it('returns a model without the SDK internals unchanged', () => {
    const plain: LanguageModelV3 = {
      specificationVersion: 'v3',
      provider: 'fake',
      modelId: 'fake-model',
      supportedUrls: {},
      doGenerate: async () => {
        throw new Error('unused');
      },
      doStream: async () => {
        throw new Error('unused');
      },
    };
    expect(withLeanStream(plain)).toBe(plain);
  });
});

/**
 * Reply shapes the mock does not produce, from a loopback server answering `/chat/completions`
 * with the SSE body written for the requested model id.
 */
describe('withLeanStream against hand-written SSE replies', () => {
  let server: http.Server;
  let provider: ReturnType<typeof createOpenAICompatible>;
  const replies = new Map<string, { pieces: (string | Buffer)[]; headers?: Record<string, string> }>();
  /** Requests for the model id 'silent' are held unanswered; this hears of each, with its closing. */
  let onSilent: ((request: { closed: Promise<void> }) => void) | undefined;

  const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra = {}) =>
    `data: ${JSON.stringify({ id: 'chatcmpl-x', created: 1_700_000_000, model: 'hand', choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
  const usage = (prompt: number, completion: number) =>
    `data: ${JSON.stringify({ id: 'chatcmpl-x', choices: [], usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } })}\n\n`;

  beforeAll(async () => {
    server = http.createServer(async (req, res) => {
      let raw = '';
      for await (const c of req) raw += c;
      const model = (JSON.parse(raw) as { model: string }).model;
      if (model === 'silent') {
        onSilent?.({ closed: new Promise((r) => res.on('close', () => r())) });
        return;
      }
      const reply = replies.get(model);
      if (req.url !== '/chat/completions' || !reply) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `no reply for ${model}` } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', ...reply.headers });
      for (const piece of reply.pieces) {
        res.write(piece);
        // Separate writes reach the client as separate reads.
        await new Promise((r) => setTimeout(r, 5));
      }
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    provider = createOpenAICompatible({ name: 'hand', baseURL: base, includeUsage: true });
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const run = async (model: string, pieces: (string | Buffer)[], headers?: Record<string, string>) => {
    replies.set(model, { pieces, headers });
    return readAll((await withLeanStream(provider.chatModel(model)).doStream(userPrompt('hi'))).stream);
  };

  it('maps reasoning_content and reasoning to reasoning parts, closed before the text', async () => {
    const parts = await run('reasoning', [
      chunk({ role: 'assistant', reasoning_content: 'Think' }),
      chunk({ reasoning_content: 'ing ' }),
      chunk({ reasoning: 'harder.' }),
      chunk({ content: 'Answer.' }),
      chunk({}, 'stop'),
      usage(3, 9),
      'data: [DONE]\n\n',
    ]);
    expect(parts.map((p) => p.type)).toEqual([
      'stream-start',
      'response-metadata',
      'reasoning-start',
      'reasoning-delta',
      'reasoning-delta',
      'reasoning-delta',
      'reasoning-end',
      'text-start',
      'text-delta',
      'text-end',
      'finish',
    ]);
    expect(ofType(parts, 'reasoning-delta').map((p) => p.delta)).toEqual(['Think', 'ing ', 'harder.']);
    expect(ofType(parts, 'text-delta').map((p) => p.delta)).toEqual(['Answer.']);
    expect(parts[1]).toEqual({
      type: 'response-metadata',
      id: 'chatcmpl-x',
      modelId: 'hand',
      timestamp: new Date(1_700_000_000_000),
    });
    const [finish] = ofType(parts, 'finish');
    expect(finish.finishReason).toEqual({ unified: 'stop', raw: 'stop' });
    expect(finish.usage.inputTokens.total).toBe(3);
    expect(finish.usage.outputTokens.total).toBe(9);
  });

  it('reads text from array content, skipping parts that are not text', async () => {
    const parts = await run('array', [
      chunk({
        content: [
          { type: 'text', text: 'Hello' },
          { type: 'image_url', image_url: { url: 'x' } },
        ],
      }),
      chunk({ content: [{ type: 'text', text: ' world' }] }),
      chunk({}, 'length'),
    ]);
    expect(ofType(parts, 'text-delta').map((p) => p.delta)).toEqual(['Hello', ' world']);
    expect(parts.at(-1)).toMatchObject({
      type: 'finish',
      finishReason: { unified: 'length', raw: 'length' },
    });
    expect(ofType(parts, 'error')).toEqual([]);
  });

  it('gives an error part for an error chunk, and finishes with reason error', async () => {
    const parts = await run('error-chunk', [
      chunk({ content: 'Partial' }),
      `data: ${JSON.stringify({ error: { message: 'The model is overloaded.' } })}\n\n`,
      'data: [DONE]\n\n',
    ]);
    const errors = ofType(parts, 'error');
    expect(errors).toHaveLength(1);
    expect((errors[0].error as Error).message).toBe('The model is overloaded.');
    expect(ofType(parts, 'text-delta').map((p) => p.delta)).toEqual(['Partial']);
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'error' } });
  });

  it('gives an error part for a chunk that is not JSON, and keeps the rest of the reply', async () => {
    const parts = await run('bad-json', [
      chunk({ content: 'Before' }),
      'data: {"id": "chatcmpl-x", "choices": [\n\n',
      chunk({ content: ' after' }),
      'data: [DONE]\n\n',
    ]);
    const errors = ofType(parts, 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0].error).toBeInstanceOf(SyntaxError);
    expect(ofType(parts, 'text-delta').map((p) => p.delta)).toEqual(['Before', ' after']);
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'error' } });
  });

  it('gives an error part when the stream ends without a finish reason', async () => {
    const parts = await run('cut-short', [chunk({ content: 'Half an ans' })]);
    expect(parts.map((p) => p.type)).toEqual([
      'stream-start',
      'response-metadata',
      'text-start',
      'text-delta',
      'text-end',
      'error',
      'finish',
    ]);
    expect((ofType(parts, 'error')[0].error as Error).message).toMatch(/without a finish reason/);
    expect(parts.at(-1)).toMatchObject({
      type: 'finish',
      finishReason: { unified: 'error', raw: undefined },
    });
  });

  it('reads a gzip-compressed reply', async () => {
    const body = zlib.gzipSync(
      [chunk({ content: 'Squeezed ' }), chunk({ content: 'text.' }), chunk({}, 'stop'), usage(4, 2)].join(''),
    );
    const parts = await run('gzip', [body.subarray(0, 10), body.subarray(10)], {
      'content-encoding': 'gzip',
    });
    expect(ofType(parts, 'text-delta').map((p) => p.delta)).toEqual(['Squeezed ', 'text.']);
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'stop' } });
    expect(ofType(parts, 'error')).toEqual([]);
  });

  it('reads events split across network reads, inside a line and inside a character, with \\r\\n', async () => {
    const event = Buffer.from(chunk({ content: 'Crème brûlée 🍮' }).replace(/\n/g, '\r\n'));
    const inChar = event.indexOf(Buffer.from('🍮')) + 2;
    const parts = await run('split', [
      event.subarray(0, 12),
      event.subarray(12, inChar),
      event.subarray(inChar, event.length - 1),
      event.subarray(event.length - 1),
      chunk({}, 'stop').replace(/\n/g, '\r'),
    ]);
    expect(ofType(parts, 'text-delta').map((p) => p.delta)).toEqual(['Crème brûlée 🍮']);
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'stop' } });
  });

  it('an abort before the reply rejects with the signal’s reason, not an APICallError, and closes the request', async () => {
    const controller = new AbortController();
    const reason = new Error('user went away');
    const received = new Promise<{ closed: Promise<void> }>((r) => {
      onSilent = r;
    });
    const call = withLeanStream(provider.chatModel('silent')).doStream({
      ...userPrompt('hi'),
      abortSignal: controller.signal,
    });
    const { closed } = await received;
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
    await closed;
  });
});
