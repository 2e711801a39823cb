import { displayName, FILE_KINDS, type TFileItem, type TFileKind } from '@cc/contract';
import type { FileRow, ShareRow } from './files.repository.ts';

export interface FileRights {
  canEdit: boolean;
  canDelete: boolean;
  canShare: boolean;
}

const asKind = (k: string): TFileKind =>
  (FILE_KINDS as readonly string[]).includes(k) ? (k as TFileKind) : 'other';

/** The API shape of a file, with the caller's rights. */
export function presentFile(row: FileRow, shares: ShareRow[], rights: FileRights): TFileItem {
  return {
    id: row.id,
    name: row.name,
    content_type: row.content_type,
    kind: asKind(row.kind),
    // bigint arrives as a string from PostgreSQL
    size: Number(row.size),
    user_id: row.user_id,
    owner: {
      id: row.user_id,
      name: displayName({
        first_name: row.owner_first_name,
        last_name: row.owner_last_name,
        email: row.owner_email,
      }),
      email: row.owner_email,
    },
    conversation_id: row.conversation_id,
    shared_org_ids: shares.map((s) => s.organization_id),
    shared_organizations: shares.map((s) => ({ id: s.organization_id, name: s.name })),
    can_edit: rights.canEdit,
    can_delete: rights.canDelete,
    can_share: rights.canShare,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
