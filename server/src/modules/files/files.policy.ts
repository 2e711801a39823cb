import { type Expression, expressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../db/types.ts';
import { memberOfAny } from '../../platform/access.ts';
import type { Viewer, ViewerScope } from '../../platform/viewer.ts';

/**
 * Who may see and do what with a file: the one home of these rules (the REST service, the list and
 * text queries, the chat's attachments and the internal search read them from here).
 *
 * A file is visible to its owner and to the members of the organizations it is shared with (the rule
 * of every shared record). Only the owner renames, shares and deletes it.
 */
export interface FileRights {
  visible: boolean;
  canEdit: boolean;
  canDelete: boolean;
  canShare: boolean;
}

export function fileRights(
  row: { user_id: string },
  sharedOrgIds: readonly string[],
  viewer: Viewer,
): FileRights {
  const own = row.user_id === viewer.id;
  return {
    visible: own || memberOfAny(viewer.levels, sharedOrgIds),
    canEdit: own,
    canDelete: own,
    canShare: own,
  };
}

/**
 * The predicate over `files` that keeps only the files the viewer may see: two indexed branches, the
 * owner's (files_user_idx) and the ids shared with their organizations (file_shares_org_idx).
 */
export function visibleFiles(viewer: ViewerScope): Expression<SqlBool> {
  const eb = expressionBuilder<Database, 'files'>();
  const own = eb('files.user_id', '=', viewer.id);
  if (!viewer.orgIds.length) return own;
  return eb.or([
    own,
    eb(
      'files.id',
      'in',
      eb
        .selectFrom('file_shares')
        .select('file_shares.file_id')
        .where('file_shares.organization_id', 'in', [...viewer.orgIds]),
    ),
  ]);
}

/** The internal search's rule: the file whose id is `fileId` is one the viewer may see. */
export function fileSearchVisibility(viewer: ViewerScope, fileId: Expression<string>): Expression<SqlBool> {
  const eb = expressionBuilder<Database, never>();
  return eb.exists(
    eb.selectFrom('files').select('files.id').where('files.id', '=', fileId).where(visibleFiles(viewer)),
  );
}
