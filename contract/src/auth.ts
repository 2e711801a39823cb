import { z } from 'zod';
import { ZEmail, ZRefId } from './common.ts';

export const TOKEN_STORAGE_KEY = 'authToken';
export const SIGNUP_PASSWORD_MIN = 6;
export const PASSWORD_CHANGE_MIN = 8;
/** Session lifetimes: "Remember me" gives 30 days, otherwise one day. */
export const SESSION_TTL_SECONDS = 24 * 3600;
export const REMEMBER_ME_TTL_SECONDS = 30 * 24 * 3600;

/** POST /api/auth/token, form-encoded (OAuth2 password style). */
export const ZTokenRequest = z.object({
  username: z.string().trim().min(1, 'Please enter both email and password.'),
  password: z.string().min(1, 'Please enter both email and password.'),
  remember_me: z
    .union([z.boolean(), z.enum(['true', 'false', 'on', '1', '0'])])
    .optional()
    .transform((v) => v === true || v === 'true' || v === 'on' || v === '1'),
});
export type TTokenRequest = z.input<typeof ZTokenRequest>;

export const ZTokenResponse = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  expires_at: z.string(),
});
export type TTokenResponse = z.infer<typeof ZTokenResponse>;

/**
 * POST /api/users/register. user_level and organization_id are accepted for compatibility with the
 * spec's payload but always ignored: self sign-up creates a waitlisted user.
 */
export const ZRegisterRequest = z.object({
  email: z.string({ message: 'Please fill in all fields.' }).pipe(ZEmail),
  password: z
    .string({ message: 'Please fill in all fields.' })
    .min(SIGNUP_PASSWORD_MIN, 'Password must be at least 6 characters long.')
    .max(256),
  first_name: z
    .string({ message: 'Please fill in all fields.' })
    .trim()
    .min(1, 'Please fill in all fields.')
    .max(100),
  last_name: z
    .string({ message: 'Please fill in all fields.' })
    .trim()
    .min(1, 'Please fill in all fields.')
    .max(100),
  user_level: z.string().max(50).optional(),
  organization_id: ZRefId.nullable().optional(),
});
export type TRegisterRequest = z.input<typeof ZRegisterRequest>;

/** POST /api/auth/stream-ticket: a single-use ticket valid 60 s for opening an SSE stream. */
export const ZStreamTicketResponse = z.object({ ticket: z.string(), expires_at: z.string() });
export type TStreamTicketResponse = z.infer<typeof ZStreamTicketResponse>;
