// Who may do what with accounts. The admin routes (`auth: 'admin'`) let only the platform administrator
// in; these are the rules inside them and on a person's own profile. The service asks, and turns a
// refusal into a 403 with it as the detail. An organization admin's edits of a managed account are the
// organization's rules (organizations.policy.ts).

import { isPlatformAdmin } from '../../platform/access.ts';

type Account = { id: string; user_level: string };

/** Self sign-up always lands here, whatever the body says: a platform admin approves by giving a level. */
export const SIGN_UP_LEVEL = 'waitlisted';

/**
 * A first single sign-on makes an account: approved at once when the operator allows the e-mail's
 * domain (`OIDC_ALLOWED_DOMAINS`), else on the waitlist like any sign-up.
 */
export const ssoSignUpLevel = (domainAllowed: boolean): string => (domainAllowed ? 'user' : SIGN_UP_LEVEL);

/** The accounts that cannot be deleted, by anyone: the platform's admins and the CEOs. */
const UNDELETABLE_LEVELS: ReadonlySet<string> = new Set(['admin', 'ceo']);

/** Custom prompts (instructions to the AI about a person) are seen and set by a platform admin only. */
export const maySeeCustomPrompts = (viewer: { user_level: string }): boolean => isPlatformAdmin(viewer);

/**
 * Nobody changes their own level, an admin included (an admin cannot lock themselves out, nor approve
 * themselves off the waitlist). The level read back unchanged (a round-trip body) is no change.
 */
export function ownLevelChangeRefusal(
  caller: Account,
  targetId: string,
  level: string | undefined,
): string | null {
  if (targetId !== caller.id || level === undefined || level === caller.user_level) return null;
  return 'You cannot change your own user level.';
}

/** What a person may not change of their own profile: their level; custom prompts unless an admin. */
export function profileEditRefusal(
  me: Account,
  change: { user_level?: string; custom_prompts?: unknown },
): string | null {
  const ownLevel = ownLevelChangeRefusal(me, me.id, change.user_level);
  if (ownLevel) return ownLevel;
  if (change.custom_prompts !== undefined && !maySeeCustomPrompts(me)) {
    return 'Only administrators can edit custom prompts.';
  }
  return null;
}

/**
 * A platform admin approves, waitlists, re-levels and sets a new password for any account but changes
 * no level of their own; the admin routes let only a platform admin reach this.
 */
export function accountEditRefusal(
  admin: Account,
  targetId: string,
  change: { user_level?: string },
): string | null {
  if (!isPlatformAdmin(admin)) return 'Only administrators can do this.';
  return ownLevelChangeRefusal(admin, targetId, change.user_level);
}

/** A platform admin deletes any account but their own and the admins' and CEOs'. */
export function deletionRefusal(admin: Account, target: Account): string | null {
  if (!isPlatformAdmin(admin)) return 'Only administrators can do this.';
  if (target.id === admin.id) return 'You cannot delete your own account.';
  if (UNDELETABLE_LEVELS.has(target.user_level)) return 'Admin and CEO accounts cannot be deleted.';
  return null;
}
