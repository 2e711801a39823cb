import { forbidden, notFound } from './errors.ts';

/**
 * Access rules shared by the workspace modules (goals, advice, tasks, contacts). `levels` is the
 * caller's memberships: organization id → org_access_level.
 */
export type Memberships = ReadonlyMap<string, string>;

/** The platform administrator (`user_level` admin), whatever their memberships. */
export const isPlatformAdmin = (u: { user_level: string | null }) => u.user_level === 'admin';

/**
 * The rule of the owner-only records (conversations, briefs, runs and their approvals, task
 * suggestions): the record when the caller owns it; otherwise, or when there is none, 404 with
 * `missing`, so someone else's record is answered exactly like one that does not exist.
 */
export function ownedBy<Row extends { user_id: string }>(
  row: Row | null | undefined,
  callerId: string,
  missing: string,
): Row {
  if (!row || row.user_id !== callerId) throw notFound(missing);
  return row;
}

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

/**
 * Rights over a record that has an owner and may belong to one organization (goals, advice): visible
 * to the owner and that organization's members; editable by the owner and its admins/managers.
 */
export function ownedRecordRights(
  record: { user_id: string; organization_id: string | null },
  callerId: string,
  levels: Memberships,
): { visible: boolean; canEdit: boolean } {
  const own = record.user_id === callerId;
  const level = record.organization_id ? levels.get(record.organization_id) : undefined;
  return { visible: own || level !== undefined, canEdit: own || MANAGING_LEVELS.has(level ?? '') };
}

/** Throws 403 unless the caller belongs to the organization (null/undefined: nothing to check). */
export function assertMemberOf(levels: Memberships, orgId: string | null | undefined): void {
  if (orgId && !levels.has(orgId)) throw forbidden('You are not a member of this organization.');
}

/**
 * Share targets of a shared record (tasks, contacts, files) must be organizations the caller belongs
 * to; ids the record is already shared with may stay. Throws 403 otherwise.
 */
export function assertShareable(
  levels: Memberships,
  ids: readonly string[],
  alreadyShared: readonly string[] = [],
) {
  for (const id of ids) {
    if (!levels.has(id) && !alreadyShared.includes(id)) {
      throw forbidden('You can only share with organizations you belong to.');
    }
  }
}
