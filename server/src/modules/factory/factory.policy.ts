import { type Expression, expressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../db/types.ts';

/**
 * Who may see and do what with an AI Factory item (agent, tool, crew, flow): the one home of these
 * rules (spec section 6), read by the service, the presenter's `can_*` flags and the list queries.
 *
 * Visible: the caller's own items, public ones and the built-in (auto-generated) catalogue. Owners
 * edit their items; deletion also needs the item to be neither auto-generated nor public. Only a ceo
 * or an administrator creates items.
 */
export const FACTORY_CREATOR_LEVELS: ReadonlySet<string> = new Set(['ceo', 'admin']);

interface FactoryItem {
  created_by: string | null;
  is_public: number;
  is_auto_gen: number;
}

export function factoryItemVisible(row: FactoryItem, userId: string): boolean {
  return row.created_by === userId || row.is_public === 1 || row.is_auto_gen === 1;
}

export function factoryItemRights(row: FactoryItem, userId: string) {
  const own = row.created_by !== null && row.created_by === userId && row.is_auto_gen === 0;
  return { canEdit: own, canDelete: own && row.is_public === 0 };
}

/**
 * The predicate over any of the four factory tables that keeps the items the user may see. The
 * columns are the ownership columns every factory table shares, referenced unqualified, so the one
 * expression serves whichever table the query reads (typed against one of them).
 */
export function visibleFactoryItems(userId: string): Expression<SqlBool> {
  const eb = expressionBuilder<Database, 'factory_agents'>();
  return eb.or([eb('created_by', '=', userId), eb('is_public', '=', 1), eb('is_auto_gen', '=', 1)]);
}
