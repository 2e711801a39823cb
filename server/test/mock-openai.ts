import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local OpenAI-compatible HTTP server for tests (node:http, loopback, ephemeral port). Each request to
 * `/v1/chat/completions` takes the next step of the script (then the default reply), and streams it as
 * real SSE chunks when the request asks for a stream. `/v1/models` lists `models`. Every request is
 * recorded with its body and whether the client went away before the response ended.
 *
 *   const mock = await startMockOpenAI();
 *   mock.script({ kind: 'status', status: 429, headers: { 'retry-after-ms': '10' } }, { kind: 'text', chunks: ['Hi', ' there'] });
 *   const t = await createTestApp({ OPENAI_BASE_URL: mock.url });
 */
export type MockStep =
  /** A reply streamed chunk by chunk (delayMs between chunks). */
  | {
      kind: 'text';
      chunks: string[];
      delayMs?: number;
      usage?: { prompt_tokens: number; completion_tokens: number };
    }
  /** Tool calls; arguments streamed in two halves. */
  | { kind: 'tool-calls'; calls: { id?: string; name: string; arguments: unknown }[] }
  /** An HTTP error status with an OpenAI-style error body. */
  | { kind: 'status'; status: number; message?: string; headers?: Record<string, string> }
  /** Sends these chunks, then nothing more until the client gives up (non-streaming: no answer at all). */
  | { kind: 'stall'; chunks?: string[] };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown> | null;
  /** the client closed the connection before the response was complete */
  aborted: boolean;
  /** the response was written to the end */
  completed: boolean;
  /** performance.now() when the request had been read (for latency measurements in the bench) */
  receivedAt: number;
  /** performance.now() when each content chunk of a streamed text reply was written */
  contentSentAt: number[];
}

export interface MockOpenAI {
  /** Base URL to use as OPENAI_BASE_URL (ends with /v1). */
  url: string;
  models: string[];
  requests: RecordedRequest[];
  chatRequests(): RecordedRequest[];
  script(...steps: MockStep[]): void;
  /** Resolves when a chat request has been aborted by the client (or rejects after timeoutMs). */
  waitForAbort(timeoutMs?: number): Promise<RecordedRequest>;
  close(): Promise<void>;
}

const DEFAULT_REPLY: MockStep = { kind: 'text', chunks: ['Hello', ' from', ' the', ' mock', ' model.'] };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startMockOpenAI(opts: { models?: string[] } = {}): Promise<MockOpenAI> {
  const queue: MockStep[] = [];
  const requests: RecordedRequest[] = [];
  const abortWaiters: ((r: RecordedRequest) => void)[] = [];
  const sockets = new Set<import('node:net').Socket>();
  let seq = 0;

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: Record<string, unknown> | null = null;
    try {
      body = raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
    } catch {
      body = null;
    }
    const path = (req.url ?? '/').split('?')[0];
    const rec: RecordedRequest = {
      method: req.method ?? 'GET',
      path,
      headers: req.headers,
      body,
      aborted: false,
      completed: false,
      receivedAt: performance.now(),
      contentSentAt: [],
    };
    requests.push(rec);
    res.on('close', () => {
      if (!res.writableFinished) {
        rec.aborted = true;
        for (const w of abortWaiters.splice(0)) w(rec);
      }
    });
    const closed = () => rec.aborted || res.destroyed;

    if (path === '/v1/models') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          object: 'list',
          data: mock.models.map((id) => ({ id, object: 'model', owned_by: 'mock' })),
        }),
      );
      rec.completed = true;
      return;
    }
    if (path !== '/v1/chat/completions' || req.method !== 'POST') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'not found' } }));
      return;
    }

    const step = queue.shift() ?? DEFAULT_REPLY;
    const model = String(body?.model ?? 'mock');
    const id = `chatcmpl-${++seq}`;
    const created = Math.floor(Date.now() / 1000);
    if (step.kind === 'status') {
      res.writeHead(step.status, { 'content-type': 'application/json', ...(step.headers ?? {}) });
      res.end(
        JSON.stringify({
          error: { message: step.message ?? `mock error ${step.status}`, type: 'mock_error' },
        }),
      );
      rec.completed = true;
      return;
    }
    const stream = body?.stream === true;
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

    if (!stream) {
      if (step.kind === 'stall') return; // never answers: the client must time out or go away
      res.writeHead(200, { 'content-type': 'application/json' });
      const message =
        step.kind === 'tool-calls'
          ? {
              role: 'assistant',
              content: null,
              tool_calls: step.calls.map((c, i) => ({
                id: c.id ?? `call_${seq}_${i}`,
                type: 'function',
                function: {
                  name: c.name,
                  arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
                },
              })),
            }
          : { role: 'assistant', content: (step.chunks ?? []).join('') };
      res.end(
        JSON.stringify({
          id,
          object: 'chat.completion',
          created,
          model,
          choices: [{ index: 0, message, finish_reason: step.kind === 'tool-calls' ? 'tool_calls' : 'stop' }],
          usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
        }),
      );
      rec.completed = true;
      return;
    }

    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    res.flushHeaders();
    res.write(chunk({ role: 'assistant', content: '' }));
    if (step.kind === 'stall') {
      for (const c of step.chunks ?? []) res.write(chunk({ content: c }));
      return; // never ends: the client must time out or go away
    }
    if (step.kind === 'tool-calls') {
      step.calls.forEach((c, index) => {
        const args = typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments);
        const half = Math.floor(args.length / 2);
        res.write(
          chunk({
            tool_calls: [
              {
                index,
                id: c.id ?? `call_${seq}_${index}`,
                type: 'function',
                function: { name: c.name, arguments: args.slice(0, half) },
              },
            ],
          }),
        );
        res.write(chunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] }));
      });
      res.write(chunk({}, 'tool_calls'));
    } else {
      for (const c of step.chunks) {
        if (closed()) return;
        res.write(chunk({ content: c }));
        rec.contentSentAt.push(performance.now());
        if (step.delayMs) await sleep(step.delayMs);
      }
      if (closed()) return;
      res.write(chunk({}, 'stop'));
    }
    const usage =
      step.kind === 'text' && step.usage ? step.usage : { prompt_tokens: 11, completion_tokens: 7 };
    res.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } })}\n\n`,
    );
    res.end('data: [DONE]\n\n');
    rec.completed = true;
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const mock: MockOpenAI = {
    url: `http://127.0.0.1:${port}/v1`,
    models: opts.models ?? ['mock-model', 'gpt-5-chat'],
    requests,
    chatRequests: () => requests.filter((r) => r.path === '/v1/chat/completions'),
    script: (...steps) => {
      queue.push(...steps);
    },
    waitForAbort: (timeoutMs = 5000) => {
      const done = requests.find((r) => r.aborted);
      if (done) return Promise.resolve(done);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('the mock saw no aborted request')), timeoutMs);
        abortWaiters.push((r) => {
          clearTimeout(timer);
          resolve(r);
        });
      });
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  return mock;
}
