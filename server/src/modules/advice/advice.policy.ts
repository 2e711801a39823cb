import { type Expression, expressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../db/types.ts';
import { ownedRecordRights } from '../../platform/access.ts';
import type { Viewer, ViewerScope } from '../../platform/viewer.ts';

/**
 * Who may see and change a piece of strategic advice: the one home of these rules (the REST service,
 * the list query and the internal search read them from here).
 *
 * Visible to the owner and the members of its organization; the owner and its admins/managers edit.
 */
export function adviceRights(advice: { user_id: string; organization_id: string | null }, viewer: Viewer) {
  return ownedRecordRights(advice, viewer.id, viewer.levels);
}

/**
 * The predicate over `strategic_advice` that keeps only the advice the viewer may see: the owner's
 * (strategic_advice_user_idx) and their organizations' (strategic_advice_org_idx).
 */
export function visibleAdvice(viewer: ViewerScope): Expression<SqlBool> {
  const eb = expressionBuilder<Database, 'strategic_advice'>();
  const own = eb('strategic_advice.user_id', '=', viewer.id);
  return viewer.orgIds.length
    ? eb.or([own, eb('strategic_advice.organization_id', 'in', [...viewer.orgIds])])
    : own;
}

/** The internal search's rule: the advice whose id is `adviceId` is one the viewer may see. */
export function adviceSearchVisibility(
  viewer: ViewerScope,
  adviceId: Expression<string>,
): Expression<SqlBool> {
  const eb = expressionBuilder<Database, never>();
  return eb.exists(
    eb
      .selectFrom('strategic_advice')
      .select('strategic_advice.id')
      .where('strategic_advice.id', '=', adviceId)
      .where(visibleAdvice(viewer)),
  );
}
