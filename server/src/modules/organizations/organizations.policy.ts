// Who may do what in an organization. Rights come from the caller's membership, never from their
// global level alone: a `ceo` who is a plain member of an organization runs nothing there. The API's
// `can_manage` / `can_edit` / `can_edit_account` flags and the checks of every write use these functions.

import { isPlatformAdmin } from '../../platform/access.ts';

type Caller = { id: string; user_level: string };

const RANK: Record<string, number> = { user: 1, manager: 2, admin: 3 };

/** The caller's rights in an organization, given their membership level there (undefined: not a member). */
export function organizationRights(caller: Caller, membership: string | undefined) {
  const platformAdmin = isPlatformAdmin(caller);
  const orgAdmin = membership === 'admin';
  return {
    visible: platformAdmin || membership !== undefined,
    /** add, edit and remove members */
    canManage: platformAdmin || orgAdmin,
    /** rename and delete the organization */
    canEdit: platformAdmin || (caller.user_level === 'ceo' && orgAdmin),
  };
}

/** A member may never grant a level above their own; a platform admin may grant any. */
export function mayGrantLevel(caller: Caller, membership: string | undefined, level: string): boolean {
  if (isPlatformAdmin(caller)) return true;
  return (RANK[level] ?? Number.POSITIVE_INFINITY) <= (RANK[membership ?? ''] ?? 0);
}

/** The member whose rights are being checked: their account's level and how the organization holds it. */
export interface MemberTarget {
  user_id: string;
  user_level: string | null;
  managed_by_organization_id: string | null;
  /** whether the account is also a member of another organization */
  in_other_organization: boolean;
}

/** The organization's ceo and platform admins are out of an org admin's reach (demote, remove). */
export function mayChangeMembership(caller: Caller, target: MemberTarget): boolean {
  if (isPlatformAdmin(caller) || target.user_id === caller.id) return true;
  return target.user_level !== 'ceo' && target.user_level !== 'admin';
}

/**
 * Whether the caller may change the account (e-mail, names, password) of a member: a platform admin any
 * account; an organization manager only an account this organization manages — created through it and
 * a member of no other organization — never their own (the profile page asks for the current password)
 * nor an admin's or a ceo's. Returns the reason when not.
 */
export function accountEditRefusal(
  caller: Caller,
  canManage: boolean,
  orgId: string,
  target: MemberTarget,
): string | null {
  if (isPlatformAdmin(caller)) return null;
  if (!canManage) return 'You cannot manage the members of this organization.';
  if (target.user_id === caller.id) return 'Change your own account from your profile.';
  if (target.user_level === 'admin' || target.user_level === 'ceo') {
    return 'Only a platform administrator can change this account.';
  }
  if (target.managed_by_organization_id !== orgId || target.in_other_organization) {
    return 'This account is not managed by this organization: only its owner or a platform administrator can change its e-mail, name or password.';
  }
  return null;
}
