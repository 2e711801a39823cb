import { type Expression, expressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../db/types.ts';
import { ownedRecordRights } from '../../platform/access.ts';
import type { Viewer, ViewerScope } from '../../platform/viewer.ts';

/**
 * Who may see and do what with a strategic goal: the one home of these rules (the REST service, the
 * list query, the internal search and the AI workspace snapshot read them from here).
 *
 * Visible to the owner and the members of the goal's organization; editable (and deletable) by the
 * owner and by an admin or manager of that organization.
 */
export function goalRights(goal: { user_id: string; organization_id: string | null }, viewer: Viewer) {
  return ownedRecordRights(goal, viewer.id, viewer.levels);
}

/**
 * The ways a goal becomes visible, each a branch with its own index: owned by the viewer
 * (strategic_goals_user_list_idx) and filed under one of their organizations
 * (strategic_goals_org_list_idx; the list reads one branch per organization).
 */
export type GoalVisibilityBranch =
  | { via: 'strategic_goals.user_id'; userId: string }
  | { via: 'strategic_goals.organization_id'; orgIds: readonly string[] };

export function goalVisibilityBranches(viewer: ViewerScope): GoalVisibilityBranch[] {
  const branches: GoalVisibilityBranch[] = [{ via: 'strategic_goals.user_id', userId: viewer.id }];
  if (viewer.orgIds.length) branches.push({ via: 'strategic_goals.organization_id', orgIds: viewer.orgIds });
  return branches;
}

/** The predicate over `strategic_goals` of one visibility branch. */
export function goalBranchPredicate(b: GoalVisibilityBranch): Expression<SqlBool> {
  const eb = expressionBuilder<Database, 'strategic_goals'>();
  return b.via === 'strategic_goals.user_id'
    ? eb(b.via, '=', b.userId)
    : b.orgIds.length === 1
      ? eb(b.via, '=', b.orgIds[0])
      : eb(b.via, 'in', [...b.orgIds]);
}

/** The predicate over `strategic_goals` that keeps only the goals the viewer may see. */
export function visibleGoals(viewer: ViewerScope): Expression<SqlBool> {
  return expressionBuilder<Database, 'strategic_goals'>().or(
    goalVisibilityBranches(viewer).map(goalBranchPredicate),
  );
}

/** The internal search's rule: the goal whose id is `goalId` is one the viewer may see. */
export function goalSearchVisibility(viewer: ViewerScope, goalId: Expression<string>): Expression<SqlBool> {
  const eb = expressionBuilder<Database, never>();
  return eb.exists(
    eb
      .selectFrom('strategic_goals')
      .select('strategic_goals.id')
      .where('strategic_goals.id', '=', goalId)
      .where(visibleGoals(viewer)),
  );
}
