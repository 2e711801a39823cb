import { PUBLIC_ITEMS_ADMIN_ONLY } from '@cc/contract';
import { type Expression, expressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../db/types.ts';
import { forbidden } from '../../platform/errors.ts';
import type { ViewerScope } from '../../platform/viewer.ts';

/**
 * Who may see and do what with an AI Factory item (agent, tool, crew, flow): the one home of these
 * rules (spec section 6), read by the service, the presenter's `can_*` flags and the list queries.
 *
 * Visible: the caller's own items, public ones, the built-in (auto-generated) catalogue and items
 * shared with one of the caller's organizations. Owners edit their items; deletion also needs the
 * item to be neither auto-generated nor public. Only a ceo or an administrator creates items; only a
 * platform administrator makes one public, and an owner shares only with their own organizations.
 */
export const FACTORY_CREATOR_LEVELS: ReadonlySet<string> = new Set(['ceo', 'admin']);

/**
 * A public item is visible to, and runs for, every tenant: only a platform administrator may make an
 * item public (issue 19 section 1). An item that is public already may stay so when its owner edits it.
 */
export function assertMayPublish(
  caller: { user_level: string },
  wantsPublic: boolean,
  current: { is_public: number } | null = null,
): void {
  if (wantsPublic && current?.is_public !== 1 && caller.user_level !== 'admin')
    throw forbidden(PUBLIC_ITEMS_ADMIN_ONLY);
}

/**
 * True when a run of `runnerId` uses this item as someone else's: the built-in catalogue is the
 * platform's own; anything another user made is foreign, and its outbound calls need the runner's
 * approval in the run (issue 19 section 1).
 */
export function isForeignItem(row: { created_by: string | null; is_auto_gen: number }, runnerId: string) {
  return row.is_auto_gen !== 1 && row.created_by !== null && row.created_by !== runnerId;
}

interface FactoryItem {
  created_by: string | null;
  is_public: number;
  is_auto_gen: number;
  /** The organizations the item is shared with (loaded with the row). */
  shared_org_ids?: readonly string[];
}

/** Visible: own, public, built-in, or shared with one of the caller's organizations. */
export function factoryItemVisible(row: FactoryItem, viewer: ViewerScope): boolean {
  return (
    row.created_by === viewer.id ||
    row.is_public === 1 ||
    row.is_auto_gen === 1 ||
    (row.shared_org_ids ?? []).some((id) => viewer.orgIds.includes(id))
  );
}

export function factoryItemRights(row: FactoryItem, userId: string) {
  const own = row.created_by !== null && row.created_by === userId && row.is_auto_gen === 0;
  return { canEdit: own, canDelete: own && row.is_public === 0 };
}

/**
 * The predicate over any of the four factory tables that keeps the items the viewer may see. The
 * columns are the ownership columns every factory table shares, referenced unqualified, so the one
 * expression serves whichever table the query reads (typed against one of them).
 */
export function visibleFactoryItems(viewer: ViewerScope): Expression<SqlBool> {
  const eb = expressionBuilder<Database, 'factory_agents'>();
  const shared = viewer.orgIds.length
    ? [
        eb(
          'id',
          'in',
          eb
            .selectFrom('factory_item_shares')
            .select('item_id')
            .where('organization_id', 'in', [...viewer.orgIds]),
        ),
      ]
    : [];
  return eb.or([
    eb('created_by', '=', viewer.id),
    eb('is_public', '=', 1),
    eb('is_auto_gen', '=', 1),
    ...shared,
  ]);
}
