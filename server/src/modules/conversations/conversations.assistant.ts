import { type AssistantAttachment, streamAssistantTurn } from '../../ai/assistant.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';

/** One prior message given to the model as context. */
export interface TurnHistoryItem {
  role: 'user' | 'assistant';
  content: string;
}

export interface AssistantTurnRequest {
  user: AuthUser;
  conversationId: string;
  messageText: string;
  history: TurnHistoryItem[];
  useMemory: boolean;
  useInternet: boolean;
  useInternalSearch: boolean;
  model?: string;
  /** The conversation's attached files with their text (the assistant bounds it). */
  attachments: AssistantAttachment[];
  abortSignal: AbortSignal;
}

export interface AssistantTurnStream {
  /** The model id that answers. */
  model: string;
  /** Token deltas; throws when the model call fails. */
  textStream: AsyncIterable<string>;
  /** Token usage once the stream has ended (nulls when the provider does not say). */
  usage(): Promise<{ inputTokens: number | null; outputTokens: number | null }>;
  /** Settles once the model call has wound down (also after an abort or a failure). */
  settled(): Promise<void>;
}

/**
 * The seam between the chat and the AI layer: model resolution (an unknown model is a 422 before
 * anything is stored), memory, internal and internet search and the offline engine all live behind
 * streamAssistantTurn.
 */
export async function startAssistantTurn(
  ctx: AppContext,
  req: AssistantTurnRequest,
): Promise<AssistantTurnStream> {
  const turn = await streamAssistantTurn({
    ctx,
    user: req.user,
    modelId: req.model ?? null,
    history: req.history,
    message: req.messageText,
    useMemory: req.useMemory,
    useInternalSearch: req.useInternalSearch,
    useInternet: req.useInternet,
    conversationId: req.conversationId,
    attachments: req.attachments,
    abortSignal: req.abortSignal,
  });
  return {
    model: turn.model,
    textStream: turn.textStream,
    usage: async () => {
      const r = await turn.result;
      return { inputTokens: r.usage.inputTokens ?? null, outputTokens: r.usage.outputTokens ?? null };
    },
    settled: () =>
      turn.result.then(
        () => {},
        () => {},
      ),
  };
}
