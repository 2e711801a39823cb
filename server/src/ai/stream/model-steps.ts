import {
  APICallError,
  type LanguageModelV3,
  type LanguageModelV3FunctionTool,
  type LanguageModelV3Message,
  type LanguageModelV3StreamPart,
  type LanguageModelV3ToolCall,
  type LanguageModelV3ToolResultOutput,
  type SharedV3ProviderOptions,
} from '@ai-sdk/provider';
import { getErrorMessage, retryWithExponentialBackoff, safeParseJSON } from '@ai-sdk/provider-utils';
// The tools are made with the `ai` package's `tool()`, so their schemas are read with its `asSchema`.
import { asSchema, RetryError, type ToolSet } from 'ai';
import { untrustedToolOutput } from '../untrusted.ts';

export interface ModelStepsInput {
  model: LanguageModelV3;
  system: string;
  /** Earlier messages, oldest first, ending with the user's message. */
  messages: { role: 'user' | 'assistant'; content: string }[];
  tools: ToolSet;
  /** Model calls in all (a call that asks for tools and its follow-up are two). */
  maxSteps: number;
  /** Retries of a model call that failed before it streamed (429, 5xx, a dropped connection). */
  maxRetries: number;
  abortSignal: AbortSignal;
  providerOptions?: SharedV3ProviderOptions;
  /** Each text delta, as it arrives. */
  onText: (delta: string) => void;
}

export interface ModelStepsResult {
  usage: { inputTokens?: number; outputTokens?: number };
  toolResults: { toolName: string; output: unknown }[];
}

/** The AI SDK's retry delay rules: Retry-After(-Ms) when sensible, else exponential from 2 s. */
function retryDelay({ error, exponentialBackoffDelay }: { error: unknown; exponentialBackoffDelay: number }) {
  const headers = APICallError.isInstance(error) ? error.responseHeaders : undefined;
  if (!headers) return exponentialBackoffDelay;
  let ms: number | undefined;
  const afterMs = headers['retry-after-ms'];
  if (afterMs && !Number.isNaN(Number.parseFloat(afterMs))) ms = Number.parseFloat(afterMs);
  const after = headers['retry-after'];
  if (after && ms === undefined) {
    const seconds = Number.parseFloat(after);
    ms = Number.isNaN(seconds) ? Date.parse(after) - Date.now() : seconds * 1000;
  }
  if (ms != null && !Number.isNaN(ms) && ms >= 0 && (ms < 60_000 || ms < exponentialBackoffDelay)) return ms;
  return exponentialBackoffDelay;
}

const toolSpecs = new WeakMap<object, Promise<LanguageModelV3FunctionTool>>();

/** A tool as the model sees it; its JSON schema is made once per tool object. */
function toolSpec(name: string, tool: ToolSet[string]): Promise<LanguageModelV3FunctionTool> {
  let spec = toolSpecs.get(tool);
  if (!spec) {
    spec = (async () => ({
      type: 'function' as const,
      name,
      description: tool.description,
      inputSchema: await asSchema(tool.inputSchema).jsonSchema,
    }))();
    toolSpecs.set(tool, spec);
  }
  return spec;
}

/** Runs one tool call: unknown tools and invalid input become error results the model can read. */
async function runTool(
  tools: ToolSet,
  call: LanguageModelV3ToolCall,
  abortSignal: AbortSignal,
): Promise<{ input: unknown; output: unknown; modelOutput: LanguageModelV3ToolResultOutput; ok: boolean }> {
  const fail = (input: unknown, error: unknown) => ({
    input,
    output: error,
    modelOutput: untrustedToolOutput(call.toolName, getErrorMessage(error), true),
    ok: false,
  });
  const tool = Object.hasOwn(tools, call.toolName) ? tools[call.toolName] : undefined;
  const parsed = await safeParseJSON({ text: call.input.trim() === '' ? '{}' : call.input });
  if (!parsed.success) return fail(call.input, parsed.error);
  if (!tool?.execute)
    return fail(parsed.value, new Error(`Model tried to call unavailable tool '${call.toolName}'.`));
  const schema = asSchema(tool.inputSchema);
  const valid = schema.validate
    ? await schema.validate(parsed.value)
    : { success: true as const, value: parsed.value };
  if (!valid.success) return fail(parsed.value, valid.error);
  try {
    const output: unknown = await tool.execute(valid.value, {
      toolCallId: call.toolCallId,
      messages: [],
      abortSignal,
    });
    // Whatever a tool returns (a web page, a record's text) reaches the model as data, wrapped.
    return { input: valid.value, output, modelOutput: untrustedToolOutput(call.toolName, output), ok: true };
  } catch (err) {
    return fail(valid.value, err);
  }
}

