import { displayName, type TTask, type TTaskPriority, type TTaskStatus, type TUserRef } from '@cc/contract';
import type { TaskRow } from './tasks.repository.ts';

import type { TaskRights } from './tasks.policy.ts';

function userRef(
  id: string | null,
  email: string | null,
  first_name: string | null,
  last_name: string | null,
): TUserRef | null {
  if (!id || !email) return null;
  return { id, name: displayName({ first_name, last_name, email }), email };
}

/** The API shape of a task, with the caller's rights. */
export function presentTask(row: TaskRow, sharedOrgIds: string[], rights: TaskRights): TTask {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    priority: row.priority as TTaskPriority,
    status: row.status as TTaskStatus,
    due_date: row.due_date,
    notes: row.notes,
    assigned_to_user_id: row.assigned_to_user_id,
    assigned_to_user: userRef(
      row.assigned_to_user_id,
      row.assignee_email,
      row.assignee_first_name,
      row.assignee_last_name,
    ),
    created_by: row.created_by,
    created_by_user: userRef(
      row.created_by,
      row.creator_email,
      row.creator_first_name,
      row.creator_last_name,
    ),
    shared_org_ids: sharedOrgIds,
    goal_id: row.goal_id ?? null,
    can_edit: rights.canEdit,
    can_delete: rights.canDelete,
    can_assign: rights.canAssign,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
