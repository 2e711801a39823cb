import type { LanguageModelV3Prompt } from '@ai-sdk/provider';

/** A tool's result as the offline engine reads it from the prompt (the value the tool returned). */
export interface OfflineToolResult {
  toolName: string;
  toolCallId: string;
  output: unknown;
}

/**
 * What a feature's offline handler receives. `data` is the JSON the caller passed in
 * `providerOptions.offline.data`; `toolResults` are the results of the tools the engine called since
 * the last user message (empty when no tools were offered).
 */
export interface OfflineHandlerInput {
  data: unknown;
  prompt: LanguageModelV3Prompt;
  system: string;
  lastUserText: string;
  toolResults: OfflineToolResult[];
  /** The model id the caller asked for (the engine never claims to be it). */
  requestedModelId: string;
}

/** Pure and deterministic: the same input gives the same markdown/JSON text, which the engine streams. */
export type OfflineHandler = (input: OfflineHandlerInput) => string;

/** The first line of every chat answer: the engine says plainly what it is. */
export const OFFLINE_NOTICE =
  'Offline engine: no AI provider is configured, so this answer is built from your workspace data.';
