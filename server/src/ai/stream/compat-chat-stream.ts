import {
  APICallError,
  type LanguageModelV3,
  type LanguageModelV3CallOptions,
  type LanguageModelV3StreamPart,
  type LanguageModelV3StreamResult,
  type LanguageModelV3Usage,
  type SharedV3Warning,
} from '@ai-sdk/provider';
import { generateId } from '@ai-sdk/provider-utils';
import { providerRequest } from '../net/provider-fetch.ts';
import { sseDataParser } from './sse-data.ts';

/**
 * What the lean stream borrows from the AI SDK's OpenAI-compatible chat model: its request (body,
 * URL, headers), its error handling and its usage conversion. These members are TypeScript-private
 * in @ai-sdk/openai-compatible, so they are checked at run time: when a release no longer has them,
 * the SDK's own stream is used unchanged (providers.test.ts pins that the lean one is in use).
 */
interface CompatInternals {
  modelId: string;
  config: {
    url(o: { path: string; modelId: string }): string;
    headers(): Record<string, string | undefined>;
    includeUsage?: boolean;
  };
  getArgs(o: LanguageModelV3CallOptions): Promise<{
    args: Record<string, unknown>;
    warnings: SharedV3Warning[];
    metadataKey?: string;
  }>;
  transformRequestBody(args: Record<string, unknown>): Record<string, unknown>;
  failedResponseHandler(o: {
    url: string;
    requestBodyValues: unknown;
    response: Response;
  }): PromiseLike<{ value: Error }>;
  convertUsage(usage: unknown): LanguageModelV3Usage;
}

function hasInternals(model: object): model is CompatInternals {
  const m = model as Partial<Record<keyof CompatInternals, unknown>>;
  const config = m.config as Partial<Record<keyof CompatInternals['config'], unknown>> | undefined;
  return (
    typeof m.getArgs === 'function' &&
    typeof m.transformRequestBody === 'function' &&
    typeof m.failedResponseHandler === 'function' &&
    typeof m.convertUsage === 'function' &&
    typeof config?.url === 'function' &&
    typeof config?.headers === 'function'
  );
}

/** Error replies are read for their message; nothing a provider says about a failure is this long. */
const MAX_ERROR_BODY = 1024 * 1024;

function readText(body: NodeJS.ReadableStream, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    body.setEncoding('utf8');
    body.on('data', (s: string) => {
      if (text.length < limit) text += s;
    });
    body.on('end', () => resolve(text.slice(0, limit)));
    body.on('error', reject);
  });
}

const FINISH: Record<string, 'stop' | 'length' | 'content-filter' | 'tool-calls'> = {
  stop: 'stop',
  length: 'length',
  content_filter: 'content-filter',
  function_call: 'tool-calls',
  tool_calls: 'tool-calls',
};

interface ChunkToolCall {
  index?: number;
  id?: string | null;
  function?: { name?: string | null; arguments?: string | null };
}
interface ChatChunk {
  id?: string | null;
  model?: string | null;
  created?: number | null;
  error?: { message?: string };
  usage?: unknown;
  choices?: {
    finish_reason?: string | null;
    delta?: {
      content?: string | { type?: string; text?: string }[] | null;
      reasoning_content?: string | null;
      reasoning?: string | null;
      tool_calls?: ChunkToolCall[] | null;
    } | null;
  }[];
}

/**
 * The AI SDK's OpenAI-compatible chat model with a lean `doStream`: the same request, sent with
 * node:http, and the reply's server-sent events read straight into the language-model stream parts
 * (text, reasoning, tool calls, usage, finish) in one step — no text-decoder, event-parser and
 * schema-validation stream stages per chunk, which cost a 50-stream server more CPU than everything
 * else in a turn (docs/decisions.md, "Chat streaming"). `doGenerate` is the SDK's own.
 */
export function withLeanStream(model: LanguageModelV3): LanguageModelV3 {
  if (!hasInternals(model)) return model;
  const inner = model;
  // The provider's headers (key, user agent) are fixed when it is made; building them per call
  // showed in the 50-stream profile.
  let fixed: Record<string, string> | undefined;
  const baseHeaders = () => {
    if (!fixed) {
      fixed = { 'content-type': 'application/json' };
      for (const [k, v] of Object.entries(inner.config.headers()))
        if (v !== undefined) fixed[k.toLowerCase()] = v;
    }
    return fixed;
  };
  const lean: LanguageModelV3 = {
    specificationVersion: 'v3',
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: model.supportedUrls,
    doGenerate: (options) => model.doGenerate(options),
    doStream: (options) => leanStream(inner, baseHeaders, options),
  };
  return lean;
}