/**
 * A streamed model turn over the language-model interface itself (`doStream`), with the tool loop:
 * the model answers, or calls tools; their results go back to it and it is called again, up to
 * `maxSteps` calls. What it does with the AI SDK's `streamText` semantics: retries with backoff
 * (honouring Retry-After) before a call streams, tool input parsed and validated against the tool's
 * schema, tool errors handed back to the model as error results, usage summed over the steps.
 * It resolves when the model has finished, and rejects with the stream's or the call's error; an
 * abort rejects with the signal's reason. Text deltas go to `onText` synchronously as each arrives —
 * no per-chunk stream stages or promises of its own, so a server streaming fifty replies spends its
 * time on the replies (docs/decisions/, "Chat streaming").
 */
export async function streamModelSteps(input: ModelStepsInput): Promise<ModelStepsResult> {
  const { model, tools, abortSignal } = input;
  const prompt: LanguageModelV3Message[] = [
    ...(input.system ? [{ role: 'system' as const, content: input.system }] : []),
    ...input.messages.map(
      (m): LanguageModelV3Message =>
        m.role === 'user'
          ? { role: 'user', content: [{ type: 'text', text: m.content }] }
          : { role: 'assistant', content: [{ type: 'text', text: m.content }] },
    ),
  ];
  const toolNames = Object.keys(tools);
  const specs = await Promise.all(toolNames.map((n) => toolSpec(n, tools[n])));
  const retry = retryWithExponentialBackoff({
    maxRetries: input.maxRetries,
    initialDelayInMs: 2000,
    backoffFactor: 2,
    abortSignal,
    shouldRetry: (error) => APICallError.isInstance(error) && error.isRetryable === true,
    getDelayInMs: retryDelay,
    createRetryError: ({ message, reason, errors }) => new RetryError({ message, reason, errors }),
  });
  const usage = {
    inputTokens: undefined as number | undefined,
    outputTokens: undefined as number | undefined,
  };
  const toolResults: ModelStepsResult['toolResults'] = [];
  const add = (a: number | undefined, b: number | undefined) => (b === undefined ? a : (a ?? 0) + b);

  for (let step = 1; step <= input.maxSteps; step++) {
    const offerTools = specs.length > 0;
    // The prompt grows after each step: every call gets its own copy.
    const stepPrompt = [...prompt];
    let stream: ReadableStream<LanguageModelV3StreamPart>;
    try {
      ({ stream } = await retry(() =>
        model.doStream({
          prompt: stepPrompt,
          tools: offerTools ? specs : undefined,
          toolChoice: offerTools ? { type: 'auto' } : undefined,
          abortSignal,
          providerOptions: input.providerOptions,
          includeRawChunks: false,
        }),
      ));
    } catch (err) {
      // An abort during a retry's wait surfaces as the helper's own "Delay was aborted".
      throw abortSignal.aborted ? abortSignal.reason : err;
    }
    const calls: LanguageModelV3ToolCall[] = [];
    let text = '';
    const reader = stream.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const part = value as LanguageModelV3StreamPart;
        if (part.type === 'text-delta') {
          if (part.delta) {
            text += part.delta;
            input.onText(part.delta);
          }
        } else if (part.type === 'tool-call') {
          if (!part.providerExecuted) calls.push(part);
        } else if (part.type === 'finish') {
          usage.inputTokens = add(usage.inputTokens, part.usage.inputTokens.total);
          usage.outputTokens = add(usage.outputTokens, part.usage.outputTokens.total);
        } else if (part.type === 'error') {
          throw part.error;
        }
        if (abortSignal.aborted) throw abortSignal.reason;
      }
    } catch (err) {
      reader.cancel(err).catch(() => {});
      throw abortSignal.aborted ? abortSignal.reason : err;
    } finally {
      reader.releaseLock();
    }
    if (calls.length === 0) break;
    const results = await Promise.all(calls.map((c) => runTool(tools, c, abortSignal)));
    if (abortSignal.aborted) throw abortSignal.reason;
    prompt.push({
      role: 'assistant',
      content: [
        ...(text ? [{ type: 'text' as const, text }] : []),
        ...calls.map((c, i) => ({
          type: 'tool-call' as const,
          toolCallId: c.toolCallId,
          toolName: c.toolName,
          input: results[i].input,
        })),
      ],
    });
    prompt.push({
      role: 'tool',
      content: calls.map((c, i) => ({
        type: 'tool-result' as const,
        toolCallId: c.toolCallId,
        toolName: c.toolName,
        output: results[i].modelOutput,
      })),
    });
    for (const [i, c] of calls.entries()) {
      if (results[i].ok) toolResults.push({ toolName: c.toolName, output: results[i].output });
    }
  }
  return { usage, toolResults };
}
