import { displayName, type TAssignableUser, type TContact, type TPastInteraction } from '@cc/contract';
import type { ContactInteractionsTable } from '../../db/types.ts';
import type { ContactRow, ShareRow } from './contacts.repository.ts';

export function parseList(text: string): string[] {
  try {
    const v = JSON.parse(text);
    return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    return [];
  }
}

export function presentInteraction(r: ContactInteractionsTable): TPastInteraction {
  return { id: r.id, date: r.date, summary: r.summary, notes: r.notes, updated_at: r.updated_at };
}

/** A contact as the API presents it, without the linked user and the caller's rights (its list entry). */
export type TContactFields = Omit<TContact, 'is_user' | 'linked_user_id' | 'can_edit' | 'can_delete'>;

export function presentContactFields(
  row: ContactRow,
  shares: ShareRow[],
  interactions: ContactInteractionsTable[],
): TContactFields {
  return {
    id: row.id,
    name: row.name,
    role: row.role,
    avatar_initial: row.avatar_initial,
    emails: parseList(row.emails),
    phones: parseList(row.phones),
    notes: row.notes,
    organization_id: row.organization_id,
    user_id: row.user_id,
    created_by_user: {
      id: row.user_id,
      name: displayName({
        first_name: row.owner_first_name,
        last_name: row.owner_last_name,
        email: row.owner_email,
      }),
      email: row.owner_email,
    },
    shared_org_ids: shares.map((s) => s.organization_id),
    shared_organizations: shares.map((s) => ({
      id: s.organization_id,
      name: s.name,
      is_owner: s.organization_id === row.organization_id,
    })),
    past_interactions: interactions.map(presentInteraction),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** What a contact's entry is completed with per read: the linked app user and the caller's rights. */
export interface ContactExtras {
  linkedUserId: string | null;
  canEdit: boolean;
  canDelete: boolean;
}

/** The API shape of a contact: `linkedUserId` is the app user one of its e-mails belongs to, if any. */
export function presentContact(
  row: ContactRow,
  extra: { shares: ShareRow[]; interactions: ContactInteractionsTable[] } & ContactExtras,
): TContact {
  return { ...presentContactFields(row, extra.shares, extra.interactions), ...extrasOf(extra) };
}

function extrasOf(e: ContactExtras) {
  return {
    is_user: e.linkedUserId !== null,
    linked_user_id: e.linkedUserId,
    can_edit: e.canEdit,
    can_delete: e.canDelete,
  };
}

/** A contact's stored list entry (contacts.list_json): its fields as JSON text. */
export function contactListJson(
  row: ContactRow,
  shares: ShareRow[],
  interactions: ContactInteractionsTable[],
): string {
  return JSON.stringify(presentContactFields(row, shares, interactions));
}

/** The JSON text of the rights a list entry ends with, for each of the four combinations. */
const RIGHTS_TAIL = Array.from(
  { length: 4 },
  (_, i) => `,"can_edit":${Boolean(i & 1)},"can_delete":${Boolean(i & 2)}}`,
);

/**
 * A stored list entry completed with the linked user and the caller's rights: the same object as
 * {@link presentContact}'s, keys in the same order. Text, not JSON.stringify of an object: fifty of
 * those were a tenth of a directory page's event-loop time (docs/decisions/ 2026-11-28).
 */
export function completeContactEntry(listJson: string, e: ContactExtras): string {
  const linked =
    e.linkedUserId === null
      ? ',"is_user":false,"linked_user_id":null'
      : `,"is_user":true,"linked_user_id":${JSON.stringify(e.linkedUserId)}`;
  return listJson.slice(0, -1) + linked + RIGHTS_TAIL[(e.canEdit ? 1 : 0) | (e.canDelete ? 2 : 0)];
}

export function presentAssignable(
  u: { id: string; email: string; first_name: string | null; last_name: string | null; role: string | null },
  organizationIds: string[],
): TAssignableUser {
  return { id: u.id, name: displayName(u), email: u.email, role: u.role, organization_ids: organizationIds };
}