async function leanStream(
  model: CompatInternals,
  baseHeaders: () => Record<string, string>,
  options: LanguageModelV3CallOptions,
): Promise<LanguageModelV3StreamResult> {
  const { args, warnings, metadataKey } = await model.getArgs({ ...options });
  const body = model.transformRequestBody({
    ...args,
    stream: true,
    stream_options: model.config.includeUsage ? { include_usage: true } : undefined,
  });
  const url = model.config.url({ path: '/chat/completions', modelId: model.modelId });
  let headers = baseHeaders();
  if (options.headers) {
    headers = { ...headers };
    for (const [k, v] of Object.entries(options.headers)) if (v !== undefined) headers[k.toLowerCase()] = v;
  }
  const json = JSON.stringify(body);
  let reply: Awaited<ReturnType<typeof providerRequest>>;
  try {
    reply = await providerRequest(new URL(url), {
      method: 'POST',
      headers,
      body: json,
      signal: options.abortSignal,
    });
  } catch (err) {
    if (options.abortSignal?.aborted) throw err;
    const cause = (err as { cause?: unknown }).cause ?? err;
    throw new APICallError({
      message: `Cannot connect to API: ${cause instanceof Error ? cause.message : String(cause)}`,
      url,
      requestBodyValues: body,
      cause,
      isRetryable: true,
    });
  }
  if (reply.status < 200 || reply.status > 299) {
    const text = await readText(reply.body, MAX_ERROR_BODY);
    const response = new Response(text, {
      status: reply.status,
      statusText: reply.statusText,
      headers: reply.headers,
    });
    const { value } = await model.failedResponseHandler({ url, requestBodyValues: body, response });
    throw value;
  }

  const providerKey = metadataKey ?? 'openaiCompatible';
  const res = reply.body;
  const toolCalls = new Map<number, { id: string | null; name: string; args: string }>();
  let usage: unknown;
  let finishReason:
    | {
        unified: 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other';
        raw: string | undefined;
      }
    | undefined;
  let first = true;
  let textOpen = false;
  let reasoningOpen = false;
  let out!: ReadableStreamDefaultController<LanguageModelV3StreamPart>;
  let closed = false;
  const emit = (part: LanguageModelV3StreamPart) => {
    if (!closed) out.enqueue(part);
  };

  const text = (delta: string) => {
    if (reasoningOpen) {
      emit({ type: 'reasoning-end', id: 'reasoning-0' });
      reasoningOpen = false;
    }
    if (!textOpen) {
      emit({ type: 'text-start', id: 'txt-0' });
      textOpen = true;
    }
    emit({ type: 'text-delta', id: 'txt-0', delta });
  };
  const reasoning = (delta: string) => {
    if (textOpen) {
      emit({ type: 'text-end', id: 'txt-0' });
      textOpen = false;
    }
    if (!reasoningOpen) {
      emit({ type: 'reasoning-start', id: 'reasoning-0' });
      reasoningOpen = true;
    }
    emit({ type: 'reasoning-delta', id: 'reasoning-0', delta });
  };

  const onData = (data: string) => {
    if (data === '[DONE]') return;
    let chunk: ChatChunk;
    try {
      chunk = JSON.parse(data) as ChatChunk;
    } catch (err) {
      finishReason = { unified: 'error', raw: undefined };
      emit({ type: 'error', error: err });
      return;
    }
    if (chunk === null || typeof chunk !== 'object') return;
    if (chunk.error) {
      finishReason = { unified: 'error', raw: undefined };
      emit({ type: 'error', error: new Error(chunk.error.message ?? 'The model reported an error.') });
      return;
    }
    if (first) {
      first = false;
      emit({
        type: 'response-metadata',
        id: chunk.id ?? undefined,
        modelId: chunk.model ?? undefined,
        timestamp: chunk.created != null ? new Date(chunk.created * 1000) : undefined,
      });
    }
    if (chunk.usage != null) usage = chunk.usage;
    const choice = chunk.choices?.[0];
    if (choice?.finish_reason != null) {
      finishReason = { unified: FINISH[choice.finish_reason] ?? 'other', raw: choice.finish_reason };
    }
    const delta = choice?.delta;
    if (delta == null) return;
    const r = delta.reasoning_content ?? delta.reasoning;
    if (typeof r === 'string' && r) reasoning(r);
    const content = delta.content;
    if (typeof content === 'string') {
      if (content) text(content);
    } else if (Array.isArray(content)) {
      for (const p of content) if (p?.type === 'text' && typeof p.text === 'string' && p.text) text(p.text);
    }
    if (Array.isArray(delta.tool_calls)) {
      if (reasoningOpen) {
        emit({ type: 'reasoning-end', id: 'reasoning-0' });
        reasoningOpen = false;
      }
      for (const [i, d] of delta.tool_calls.entries()) {
        const index = d.index ?? i;
        let call = toolCalls.get(index);
        if (!call) {
          call = { id: null, name: '', args: '' };
          toolCalls.set(index, call);
        }
        if (d.id) call.id = d.id;
        if (d.function?.name) call.name = d.function.name;
        if (d.function?.arguments) call.args += d.function.arguments;
      }
    }
  };

  const finish = () => {
    if (reasoningOpen) emit({ type: 'reasoning-end', id: 'reasoning-0' });
    if (textOpen) emit({ type: 'text-end', id: 'txt-0' });
    for (const call of toolCalls.values()) {
      if (!call.name) continue;
      emit({
        type: 'tool-call',
        toolCallId: call.id ?? generateId(),
        toolName: call.name,
        input: call.args || '{}',
      });
    }
    if (finishReason == null) {
      finishReason = { unified: 'error', raw: undefined };
      emit({ type: 'error', error: new Error('Response stream ended without a finish reason.') });
    }
    emit({
      type: 'finish',
      finishReason,
      usage: model.convertUsage(usage),
      providerMetadata: { [providerKey]: {} },
    });
  };

  const parser = sseDataParser(onData);
  const stream = new ReadableStream<LanguageModelV3StreamPart>(
    {
      start(controller) {
        out = controller;
        controller.enqueue({ type: 'stream-start', warnings });
        res.setEncoding('utf8');
        res.on('data', (s: string) => {
          parser.feed(s);
          // A reader that falls behind holds the socket instead of buffering the whole reply.
          if (!closed && (out.desiredSize ?? 1) <= 0) res.pause();
        });
        res.on('end', () => {
          parser.end();
          finish();
          if (!closed) {
            closed = true;
            out.close();
          }
        });
        res.on('error', (err) => {
          if (closed) return;
          closed = true;
          out.error(err);
        });
      },
      pull() {
        if (res.isPaused()) res.resume();
      },
      cancel() {
        closed = true;
        res.destroy();
      },
    },
    { highWaterMark: 64 },
  );
  return { stream, request: { body }, response: { headers: reply.headers } };
}
