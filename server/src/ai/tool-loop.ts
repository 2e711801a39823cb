import type {
  LanguageModelV3,
  LanguageModelV3Middleware,
  LanguageModelV3Prompt,
  SharedV3ProviderOptions,
} from '@ai-sdk/provider';
import {
  type ModelMessage,
  type PrepareStepFunction,
  type StepResult,
  type StreamTextOnStepFinishCallback,
  stepCountIs,
  streamText,
  type ToolSet,
  wrapLanguageModel,
} from 'ai';
import { UNTRUSTED_OPEN, withUntrustedOutputs, wrapUntrusted } from './untrusted.ts';

/**
 * The one tool loop of the app, on the AI SDK (`streamText` with `stopWhen`), shared by the chat and
 * the run engine's agent steps:
 *
 * ```ts
 * const done = await runToolLoop({ model, system, messages, tools, maxSteps: 4, maxRetries: 2,
 *   abortSignal, onText: (delta) => reply.append(delta) });
 * done.text; done.usage; done.steps;   // usage summed over the model calls
 * ```
 *
 * The model answers or calls tools; their results go back to it and it is called again, up to
 * `maxSteps` calls. From the SDK: retries of a call that failed before it streamed (429, 5xx, a
 * dropped connection; Retry-After honoured), tool input parsed and validated against each tool's
 * schema, unknown tools, bad input and throwing tools handed back to the model as error results.
 * From here: every tool result reaches the model wrapped as untrusted data, errors too
 * (docs/decisions/207). It resolves when the model has finished and rejects with the stream's error
 * (the call's, after the retries); an abort rejects with the signal's reason.
 */
export interface ToolLoopInput {
  model: LanguageModelV3;
  system: string;
  /** The conversation, oldest first, ending with the user's message. */
  messages: ModelMessage[];
  tools: ToolSet;
  /** Model calls in all (a call that asks for tools and its follow-up are two). */
  maxSteps: number;
  maxRetries: number;
  abortSignal: AbortSignal;
  providerOptions?: SharedV3ProviderOptions;
  /** Each text delta, as it arrives (a reader that streams the reply). */
  onText?: (delta: string) => void;
  prepareStep?: PrepareStepFunction<ToolSet>;
  onStepFinish?: StreamTextOnStepFinishCallback<ToolSet>;
}

export interface ToolLoopResult {
  text: string;
  reasoningText: string | undefined;
  usage: { inputTokens?: number; outputTokens?: number };
  steps: StepResult<ToolSet>[];
}

/** Wraps the error results of tool calls too (the SDK hands them to the model as plain text). */
const untrustedToolErrors: LanguageModelV3Middleware = {
  specificationVersion: 'v3',
  transformParams: async ({ params }) => ({ ...params, prompt: wrapToolErrors(params.prompt) }),
};

function wrapToolErrors(prompt: LanguageModelV3Prompt): LanguageModelV3Prompt {
  return prompt.map((message) => {
    if (message.role !== 'tool') return message;
    return {
      ...message,
      content: message.content.map((part) => {
        if (part.type !== 'tool-result') return part;
        const { output } = part;
        if (output.type !== 'error-text' && output.type !== 'error-json') return part;
        const text = output.type === 'error-text' ? output.value : JSON.stringify(output.value);
        if (text.startsWith(UNTRUSTED_OPEN)) return part;
        const value = wrapUntrusted(`result of the tool ${part.toolName}`, text);
        return { ...part, output: { type: 'error-text' as const, value } };
      }),
    };
  });
}

export async function runToolLoop(input: ToolLoopInput): Promise<ToolLoopResult> {
  const hasTools = Object.keys(input.tools).length > 0;
  const result = streamText({
    model: hasTools
      ? wrapLanguageModel({ model: input.model, middleware: untrustedToolErrors })
      : input.model,
    system: input.system || undefined,
    messages: input.messages,
    ...(hasTools ? { tools: withUntrustedOutputs(input.tools) } : {}),
    stopWhen: stepCountIs(input.maxSteps),
    maxRetries: input.maxRetries,
    abortSignal: input.abortSignal,
    providerOptions: input.providerOptions,
    prepareStep: input.prepareStep,
    onStepFinish: input.onStepFinish,
    // Errors are read from the stream below and thrown to the caller, not logged by the SDK.
    onError: () => {},
  });
  const signal = input.abortSignal;
  try {
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') {
        if (part.text) input.onText?.(part.text);
      } else if (part.type === 'error') {
        throw part.error;
      } else if (part.type === 'abort') {
        throw signal.reason;
      }
    }
    if (signal.aborted) throw signal.reason;
  } catch (err) {
    // However the SDK reports an abort (an abort part, a stream error), the caller gets its reason.
    throw signal.aborted ? signal.reason : err;
  }
  const [text, reasoningText, usage, steps] = await Promise.all([
    result.text,
    result.reasoningText,
    result.totalUsage,
    result.steps,
  ]);
  return {
    text,
    reasoningText,
    usage: { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens },
    steps,
  };
}
