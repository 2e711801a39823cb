import {
  APICallError,
  type LanguageModelV3,
  type LanguageModelV3CallOptions,
  type LanguageModelV3StreamPart,
  type LanguageModelV3StreamResult,
  type LanguageModelV3Usage,
  type SharedV3Warning,
} from '@ai-sdk/provider';
import { type ProviderReply, providerRequest } from '../net/provider-fetch.ts';
import { chatChunkReader } from './compat-chunks.ts';
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

/**
 * The AI SDK's OpenAI-compatible chat model with a lean `doStream`: the same request, sent with
 * node:http, and the reply's server-sent events read straight into the language-model stream parts
 * (text, reasoning, tool calls, usage, finish) in one step — no text-decoder, event-parser and
 * schema-validation stream stages per chunk, which cost a 50-stream server more CPU than everything
 * else in a turn (docs/decisions/, "Chat streaming"). `doGenerate` is the SDK's own.
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
  let reply: ProviderReply;
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
  let out!: ReadableStreamDefaultController<LanguageModelV3StreamPart>;
  let closed = false;
  const chunks = chatChunkReader(
    (part) => {
      if (!closed) out.enqueue(part);
    },
    (usage) => model.convertUsage(usage),
    providerKey,
  );
  const parser = sseDataParser(chunks.data);
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
          chunks.end();
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
