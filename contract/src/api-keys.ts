import { z } from 'zod';
import { ZTimestamp } from './common.ts';

/** The parts of the workspace a personal API key can be allowed to read or write. */
export const API_KEY_DOMAINS = [
  'goals',
  'tasks',
  'notes',
  'contacts',
  'comms',
  'conversations',
  'runs',
  'brief',
] as const;
export type ApiKeyDomain = (typeof API_KEY_DOMAINS)[number];

export const API_KEY_SCOPES = API_KEY_DOMAINS.flatMap((d) => [`read:${d}`, `write:${d}`] as const);
export const ZApiKeyScope = z.enum(API_KEY_SCOPES as [string, ...string[]]);
export type ApiKeyScope = `${'read' | 'write'}:${ApiKeyDomain}`;

/** Every key's secret starts with this, so a bearer token is told apart from a session token at once. */
export const API_KEY_SECRET_PREFIX = 'cck_';
export const MAX_API_KEYS_PER_USER = 50;
/**
 * A key is made only by someone who proved they are the account's person: the current password, or a
 * sign-in (of the session making the key) at most this many minutes ago. A stolen session alone cannot.
 */
export const API_KEY_RECENT_SIGN_IN_MINUTES = 10;

export const ZCreateApiKeyRequest = z.object({
  name: z.string().trim().min(1, 'Name is required').max(100),
  scopes: z.array(ZApiKeyScope).min(1, 'Choose at least one scope').max(API_KEY_SCOPES.length),
  expires_at: z
    .string()
    .datetime({ offset: true, message: 'An ISO date and time' })
    .refine((s) => Date.parse(s) > Date.now(), 'The expiry must be in the future')
    .nullish(),
  /** Needed unless this session signed in within the last API_KEY_RECENT_SIGN_IN_MINUTES. */
  current_password: z.string().max(1000).optional(),
});
export type TCreateApiKeyRequest = z.infer<typeof ZCreateApiKeyRequest>;

export const ZApiKey = z.object({
  id: z.string(),
  name: z.string(),
  /** The public start of the secret, shown so a key can be recognised. */
  prefix: z.string(),
  scopes: z.array(z.string()),
  created_at: ZTimestamp,
  last_used_at: ZTimestamp.nullable(),
  expires_at: ZTimestamp.nullable(),
});
export type TApiKey = z.infer<typeof ZApiKey>;

/** Only the answer to creation carries the secret; it is never shown again. */
export const ZCreatedApiKey = ZApiKey.extend({ secret: z.string() });
export type TCreatedApiKey = z.infer<typeof ZCreatedApiKey>;
