/**
 * Access rules shared by the workspace modules (goals, advice, tasks, contacts). `levels` is the
 * caller's memberships: organization id → org_access_level.
 */
export type Memberships = ReadonlyMap<string, string>;

/** Admins and managers of an organization may edit what belongs to or is shared with it. */
export const MANAGING_LEVELS: ReadonlySet<string> = new Set(['admin', 'manager']);

/** True when the caller is an admin or manager of at least one of these organizations. */
export function managesAny(levels: Memberships, orgIds: readonly (string | null)[]): boolean {
  return orgIds.some((id) => id !== null && MANAGING_LEVELS.has(levels.get(id) ?? ''));
}

/** True when the caller is a member of at least one of these organizations. */
export function memberOfAny(levels: Memberships, orgIds: readonly (string | null)[]): boolean {
  return orgIds.some((id) => id !== null && levels.has(id));
}
