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

/** The API shape of a contact: `linkedUserId` is the app user one of its e-mails belongs to, if any. */
export function presentContact(
  row: ContactRow,
  extra: {
    shares: ShareRow[];
    interactions: ContactInteractionsTable[];
    linkedUserId: string | null;
    canEdit: boolean;
    canDelete: boolean;
  },
): TContact {
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
    is_user: extra.linkedUserId !== null,
    linked_user_id: extra.linkedUserId,
    created_by_user: {
      id: row.user_id,
      name: displayName({
        first_name: row.owner_first_name,
        last_name: row.owner_last_name,
        email: row.owner_email,
      }),
      email: row.owner_email,
    },
    shared_org_ids: extra.shares.map((s) => s.organization_id),
    shared_organizations: extra.shares.map((s) => ({
      id: s.organization_id,
      name: s.name,
      is_owner: s.organization_id === row.organization_id,
    })),
    past_interactions: extra.interactions.map(presentInteraction),
    can_edit: extra.canEdit,
    can_delete: extra.canDelete,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function presentAssignable(
  u: { id: string; email: string; first_name: string | null; last_name: string | null; role: string | null },
  organizationIds: string[],
): TAssignableUser {
  return { id: u.id, name: displayName(u), email: u.email, role: u.role, organization_ids: organizationIds };
}
