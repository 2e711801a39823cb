import { z } from 'zod';

/** The models the spec's select offers, in its order; the server list is filtered to these. */
export const ALLOWED_MODELS = ['gpt-5-chat', 'gpt-5', 'gpt-5-mini', 'gemini-2.5-pro'] as const;
export type TAllowedModel = (typeof ALLOWED_MODELS)[number];
export const DEFAULT_MODEL: TAllowedModel = 'gpt-5-chat';

/** Which engine serves a model: a provider, or the built-in offline engine (no key configured). */
export const AI_ENGINES = ['offline', 'openai', 'google', 'openai-compatible'] as const;
export type TAiEngine = (typeof AI_ENGINES)[number];

export const ZModelInfo = z.object({
  id: z.string(),
  name: z.string(),
  engine: z.enum(AI_ENGINES),
  /** false when the model is listed but cannot be called right now (e.g. its endpoint is down) */
  available: z.boolean(),
  is_default: z.boolean(),
});
export type TModelInfo = z.infer<typeof ZModelInfo>;

/** What the chat settings panel needs to label its toggles honestly. */
export const ZAiCapabilities = z.object({
  /** false when no internet search provider is configured: the toggle says so */
  internet_search: z.boolean(),
  /** true when no AI provider is configured and every model is served by the offline engine */
  offline: z.boolean(),
  default_model: z.string(),
});
export type TAiCapabilities = z.infer<typeof ZAiCapabilities>;

/** Label the settings panel shows for the offline engine. */
export const OFFLINE_ENGINE_LABEL = 'Offline engine (no AI provider configured)';

/** Filters a server list to the spec's models, falling back to all four when none is listed. */
export function selectableModels(list: readonly { id: string }[] | null | undefined): TAllowedModel[] {
  const ids = new Set((list ?? []).map((m) => m.id));
  const chosen = ALLOWED_MODELS.filter((id) => ids.has(id));
  return chosen.length > 0 ? chosen : [...ALLOWED_MODELS];
}
