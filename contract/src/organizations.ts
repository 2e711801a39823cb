import { z } from 'zod';
import { PASSWORD_CHANGE_MIN } from './auth.ts';
import { EMAIL_PATTERN } from './common.ts';

export const ORG_ACCESS_LEVELS = ['user', 'manager', 'admin'] as const;
export const ZOrgAccessLevel = z.enum(ORG_ACCESS_LEVELS, { message: 'Access level is required' });
export type TOrgAccessLevel = z.infer<typeof ZOrgAccessLevel>;
export const DEFAULT_ORG_ACCESS_LEVEL: TOrgAccessLevel = 'user';

export const ZOrganization = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  member_count: z.number(),
  /** The caller's own membership level in this organization, null when not a member (platform admin). */
  my_access_level: ZOrgAccessLevel.nullable(),
  /** Whether the caller may add, edit and remove this organization's members. */
  can_manage: z.boolean(),
  /** Whether the caller may rename and delete this organization (platform admin, or a CEO member). */
  can_edit: z.boolean(),
});
export type TOrganization = z.infer<typeof ZOrganization>;

export const ZOrganizationName = z.strictObject({
  name: z.string().trim().min(1, 'Organization name is required').max(200),
});

/** A member row. Invited e-mails without an account have user_id null and is_invite true. */
export const ZOrgMember = z.object({
  id: z.string(),
  user_id: z.string().nullable(),
  email: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  user_level: z.string().nullable(),
  org_access_level: ZOrgAccessLevel,
  is_invite: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TOrgMember = z.infer<typeof ZOrgMember>;

const ZMemberEmail = z
  .string({ message: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .regex(EMAIL_PATTERN, 'Invalid email address')
  .transform((s) => s.toLowerCase());

/** POST /api/organizations/{id}/users: an existing account joins; an unknown e-mail becomes an invite. */
export const ZAddOrgUserRequest = z.strictObject({
  email: ZMemberEmail,
  org_access_level: ZOrgAccessLevel.default(DEFAULT_ORG_ACCESS_LEVEL),
  first_name: z.string().trim().max(100).nullable().optional(),
  last_name: z.string().trim().max(100).nullable().optional(),
});
export type TAddOrgUserRequest = z.input<typeof ZAddOrgUserRequest>;

/** PATCH /api/organizations/{id}/users/{userId}: changed fields only; password optional, 8+ chars. */
export const ZUpdateOrgUserRequest = z.strictObject({
  email: ZMemberEmail.optional(),
  org_access_level: ZOrgAccessLevel.optional(),
  first_name: z.string().trim().max(100).nullable().optional(),
  last_name: z.string().trim().max(100).nullable().optional(),
  password: z.string().min(PASSWORD_CHANGE_MIN, 'Password must be at least 8 characters').max(256).optional(),
});
export type TUpdateOrgUserRequest = z.input<typeof ZUpdateOrgUserRequest>;
