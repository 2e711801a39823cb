import type { AppContext } from '../../platform/context.ts';
import { membershipLevelsOf, primaryMembershipOf } from '../organizations/memberships.service.ts';

/**
 * Whom a model call is charged to (issue 46 row 12; docs/architecture.md "Whom a model call is metered
 * to"), the one place of the rule: always an organization the caller belongs to — the organization the
 * call is made in (a conversation's or a run's, as the caller's scope names it) when the caller is a
 * member of it, else the caller's primary membership (their primary organization, else the first they
 * joined; changeable on Profile). A caller with no membership is charged to no organization; a call
 * with no user keeps the organization it names.
 */
export async function payingOrganization(
  ctx: AppContext,
  scope: { userId: string | null; organizationId: string | null },
): Promise<string | null> {
  if (!scope.userId) return scope.organizationId;
  const levels = await membershipLevelsOf(ctx, scope.userId);
  if (scope.organizationId && levels.has(scope.organizationId)) return scope.organizationId;
  if (levels.size === 0) return null;
  return primaryMembershipOf(ctx, scope.userId);
}
