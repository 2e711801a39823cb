import { MAX_INTERACTIONS_PER_CONTACT } from '@cc/contract';
import type { AppContext } from '../../platform/context.ts';
import { type ListEntrySource, listEntryRenderer } from '../../platform/list-entries.ts';
import type { Viewer } from '../../platform/viewer.ts';
import { contactRights, contactRightsNeedShares } from './contacts.policy.ts';
import { completeContactEntry, contactListJson } from './contacts.presenter.ts';
import * as repo from './contacts.repository.ts';

/**
 * The contact directory from stored list entries (contacts.list_json, migration 0027), as the task
 * list does (tasks.list-entry.ts): a page is its entries in order, each completed with the linked app
 * user (read with the page) and the caller's rights. A forgotten entry is rendered from the
 * rows for this page and again, stored, in the background.
 */

const NO_SHARES: string[] = [];

export async function listContactPage(
  ctx: AppContext,
  viewer: Viewer,
  options: repo.ContactListOptions,
): Promise<string> {
  const withShares = contactRightsNeedShares(viewer);
  const entries = await repo.listContactEntries(ctx.db, { ...options, withShares });
  const missing = entries.filter((e) => e.list_json === null).map((e) => e.id);
  const rendered = missing.length ? await renderFromRows(ctx, missing) : null;
  let body = '[';
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    const json = e.list_json ?? rendered?.get(e.id);
    // A contact deleted between the page and the fallback read: left out, as a later page would.
    if (json === undefined) continue;
    const shared = withShares && e.shared_org_list ? e.shared_org_list.split(',') : NO_SHARES;
    const rights = contactRights(e, shared, viewer);
    body +=
      (body.length > 1 ? ',' : '') +
      completeContactEntry(json, {
        linkedUserId: e.linked_user_id,
        canEdit: rights.canEdit,
        canDelete: rights.canDelete,
      });
  }
  body += ']';
  return body;
}

/** Entries the database forgot, rendered from the rows for this page (the renderer stores them). */
async function renderFromRows(ctx: AppContext, ids: string[]): Promise<Map<string, string>> {
  const [rows, shares, interactions] = await Promise.all([
    repo.findContacts(ctx.db, ids),
    repo.sharesOf(ctx.db, ids),
    repo.interactionsOf(ctx.db, ids, MAX_INTERACTIONS_PER_CONTACT),
  ]);
  rendererOf(ctx).poke();
  return new Map(
    rows.map((r) => [r.id, contactListJson(r, shares.get(r.id) ?? [], interactions.get(r.id) ?? [])]),
  );
}

const contactEntries: ListEntrySource = {
  missing: repo.contactsWithoutListEntry,
  render: repo.renderListEntries,
};

export const rendererOf = (ctx: AppContext) => listEntryRenderer(ctx, contactEntries);
