// Who may see and set spend. Everyone sees their own usage; only administrators see others': the
// platform admin everything, an organization's admins their organization (its totals and members).

import { isPlatformAdmin } from '../../platform/access.ts';

type Caller = { id: string; user_level: string };

/** Rights over one organization's spend, given the caller's membership level there (undefined: none). */
export function orgSpendRights(caller: Caller, membership: string | undefined) {
  const platformAdmin = isPlatformAdmin(caller);
  return {
    /** the organization may be named to the caller at all (else: 404) */
    visible: platformAdmin || membership !== undefined,
    /** see its usage and budgets, set its budget and its members' budgets */
    manage: platformAdmin || membership === 'admin',
  };
}
