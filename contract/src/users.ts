import { z } from 'zod';
import { PASSWORD_CHANGE_MIN } from './auth.ts';
import { ZBriefSchedule } from './briefs.ts';
import { ZEmail, ZJsonObject, ZRefId, ZSkip } from './common.ts';

export const USER_LEVELS = ['waitlisted', 'user', 'admin', 'ceo'] as const;
export const ZUserLevel = z.enum(USER_LEVELS);
export type TUserLevel = z.infer<typeof ZUserLevel>;
export const USER_LEVEL_LABELS: Record<string, string> = {
  waitlisted: 'Waitlisted',
  user: 'User',
  admin: 'Admin',
  ceo: 'CEO',
};
/** Admin-created users default to waitlisted, like self sign-ups. */
export const DEFAULT_ADMIN_CREATED_LEVEL: TUserLevel = 'waitlisted';

export const ZProfile = z.object({
  user_id: z.string(),
  name: z.string().nullable(),
  role: z.string().nullable(),
  objectives: z.array(z.string()),
  behavior_notes: z.string().nullable(),
  knowledge_summary: z.string().nullable(),
  /** Only present for admins: the server strips it for everyone else. */
  custom_prompts: z.record(z.string(), z.unknown()).optional(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TProfile = z.infer<typeof ZProfile>;

export const ZUser = z.object({
  id: z.string(),
  email: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  user_level: z.string(),
  organization_id: z.string().nullable(),
  organization_name: z.string().nullable(),
  role: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  profile: ZProfile,
  /** The executive brief's schedule; null until the user saves one (the web offers the default). */
  brief_schedule: ZBriefSchedule.nullable().optional(),
  /** Whether the address was verified here (sign-up link, made by an administrator or by single sign-on). */
  email_verified: z.boolean().optional(),
});
export type TUser = z.infer<typeof ZUser>;

const ZObjectives = z.array(z.string().max(500)).max(50);

/** custom_prompts are stored as one JSON text: this many characters at most, as an object or a string. */
export const CUSTOM_PROMPTS_MAX_CHARS = 100_000;
const ZCustomPrompts = ZJsonObject(CUSTOM_PROMPTS_MAX_CHARS);
const ZText = (max: number) => z.string().max(max).nullable();

/** PATCH /api/users/me: profile fields or a password change. Unknown fields are refused (422). */
export const ZUpdateMeRequest = z.strictObject({
  first_name: z.string().trim().max(100).optional(),
  last_name: z.string().trim().max(100).optional(),
  name: ZText(200).optional(),
  role: ZText(200).optional(),
  objectives: ZObjectives.optional(),
  behavior_notes: ZText(5000).optional(),
  knowledge_summary: ZText(10000).optional(),
  /** Admin only; anyone else gets 403. */
  custom_prompts: ZCustomPrompts.optional(),
  password: z
    .string()
    .min(1, 'Password is required')
    .min(PASSWORD_CHANGE_MIN, 'Password must be at least 8 characters')
    .max(256)
    .optional(),
  current_password: z.string().max(256).optional(),
  /** The brief's schedule; null clears it (back to the default, off). */
  brief_schedule: ZBriefSchedule.nullable().optional(),
  /** Never allowed through this endpoint: present only so the server can answer 403 clearly. */
  user_level: z.string().max(50).optional(),
});
export type TUpdateMeRequest = z.input<typeof ZUpdateMeRequest>;

/** POST /api/users/ (admin). */
export const ZAdminCreateUserRequest = z.strictObject({
  email: ZEmail,
  password: z.string().min(PASSWORD_CHANGE_MIN, 'Password must be at least 8 characters').max(256),
  user_level: ZUserLevel.default(DEFAULT_ADMIN_CREATED_LEVEL),
  organization_id: ZRefId.nullable().optional(),
  first_name: z.string().trim().max(100).nullable().optional(),
  last_name: z.string().trim().max(100).nullable().optional(),
  role: ZText(200).optional(),
});
export type TAdminCreateUserRequest = z.input<typeof ZAdminCreateUserRequest>;

/**
 * PATCH /api/users/{id} (admin): changed fields only. custom_prompts may arrive as a JSON string;
 * invalid JSON becomes {} (spec section 5).
 */
export const ZAdminUpdateUserRequest = z.strictObject({
  email: ZEmail.optional(),
  password: z.string().min(PASSWORD_CHANGE_MIN, 'Password must be at least 8 characters').max(256).optional(),
  user_level: ZUserLevel.optional(),
  organization_id: ZRefId.nullable().optional(),
  first_name: z.string().trim().max(100).nullable().optional(),
  last_name: z.string().trim().max(100).nullable().optional(),
  role: ZText(200).optional(),
  name: ZText(200).optional(),
  objectives: ZObjectives.optional(),
  behavior_notes: ZText(5000).optional(),
  knowledge_summary: ZText(10000).optional(),
  custom_prompts: z.union([ZCustomPrompts, z.string().max(CUSTOM_PROMPTS_MAX_CHARS), z.null()]).optional(),
});
export type TAdminUpdateUserRequest = z.input<typeof ZAdminUpdateUserRequest>;

export const ZUserListQuery = z.object({
  search: z.string().max(200).optional(),
  skip: ZSkip,
  limit: z.coerce.number().int().min(1).max(200).default(200),
});

/** Display name used across the app: first + last name, else the e-mail. */
export function displayName(u: {
  first_name?: string | null;
  last_name?: string | null;
  email: string;
}): string {
  const n = [u.first_name, u.last_name].filter((s) => s?.trim()).join(' ');
  return n || u.email;
}

/** Objectives are typed one per line: split, trim, drop blank lines. */
export function parseObjectives(text: string): string[] {
  return text
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Custom prompts are edited as JSON text: invalid JSON or a non-object becomes {}. */
export function parseCustomPrompts(text: unknown): Record<string, unknown> {
  if (text && typeof text === 'object' && !Array.isArray(text)) return text as Record<string, unknown>;
  if (typeof text !== 'string') return {};
  try {
    const v = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}
