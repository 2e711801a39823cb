import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';

/** One prior message given to the model as context. */
export interface TurnHistoryItem {
  role: 'user' | 'assistant' | 'system';
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
  abortSignal: AbortSignal;
}

export interface AssistantTurnStream {
  /** The model id that answers. */
  model: string;
  textStream: AsyncIterable<string>;
  /** Token usage once the stream has ended (nulls when the provider does not say). */
  usage(): Promise<{ inputTokens: number | null; outputTokens: number | null }>;
}

/**
 * The seam between the chat and the AI layer: everything model-specific (model resolution, memory,
 * internal and internet search, the offline engine) lives behind streamAssistantTurn.
 * TEMPORARY until server/src/ai/assistant.ts lands: a deterministic echo streamed word by word.
 */
export async function startAssistantTurn(
  _ctx: AppContext,
  req: AssistantTurnRequest,
): Promise<AssistantTurnStream> {
  const words = `You said: ${req.messageText}`.split(/(?<= )/);
  async function* gen() {
    for (const w of words) {
      if (req.abortSignal.aborted) return;
      await new Promise((r) => setTimeout(r, 5));
      yield w;
    }
  }
  return {
    model: req.model ?? 'gpt-5-chat',
    textStream: gen(),
    usage: async () => ({ inputTokens: null, outputTokens: null }),
  };
}
