import type { LanguageModelV3FinishReason, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { generateId } from '@ai-sdk/provider-utils';

const FINISH: Record<string, LanguageModelV3FinishReason['unified']> = {
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

/** A chat-completions stream chunk, as far as it is read (anything else in it is ignored). */
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

const BLOCK_IDS = { text: 'txt-0', reasoning: 'reasoning-0' } as const;
type Block = keyof typeof BLOCK_IDS;

/**
 * Maps the `data` of each chat-completions stream event to language-model stream parts, the way the
 * AI SDK's OpenAI-compatible model does: response metadata from the first chunk, text and reasoning as
 * start/delta/end blocks (one open at a time), tool calls assembled per index from their argument
 * pieces and emitted at the end, an error part for an `error` chunk or one that is not JSON, and a
 * final `finish` with the usage (converted by `convertUsage`) and the finish reason — an error part
 * first when the stream never said why it ended.
 */
export function chatChunkReader(
  emit: (part: LanguageModelV3StreamPart) => void,
  convertUsage: (usage: unknown) => Extract<LanguageModelV3StreamPart, { type: 'finish' }>['usage'],
  providerKey: string,
): { data(data: string): void; end(): void } {
  const toolCalls = new Map<number, { id: string | null; name: string; args: string }>();
  let usage: unknown;
  let finishReason: LanguageModelV3FinishReason | undefined;
  let first = true;
  let open: Block | null = null;

  const close = () => {
    if (open === 'text') emit({ type: 'text-end', id: BLOCK_IDS.text });
    if (open === 'reasoning') emit({ type: 'reasoning-end', id: BLOCK_IDS.reasoning });
    open = null;
  };
  const delta = (block: Block, text: string) => {
    const id = BLOCK_IDS[block];
    if (open !== block) {
      close();
      emit(block === 'text' ? { type: 'text-start', id } : { type: 'reasoning-start', id });
      open = block;
    }
    emit(
      block === 'text'
        ? { type: 'text-delta', id, delta: text }
        : { type: 'reasoning-delta', id, delta: text },
    );
  };
  const fail = (error: unknown) => {
    finishReason = { unified: 'error', raw: undefined };
    emit({ type: 'error', error });
  };

  return {
    data(data) {
      if (data === '[DONE]') return;
      let chunk: ChatChunk;
      try {
        chunk = JSON.parse(data) as ChatChunk;
      } catch (err) {
        fail(err);
        return;
      }
      if (chunk === null || typeof chunk !== 'object') return;
      if (chunk.error) {
        fail(new Error(chunk.error.message ?? 'The model reported an error.'));
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
      const d = choice?.delta;
      if (d == null) return;
      const reasoning = d.reasoning_content ?? d.reasoning;
      if (typeof reasoning === 'string' && reasoning) delta('reasoning', reasoning);
      if (typeof d.content === 'string') {
        if (d.content) delta('text', d.content);
      } else if (Array.isArray(d.content)) {
        for (const p of d.content) {
          if (p?.type === 'text' && typeof p.text === 'string' && p.text) delta('text', p.text);
        }
      }
      if (Array.isArray(d.tool_calls)) {
        if (open === 'reasoning') close();
        for (const [i, t] of d.tool_calls.entries()) {
          const index = t.index ?? i;
          let call = toolCalls.get(index);
          if (!call) {
            call = { id: null, name: '', args: '' };
            toolCalls.set(index, call);
          }
          if (t.id) call.id = t.id;
          if (t.function?.name) call.name = t.function.name;
          if (t.function?.arguments) call.args += t.function.arguments;
        }
      }
    },
    end() {
      close();
      for (const call of toolCalls.values()) {
        if (!call.name) continue;
        emit({
          type: 'tool-call',
          toolCallId: call.id ?? generateId(),
          toolName: call.name,
          input: call.args || '{}',
        });
      }
      if (finishReason == null) fail(new Error('Response stream ended without a finish reason.'));
      emit({
        type: 'finish',
        finishReason: finishReason ?? { unified: 'error', raw: undefined },
        usage: convertUsage(usage),
        providerMetadata: { [providerKey]: {} },
      });
    },
  };
}
