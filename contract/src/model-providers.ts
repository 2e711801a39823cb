import { z } from 'zod';

/**
 * Super Admin → Models (issue 47 item 3): the model providers set from the screen. Keys are write-only:
 * an answer says whether a key is set and its last four characters, never the key.
 */

/** Where a provider's setting comes from: the server's environment (read-only here) or this screen. */
export const MODEL_SETTING_SOURCES = ['environment', 'settings'] as const;
export type TModelSettingSource = (typeof MODEL_SETTING_SOURCES)[number];

/** A key as an answer shows it. */
export const ZProviderKeyState = z.object({
  set: z.boolean(),
  /** the key's last four characters (null when unset or unreadable) */
  last4: z.string().nullable(),
  /** stored, but it cannot be opened with this server's SECRETS_KEY (changed key): enter it again */
  unreadable: z.boolean(),
});
export type TProviderKeyState = z.infer<typeof ZProviderKeyState>;

export const ZProviderState = z.object({
  /** null: not configured */
  source: z.enum(MODEL_SETTING_SOURCES).nullable(),
  key: ZProviderKeyState,
});

/** GET (and PUT's answer) /api/admin/model-providers. */
export const ZModelProviders = z.object({
  compatible: ZProviderState.extend({ base_url: z.string().nullable() }),
  openai: ZProviderState,
  google: ZProviderState,
  default_model: z.object({
    model: z.string(),
    /** null: the built-in default (gpt-5-chat) */
    source: z.enum(MODEL_SETTING_SOURCES).nullable(),
  }),
  /** true when no provider answers: every AI feature uses the offline engine */
  offline: z.boolean(),
});
export type TModelProviders = z.infer<typeof ZModelProviders>;

/** No whitespace or control characters: a key or URL is one token. */
const TOKEN = /^[^\s\p{Cc}]+$/u;
const ZApiKey = z
  .string()
  .trim()
  .min(1, 'Enter the key, or leave the field out to keep the current one.')
  .max(500)
  .regex(TOKEN, 'A key has no spaces or control characters.');
export const ZBaseUrl = z
  .string()
  .trim()
  .min(1, 'Enter the base URL, e.g. http://localhost:11434/v1.')
  .max(2000)
  .regex(TOKEN, 'A URL has no spaces or control characters.');

/**
 * PUT /api/admin/model-providers: only the fields given change. `null` removes a setting; a key left out
 * keeps the stored one (for the OpenAI-compatible provider: while its base URL stays the same).
 */
export const ZModelProvidersUpdate = z.strictObject({
  compatible: z
    .strictObject({ base_url: ZBaseUrl, api_key: ZApiKey.nullable().optional() })
    .nullable()
    .optional(),
  openai_api_key: ZApiKey.nullable().optional(),
  google_api_key: ZApiKey.nullable().optional(),
  /** a built-in model id or an offered model of the OpenAI-compatible provider; null: the built-in default */
  default_model: z.string().trim().min(1).max(200).regex(TOKEN).nullable().optional(),
});
export type TModelProvidersUpdate = z.infer<typeof ZModelProvidersUpdate>;

/** POST /api/admin/model-providers/test: without `api_key`, the stored key of the same base URL is used. */
export const ZModelProviderTest = z.strictObject({ base_url: ZBaseUrl, api_key: ZApiKey.optional() });
export type TModelProviderTest = z.infer<typeof ZModelProviderTest>;

export const ZModelProviderTestResult = z.object({ models: z.array(z.string()) });
export type TModelProviderTestResult = z.infer<typeof ZModelProviderTestResult>;

/** The banner's link target: Super Admin opened on its Models tab. */
export const MODELS_ADMIN_PATH = '/app/admin?tab=models';
