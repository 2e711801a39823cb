/**
 * One assistant turn of a conversation, streamed.
 *
 * ```ts
 * const turn = await streamAssistantTurn({
 *   ctx, user, modelId: body.model, history, message: body.message_text,
 *   useMemory: body.use_memory, useInternalSearch: body.use_internal_search, useInternet: body.use_internet,
 *   conversationId, attachments, abortSignal,
 * });
 * for await (const delta of turn.textStream) { ... }   // token deltas as they arrive
 * const { text, engine, model, usage, sources, aborted } = await turn.result;
 * ```
 *
 * - Async: it resolves the model first, so an unknown model id throws AppError 422 before anything
 *   streams; memories are loaded when `useMemory` is on.
 * - `history` is the previous messages, oldest first (the caller picks how many: context_messages).
 * - Tools follow the toggles: Internal Search → `internal_search` + `workspace_snapshot`; Internet →
 *   `web_search` (only when a search provider is configured). They run as `user`. Up to 4 steps.
 * - `result` settles whether or not `textStream` is read. Aborting (`abortSignal`, or leaving the
 *   `for await` early) stops the model call upstream; `result` then resolves with `aborted: true` and
 *   the partial text. A failure (provider error after retries, stalled stream past
 *   AI_STREAM_IDLE_TIMEOUT_MS) makes `textStream` throw and `result` reject with an
 *   {@link AssistantTurnError} carrying the partial text.
 * - `engine` is 'offline' when the offline engine answered (its reply says so in its first line).
 * - `attachments` (the conversation's files with their text) go into the system prompt, bounded to
 *   MAX_ATTACHMENT_CHARS in all; the offline engine quotes and cites the ones matching the question.
 * - `sources` are the workspace records (and web pages) the tools returned, for citations.
 */
import type { AuthUser } from '../platform/auth/authenticate.ts';
import type { AppContext } from '../platform/context.ts';
import { relevantMemories } from '../modules/memory/memory.service.ts';
import { type AiEngine, resolveModelFresh } from './models.ts';
import { ATTACHMENTS_HEADER, type ChatOfflineData, MEMORY_HEADER } from './offline/handlers/chat.ts';
import { runToolLoop, type ToolLoopResult } from './tool-loop.ts';
import { buildTools, internetSearchAvailable } from './tools/index.ts';
import { type Source, sourcesNamedIn, sourcesOf } from './tools/types.ts';
import { UNTRUSTED_INSTRUCTION, UNTRUSTED_CLOSE, UNTRUSTED_OPEN, wrapUntrusted } from './untrusted.ts';

export const MAX_ASSISTANT_STEPS = 4;
const MEMORIES_IN_PROMPT = 5;
/** All attached files together give the model at most this much text (each gets an equal share). */
export const MAX_ATTACHMENT_CHARS = 20_000;

/** A file attached in the conversation, with its extracted text. */
export interface AssistantAttachment {
  id: string;
  name: string;
  text: string;
}

/** Bounds the attachments' text: an equal share each (unused share passes on), cut with a marker. */
export function boundAttachments(files: readonly AssistantAttachment[]): AssistantAttachment[] {
  const usable = files.filter((f) => f.text.trim() !== '');
  const out: AssistantAttachment[] = [];
  let left = MAX_ATTACHMENT_CHARS;
  for (const [i, f] of usable.entries()) {
    const share = Math.floor(left / (usable.length - i));
    const text = f.text.length > share ? `${f.text.slice(0, share)}\n[… truncated]` : f.text;
    left -= Math.min(f.text.length, share);
    out.push({ id: f.id, name: f.name, text });
  }
  return out;
}

export interface AssistantTurnInput {
  ctx: AppContext;
  user: AuthUser;
  modelId?: string | null;
  history: { role: 'user' | 'assistant'; content: string }[];
  message: string;
  useMemory: boolean;
  useInternalSearch: boolean;
  useInternet: boolean;
  conversationId?: string | null;
  /** Files attached in the conversation: their text is given to the model (bounded), by name. */
  attachments?: AssistantAttachment[];
  abortSignal?: AbortSignal;
}

