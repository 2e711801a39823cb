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

/** A task as the API presents it, without the caller's rights (its list entry, see tasks.list-entry.ts). */
export type TTaskFields = Omit<TTask, 'can_edit' | 'can_delete' | 'can_assign'>;

export function presentTaskFields(row: TaskRow, sharedOrgIds: string[]): TTaskFields {
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
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The API shape of a task, with the caller's rights. */
export function presentTask(row: TaskRow, sharedOrgIds: string[], rights: TaskRights): TTask {
  return {
    ...presentTaskFields(row, sharedOrgIds),
    can_edit: rights.canEdit,
    can_delete: rights.canDelete,
    can_assign: rights.canAssign,
  };
}

/** A task's stored list entry (tasks.list_json): its fields as JSON text. */
export function taskListJson(row: TaskRow, sharedOrgIds: string[]): string {
  return JSON.stringify(presentTaskFields(row, sharedOrgIds));
}

/** The JSON text of the rights a list entry ends with, for each of the eight combinations. */
const RIGHTS_TAIL = Array.from(
  { length: 8 },
  (_, i) => `,"can_edit":${Boolean(i & 1)},"can_delete":${Boolean(i & 2)},"can_assign":${Boolean(i & 4)}}`,
);

/** A stored list entry with the caller's rights added: the same object as {@link presentTask}'s. */
export function withRights(listJson: string, rights: TaskRights): string {
  const bits = (rights.canEdit ? 1 : 0) | (rights.canDelete ? 2 : 0) | (rights.canAssign ? 4 : 0);
  return listJson.slice(0, -1) + RIGHTS_TAIL[bits];
}
