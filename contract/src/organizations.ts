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
  /** Whether the caller may rename and delete this organization (platform admin, or a CEO who is its org admin). */
  can_edit: z.boolean(),
});
export type TOrganization = z.infer<typeof ZOrganization>;

export const ZOrganizationName = z.strictObject({
  name: z.string().trim().min(1, 'Organization name is required').max(200),
});

/**
 * A member row. An invitation (is_invite true) shows only the e-mail and the level it offers: user_id,
 * names and user_level stay null whether or not an account owns the e-mail.
 */
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
  /**
   * Whether the caller may change this member's e-mail, names and password: a platform admin always;
   * an organization admin only for an account this organization manages (created through it and a
   * member of no other organization).
   */
  can_edit_account: z.boolean(),
  /**
   * Whether the caller may change this member's access level and remove them: an organization admin,
   * but not for the organization's ceo or a platform admin (only a platform admin may).
   */
  can_change_access: z.boolean(),
  updated_at: z.string(),
  /** A new e-mail set by an organization admin, waiting for that address to confirm it (managers only). */
  pending_email: z.string().nullable().optional(),
  /**
   * Only in the answer that creates an invitation for an address no account owns: whether its link was
   * e-mailed, and the link itself when no mail server is configured (for the inviter to pass on).
   */
  invite_email_sent: z.boolean().optional(),
  invite_link: z.string().optional(),
});
export type TOrgMember = z.infer<typeof ZOrgMember>;

const ZMemberEmail = z
  .string({ message: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .regex(EMAIL_PATTERN, 'Invalid email address')
  .transform((s) => s.toLowerCase());

/**
 * POST /api/organizations/{id}/users: every e-mail becomes an invitation that its owner accepts or
 * declines from their own session (GET /api/users/me/invitations). first_name / last_name are still
 * accepted for older clients but ignored: an invitation carries nothing about the account.
 */
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

/** GET /api/users/me/invitations: the signed-in person's pending invitations. */
export const ZInvitation = z.object({
  id: z.string(),
  organization_id: z.string(),
  organization_name: z.string(),
  /** The level the person gets once they accept. */
  org_access_level: ZOrgAccessLevel,
  /** The inviter's display name, null when their account is gone. */
  invited_by_name: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TInvitation = z.infer<typeof ZInvitation>;
