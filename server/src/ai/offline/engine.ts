import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3FinishReason,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3Usage,
  SharedV3Warning,
} from '@ai-sdk/provider';
import { offlineHandlers } from './handlers/index.ts';
import {
  assistantSteps,
  deriveQuery,
  estimateTokens,
  lastUserText,
  systemText,
  toolResultsOfTurn,
} from './prompt.ts';
import type { OfflineHandlerInput } from './types.ts';

export const OFFLINE_PROVIDER = 'offline';
export const OFFLINE_MODEL_ID = 'offline';

/** Tools the engine calls by itself before answering, with the input it derives from the question. */
const GROUNDING_TOOLS: Record<string, (question: string) => Record<string, unknown>> = {
  internal_search: (q) => ({ query: deriveQuery(q) }),
  workspace_snapshot: () => ({}),
  web_search: (q) => ({ query: deriveQuery(q) }),
};

interface PlannedCall {
  toolCallId: string;
  toolName: string;
  input: string;
}

type Plan =
  | { kind: 'tools'; calls: PlannedCall[]; inputTokens: number }
  | { kind: 'text'; text: string; inputTokens: number; warnings: SharedV3Warning[] };

export interface OfflineModelOptions {
  /** Pause between streamed words so streaming is visible (0 in tests that do not care). */
  tokenDelayMs?: number;
}

function offlineOptions(options: LanguageModelV3CallOptions): { task: string; data: unknown } {
  const o = options.providerOptions?.offline as { task?: unknown; data?: unknown } | undefined;
  return { task: typeof o?.task === 'string' ? o.task : 'chat', data: o?.data ?? null };
}

/**
 * Decides this step: call the grounding tools the caller offered (once per user message), or answer
 * through the task's handler with the tool results in hand. Pure: the same call gives the same plan.
 */
export function planStep(options: LanguageModelV3CallOptions, requestedModelId: string): Plan {
  const { prompt } = options;
  const question = lastUserText(prompt);
  const toolResults = toolResultsOfTurn(prompt);
  const inputTokens = estimateTokens(prompt);
  const choice = options.toolChoice;
  const offered = (options.tools ?? []).filter((t) => t.type === 'function').map((t) => t.name);
  if (toolResults.length === 0 && choice?.type !== 'none' && question) {
    const wanted =
      choice?.type === 'tool' ? [choice.toolName] : offered.filter((n) => GROUNDING_TOOLS[n] !== undefined);
    const step = assistantSteps(prompt);
    const calls = wanted
      .filter((n) => offered.includes(n))
      .map((toolName, i) => ({
        toolCallId: `offline-${step}-${i}-${toolName}`,
        toolName,
        input: JSON.stringify((GROUNDING_TOOLS[toolName] ?? (() => ({})))(question)),
      }));
    if (calls.length > 0) return { kind: 'tools', calls, inputTokens };
  }
  const { task, data } = offlineOptions(options);
  const warnings: SharedV3Warning[] = [];
  let handler = offlineHandlers[task];
  if (!handler) {
    warnings.push({ type: 'other', message: `No offline handler for task "${task}"; answered as chat.` });
    handler = offlineHandlers.chat;
  }
  const input: OfflineHandlerInput = {
    data,
    prompt,
    system: systemText(prompt),
    lastUserText: question,
    toolResults,
    requestedModelId,
  };
  return { kind: 'text', text: handler(input), inputTokens, warnings };
}

/** Words with their trailing white space, so the deltas join back to the exact text. */
export function splitTokens(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? (text ? [text] : []);
}

function usage(inputTokens: number, outputTokens: number): LanguageModelV3Usage {
  return {
    inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: outputTokens, text: outputTokens, reasoning: undefined },
  };
}

const finish = (kind: 'tools' | 'text'): LanguageModelV3FinishReason =>
  kind === 'tools' ? { unified: 'tool-calls', raw: 'tool_calls' } : { unified: 'stop', raw: 'stop' };

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal as AbortSignal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The built-in engine behind every model id when no provider is configured (ARCHITECTURE.md section 5).
 * It implements the AI SDK's LanguageModelV3, so the one tool loop (ai/tool-loop.ts), generateText,
 * tool calls and multi-step loops run exactly as with a real provider. It never claims to be the model that was asked for.
 */
export class OfflineLanguageModel implements LanguageModelV3 {
  readonly specificationVersion = 'v3' as const;
  readonly provider = OFFLINE_PROVIDER;
  readonly modelId = OFFLINE_MODEL_ID;
  readonly supportedUrls: Record<string, RegExp[]> = {};
  private readonly tokenDelayMs: number;

  constructor(
    /** What the caller asked for (e.g. gpt-5-chat), handed to handlers for context only. */
    readonly requestedModelId: string = OFFLINE_MODEL_ID,
    opts: OfflineModelOptions = {},
  ) {
    this.tokenDelayMs = opts.tokenDelayMs ?? 0;
  }

  async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    if (options.abortSignal?.aborted) throw abortError(options.abortSignal);
    const plan = planStep(options, this.requestedModelId);
    const content: LanguageModelV3Content[] =
      plan.kind === 'tools'
        ? plan.calls.map((c) => ({ type: 'tool-call', ...c }))
        : [{ type: 'text', text: plan.text }];
    const out = plan.kind === 'tools' ? plan.calls.length : splitTokens(plan.text).length;
    return {
      content,
      finishReason: finish(plan.kind),
      usage: usage(plan.inputTokens, out),
      warnings: plan.kind === 'text' ? plan.warnings : [],
      response: { id: 'offline', modelId: OFFLINE_MODEL_ID, timestamp: new Date(0) },
    };
  }

  async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    const signal = options.abortSignal;
    if (signal?.aborted) throw abortError(signal);
    const plan = planStep(options, this.requestedModelId);
    const parts = this.parts(plan);
    const delay = this.tokenDelayMs;
    let i = 0;
    const stream = new ReadableStream<LanguageModelV3StreamPart>({
      async pull(controller) {
        try {
          const part = parts[i++];
          if (!part) return controller.close();
          if (part.type === 'text-delta') await sleep(delay, signal);
          if (signal?.aborted) throw abortError(signal);
          controller.enqueue(part);
        } catch (err) {
          controller.error(err);
        }
      },
    });
    return { stream };
  }

  private parts(plan: Plan): LanguageModelV3StreamPart[] {
    const parts: LanguageModelV3StreamPart[] = [
      { type: 'stream-start', warnings: plan.kind === 'text' ? plan.warnings : [] },
      { type: 'response-metadata', id: 'offline', modelId: OFFLINE_MODEL_ID, timestamp: new Date(0) },
    ];
    if (plan.kind === 'tools') {
      for (const c of plan.calls) {
        parts.push({ type: 'tool-input-start', id: c.toolCallId, toolName: c.toolName });
        parts.push({ type: 'tool-input-delta', id: c.toolCallId, delta: c.input });
        parts.push({ type: 'tool-input-end', id: c.toolCallId });
        parts.push({ type: 'tool-call', ...c });
      }
      parts.push({
        type: 'finish',
        finishReason: finish('tools'),
        usage: usage(plan.inputTokens, plan.calls.length),
      });
      return parts;
    }
    const tokens = splitTokens(plan.text);
    parts.push({ type: 'text-start', id: 'text-0' });
    for (const delta of tokens) parts.push({ type: 'text-delta', id: 'text-0', delta });
    parts.push({ type: 'text-end', id: 'text-0' });
    parts.push({
      type: 'finish',
      finishReason: finish('text'),
      usage: usage(plan.inputTokens, tokens.length),
    });
    return parts;
  }
}
