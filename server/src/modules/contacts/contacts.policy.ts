import { type Expression, expressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../db/types.ts';
import { managesAny, memberOfAny } from '../../platform/access.ts';
import type { Viewer, ViewerScope } from '../../platform/viewer.ts';

/**
 * Who may see and do what with a contact: the one home of these rules (the REST service, the list
 * query and the internal search read them from here).
 *
 * Visible to the owner and the members of the organizations it is shared with (its own organization
 * is always among them). The owner may edit, delete and change sharing; an admin or manager of a
 * shared organization may edit the contact and its past interactions.
 */
export interface ContactRights {
  visible: boolean;
  canEdit: boolean;
  canDelete: boolean;
}

export function contactRights(
  row: { user_id: string },
  sharedOrgIds: readonly string[],
  viewer: Viewer,
): ContactRights {
  const own = row.user_id === viewer.id;
  return {
    visible: own || memberOfAny(viewer.levels, sharedOrgIds),
    canEdit: own || managesAny(viewer.levels, sharedOrgIds),
    canDelete: own,
  };
}

/**
 * Whether {@link contactRights} can depend on the contact's shares for this viewer: only through
 * managing a shared organization (membership alone only makes it visible, which a list already says).
 */
export function contactRightsNeedShares(viewer: Viewer): boolean {
  return managesAny(viewer.levels, viewer.orgIds);
}

/** Only the owner decides who a contact is shared with (sharing decides who sees it). */
export const canShareContact = (rights: ContactRights) => rights.canDelete;

/**
 * The ways a contact becomes visible, each a branch with its own index: owned by the viewer
 * (contacts_user_name_idx) and shared with their organizations (contact_shares_list_idx, one branch
 * per organization in the directory list).
 */
export type ContactVisibilityBranch =
  | { via: 'contacts.user_id'; userId: string }
  | { via: 'contact_shares'; orgIds: readonly string[] };

export function contactVisibilityBranches(viewer: ViewerScope): ContactVisibilityBranch[] {
  const branches: ContactVisibilityBranch[] = [{ via: 'contacts.user_id', userId: viewer.id }];
  if (viewer.orgIds.length) branches.push({ via: 'contact_shares', orgIds: viewer.orgIds });
  return branches;
}

/** The predicate over `contacts` that keeps only the contacts the viewer may see (checked per row). */
export function visibleContacts(viewer: ViewerScope): Expression<SqlBool> {
  const eb = expressionBuilder<Database, 'contacts'>();
  return eb.or(
    contactVisibilityBranches(viewer).map((b) =>
      b.via === 'contacts.user_id'
        ? eb('contacts.user_id', '=', b.userId)
        : eb.exists(
            eb
              .selectFrom('contact_shares')
              .select('contact_shares.contact_id')
              .whereRef('contact_shares.contact_id', '=', 'contacts.id')
              .where('contact_shares.organization_id', 'in', [...b.orgIds]),
          ),
    ),
  );
}

/** The internal search's rule: the contact whose id is `contactId` is one the viewer may see. */
export function contactSearchVisibility(
  viewer: ViewerScope,
  contactId: Expression<string>,
): Expression<SqlBool> {
  const eb = expressionBuilder<Database, never>();
  return eb.exists(
    eb
      .selectFrom('contacts')
      .select('contacts.id')
      .where('contacts.id', '=', contactId)
      .where(visibleContacts(viewer)),
  );
}
