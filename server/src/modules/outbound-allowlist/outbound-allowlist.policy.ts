import { forbidden } from '../../platform/errors.ts';

/**
 * Who decides which outbound calls need no approval (issue 46 row 5): a platform administrator only.
 * An entry lets any model send data to that method + destination without a person's say, so neither
 * a tool's owner nor an organization admin may add one. Everyone sees, on a tool's card, whether its
 * destination is listed.
 */
export const ALLOWLIST_EDIT_DENIED =
  'Only a platform administrator can change the side-effect-free destinations.';

export function assertMayManageAllowlist(caller: { user_level: string }): void {
  if (caller.user_level !== 'admin') throw forbidden(ALLOWLIST_EDIT_DENIED);
}