export interface AssistantTurnResult {
  text: string;
  engine: AiEngine;
  /** the model that answered ('offline' for the offline engine) */
  model: string;
  usage: { inputTokens?: number; outputTokens?: number };
  sources: Source[];
  /** true when the turn was stopped before the model finished */
  aborted: boolean;
}

export interface AssistantTurn {
  textStream: AsyncIterable<string>;
  result: Promise<AssistantTurnResult>;
  engine: AiEngine;
  model: string;
}

/** A failed turn; `partialText` is what had streamed before the failure. */
export class AssistantTurnError extends Error {
  override name = 'AssistantTurnError';
  constructor(
    message: string,
    readonly partialText: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}

export function assistantSystemPrompt(o: {
  userName: string | null;
  today: string;
  memories: string[];
  internalSearch: boolean;
  internet: 'off' | 'on' | 'unavailable';
  attachments?: AssistantAttachment[];
}): string {
  const lines = [
    'You are the Command Centre assistant for an executive: concise, practical, and honest.',
    `Today is ${o.today}.${o.userName ? ` You are talking with ${o.userName}.` : ''}`,
    'Answer in Markdown.',
    UNTRUSTED_INSTRUCTION,
  ];
  if (o.internalSearch) {
    lines.push(
      "Use the internal_search and workspace_snapshot tools to ground answers in the user's goals, KPIs,",
      'tasks, notes, advice and contacts. Name the records you used (e.g. Task “…”, Goal “…”) and end with',
      'a line "Sources: …". Never invent records.',
      // The same answer-first rule the offline engine follows (issue 47 item 2).
      'Answer what was asked first, in a sentence or two. For a metric, give the KPI’s latest value and its',
      'check-in date, the target, the trend and the forecast from workspace_snapshot; prefer the KPI over any',
      'file text. For "what is behind / at risk / what should I do", name exactly the goals whose risk says',
      'at risk, with their reasons, and at most three concrete actions. For a draft, write plain prose.',
      'Otherwise name the best matching records in a sentence; cite only the records you used.',
    );
  } else {
    lines.push('Internal search is off for this message: do not claim to have looked at workspace data.');
  }
  if (o.internet === 'on') lines.push('Use web_search for current public information and cite the URLs.');
  if (o.internet === 'unavailable')
    lines.push('Internet search was requested but is not configured on this server; say so if it matters.');
  if (o.memories.length > 0) {
    // Remembered facts come from earlier conversations and files: data, inside the delimiters.
    lines.push('', UNTRUSTED_OPEN, `${MEMORY_HEADER} (from earlier conversations):`);
    for (const m of o.memories) lines.push(`- ${m.replace(/<<<|>>>/g, '')}`);
    lines.push(UNTRUSTED_CLOSE);
  }
  if (o.attachments && o.attachments.length > 0) {
    lines.push(
      '',
      `${ATTACHMENTS_HEADER}. Use them when they are relevant and cite each one you used by name (File “name”):`,
    );
    for (const f of o.attachments) lines.push('', wrapUntrusted(`File “${f.name}”`, f.text));
  }
  return lines.join('\n');
}

/** A small queue between the model pump and the consumer, so `result` settles even if nobody reads. */
function textQueue() {
  const items: string[] = [];
  let done = false;
  let failure: unknown = null;
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  return {
    push(s: string) {
      items.push(s);
      notify();
    },
    end(err?: unknown) {
      done = true;
      failure = err ?? null;
      notify();
    },
    async *iterate(onEarlyExit: () => void): AsyncGenerator<string> {
      let finished = false;
      try {
        for (;;) {
          if (items.length > 0) {
            yield items.shift() as string;
            continue;
          }
          if (done) {
            finished = true;
            if (failure) throw failure;
            return;
          }
          await new Promise<void>((r) => {
            wake = r;
          });
        }
      } finally {
        if (!finished) onEarlyExit();
      }
    },
  };
}

export async function streamAssistantTurn(input: AssistantTurnInput): Promise<AssistantTurn> {
  const { ctx, user } = input;
  // Memories are read while the model is resolved and the budget answers (a read; a refused turn drops it).
  const memoriesRead = input.useMemory
    ? relevantMemories(ctx, user.id, input.message, MEMORIES_IN_PROMPT)
    : Promise.resolve([]);
  memoriesRead.catch(() => {});
  const resolved = await resolveModelFresh(ctx, input.modelId, {
    userId: user.id,
    organizationId: user.organization_id,
    feature: 'chat',
    conversationId: input.conversationId ?? null,
  });
  const internet: ChatOfflineData['internetSearch'] = !input.useInternet
    ? 'off'
    : internetSearchAvailable(ctx.config)
      ? 'on'
      : 'unavailable';
  const toolNames = [
    ...(input.useInternalSearch ? ['internal_search', 'workspace_snapshot'] : []),
    ...(internet === 'on' ? ['web_search'] : []),
  ];
  const tools = buildTools(ctx, user, toolNames);
  const userName = [user.first_name, user.last_name].filter(Boolean).join(' ') || null;

  const attachments = boundAttachments(input.attachments ?? []);
  // The budget answers before anything streams: a refused turn is a 429 and stores nothing.
  const promptChars =
    input.message.length +
    input.history.reduce((n, m) => n + m.content.length, 0) +
    attachments.reduce((n, f) => n + f.text.length, 0);
  await resolved.meter?.reserveAhead(promptChars);
  let memories: string[];
  try {
    memories = await memoriesRead;
  } catch (err) {
    await resolved.meter?.release().catch(() => {});
    throw err;
  }
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(input.abortSignal?.reason);
  if (input.abortSignal?.aborted) onOuterAbort();
  else input.abortSignal?.addEventListener('abort', onOuterAbort, { once: true });

  // What the offline engine answers from; a provider model never reads it, so it is not copied for one.
  const offlineOptions =
    resolved.engine === 'offline'
      ? {
          offline: {
            task: 'chat',
            data: JSON.parse(
              JSON.stringify({
                memories,
                userName,
                internetSearch: internet,
                attachments: attachments.map((f) => ({ name: f.name, text: f.text })),
              } satisfies ChatOfflineData),
            ),
          },
        }
      : undefined;
  const queue = textQueue();
  let text = '';
  const result = (async (): Promise<AssistantTurnResult> => {
    let aborted = false;
    let done: Pick<ToolLoopResult, 'usage' | 'steps'> = { usage: {}, steps: [] };
    try {
      done = await runToolLoop({
        model: resolved.model,
        system: assistantSystemPrompt({
          userName,
          today: new Date().toISOString().slice(0, 10),
          memories,
          internalSearch: input.useInternalSearch,
          internet,
          attachments,
        }),
        messages: [...input.history, { role: 'user', content: input.message }],
        tools,
        maxSteps: MAX_ASSISTANT_STEPS,
        maxRetries: ctx.config.ai.maxRetries,
        abortSignal: controller.signal,
        providerOptions: offlineOptions,
        onText: (delta) => {
          text += delta;
          queue.push(delta);
        },
      });
    } catch (err) {
      if (controller.signal.aborted && !(err instanceof Error && err.name === 'ModelTimeoutError')) {
        aborted = true;
      } else {
        const message = err instanceof Error ? err.message : 'The model call failed.';
        const failure = new AssistantTurnError(message, text, err);
        queue.end(failure);
        throw failure;
      }
    } finally {
      input.abortSignal?.removeEventListener('abort', onOuterAbort);
      // A turn stopped before its first model call gives its reservation back.
      await resolved.meter?.release().catch(() => {});
    }
    queue.end();
    return {
      text,
      engine: resolved.engine,
      model: resolved.id,
      usage: done.usage,
      sources: sourcesNamedIn(text, sourcesOf(done.steps.flatMap((s) => s.toolResults))),
      aborted,
    };
  })();
  // The caller may only await textStream; an unobserved rejection must not crash the process.
  result.catch(() => {});

  return {
    textStream: queue.iterate(() => controller.abort(new DOMException('The reader stopped.', 'AbortError'))),
    result,
    engine: resolved.engine,
    model: resolved.id,
  };
}
