import type { InboxItemsTable } from '../../db/types.ts';
import type { Memberships } from '../../platform/access.ts';

/**
 * Who may see and act on an inbox item: only its assignee (the person it waits for, or the one it was
 * delegated to). Everyone else gets 404, like a record that does not exist.
 */
export function canActOn(item: Pick<InboxItemsTable, 'assignee_user_id'>, userId: string): boolean {
  return item.assignee_user_id === userId;
}

/**
 * Whom an item may be delegated to: another account in the item's organization, or, for an item of
 * no organization, in one the assignee belongs to.
 */
export function mayDelegateTo(
  item: Pick<InboxItemsTable, 'organization_id' | 'assignee_user_id'>,
  assignee: Memberships,
  target: { id: string; levels: Memberships },
): boolean {
  if (target.id === item.assignee_user_id) return false;
  if (item.organization_id)
    return assignee.has(item.organization_id) && target.levels.has(item.organization_id);
  return [...assignee.keys()].some((org) => target.levels.has(org));
}
