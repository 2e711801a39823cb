import { randomUUID } from 'node:crypto';
import type { TInvitation } from '@cc/contract';
import { nowIso, withTx } from '../../db/index.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import { hashOneTimeSecret } from '../../platform/mail/app-mail.ts';
import { readThrough } from '../../platform/read-cache.ts';
import { type ActivityVia, recordActivity } from '../activity/activity.ledger.ts';
import * as repo from './memberships.repository.ts';
import { findOrganization } from './organizations.repository.ts';

// Memberships are read by every module that shares records with organizations, and written by the
// users and organizations modules: they live here, below both, so no module service imports in a circle.

export async function assertOrganizationExists(ctx: AppContext, id: string): Promise<void> {
  if (!(await findOrganization(ctx.db, id))) throw notFound('Organization not found');
}

/** Ids of the organizations the user belongs to (for visibility rules of other modules). */
export async function organizationIdsOf(ctx: AppContext, userId: string): Promise<string[]> {
  return [...(await repo.membershipsOf(ctx.db, userId)).keys()];
}

/** What a cached membership lookup is read from. */
const MEMBERSHIP_TABLES = ['organization_members'];

/**
 * The user's memberships as organization id → org_access_level (for other modules' permission rules).
 * Every shared-record request reads them, so they go through the read cache like the session does
 * (any membership change, on any instance, makes every cached lookup stale; see read-cache.ts). The
 * map may be shared by requests: callers only read it. Inside a transaction it is read afresh.
 */
export async function membershipLevelsOf(ctx: AppContext, userId: string): Promise<Map<string, string>> {
  const read = () => repo.membershipsOf(ctx.db, userId);
  if (!ctx.memberships || ctx.db.isTransaction) return read();
  // About 80 bytes an organization; most users have a few.
  return (await readThrough(ctx.memberships, userId, MEMBERSHIP_TABLES, 400, read)) ?? read();
}

/**
 * Makes the user a member (level user) unless they already are. Only a platform admin's action leads
 * here (creating or editing an account with an organization), so a pending invitation for the e-mail
 * is taken as accepted.
 */
export async function ensureMembership(ctx: AppContext, orgId: string, userId: string, email: string) {
  if (await repo.findMembership(ctx.db, orgId, userId)) return;
  const invite = await repo.findMembershipByEmail(ctx.db, orgId, email);
  if (invite) {
    await repo.updateMember(ctx.db, invite.id, { user_id: userId, is_invite: 0, invite_status: 'accepted' });
    return;
  }
  await repo.insertMember(ctx.db, {
    id: randomUUID(),
    organization_id: orgId,
    user_id: userId,
    email,
    org_access_level: 'user',
    is_invite: 0,
    created_at: nowIso(),
  });
}

/**
 * A new account created through an organization (by a platform admin, or by the demo seed): a member of
 * it at `level`, and managed by it unless `managed` is false.
 */
export async function addManagedMember(
  ctx: AppContext,
  orgId: string,
  user: { id: string; email: string },
  level: string,
  opts: { managed?: boolean } = {},
): Promise<void> {
  await ensureMembership(ctx, orgId, user.id, user.email.toLowerCase());
  const m = await repo.findMembership(ctx.db, orgId, user.id);
  if (m && m.org_access_level !== level) await repo.updateMember(ctx.db, m.id, { org_access_level: level });
  if (opts.managed !== false) await repo.setManagedBy(ctx.db, user.id, orgId);
  await setPrimaryOrganization(ctx, user.id, orgId, { onlyIfEmpty: true });
}

export const syncMemberEmail = (ctx: AppContext, userId: string, email: string) =>
  repo.setMemberEmail(ctx.db, userId, email);

/** Sets the user's primary organization, optionally only when unset or when it currently is `onlyIfEquals`. */
export async function setPrimaryOrganization(
  ctx: AppContext,
  userId: string,
  orgId: string | null,
  opts: { onlyIfEmpty?: boolean; onlyIfEquals?: string } = {},
): Promise<void> {
  const current = await repo.findUserPrimaryOrganization(ctx.db, userId);
  if (!current) return;
  if (opts.onlyIfEmpty && current.organization_id) return;
  if (opts.onlyIfEquals !== undefined && current.organization_id !== opts.onlyIfEquals) return;
  await repo.setUserPrimaryOrganization(ctx.db, userId, orgId, nowIso());
}

/**
 * The user's primary membership: their primary organization while they belong to it, else the first
 * organization they joined (null without any). Whom a model call is metered to starts here
 * (usage-payer.ts); an organization they left or that was deleted is never it.
 */
export async function primaryMembershipOf(ctx: AppContext, userId: string): Promise<string | null> {
  const levels = await membershipLevelsOf(ctx, userId);
  if (levels.size === 0) return null;
  const primary = (await repo.findUserPrimaryOrganization(ctx.db, userId))?.organization_id;
  if (primary && levels.has(primary)) return primary;
  return (await repo.firstMembershipOf(ctx.db, userId)) ?? null;
}

/** PUT /api/users/me/primary-organization: one of the caller's memberships (404 otherwise). */
export async function setMyPrimaryOrganization(ctx: AppContext, me: AuthUser, orgId: string): Promise<void> {
  if (!(await repo.findMembership(ctx.db, orgId, me.id))) throw notFound('Organization not found');
  await repo.setUserPrimaryOrganization(ctx.db, me.id, orgId, nowIso());
}

// ---- the invitee's side: the account the invitation was bound to, or whoever holds its e-mailed secret ----

export async function listMyInvitations(ctx: AppContext, me: AuthUser): Promise<TInvitation[]> {
  const rows = await repo.listPendingInvitations(ctx.db, me.id);
  return rows.map((r) => ({
    id: r.id,
    organization_id: r.organization_id,
    organization_name: r.organization_name,
    org_access_level: r.org_access_level as TInvitation['org_access_level'],
    invited_by_name:
      [r.inviter_first_name, r.inviter_last_name].filter((s) => s?.trim()).join(' ') ||
      r.inviter_email ||
      null,
    created_at: r.created_at,
    updated_at: r.updated_at,
  }));
}

/**
 * The caller's invitation, still pending; 404 when it is someone else's, 409 when already acted on. It
 * is the caller's only when it was bound to this account at creation and the account still has the
 * e-mail it was sent to, unchanged since: a matching e-mail string alone never makes it theirs.
 */
async function myPendingInvitation(ctx: AppContext, me: AuthUser, id: string) {
  const row = await repo.findMemberRow(ctx.db, id);
  const account =
    row?.invited_user_id === me.id ? await repo.findInviteeEmailState(ctx.db, me.id) : undefined;
  const mine =
    row &&
    account &&
    row.invite_status != null &&
    account.email === row.email &&
    (!account.email_changed_at || account.email_changed_at <= row.created_at);
  if (!row || !mine) throw notFound('Invitation not found');
  return pendingOnly(row);
}

function pendingOnly<T extends { invite_status?: string | null; is_invite: number }>(row: T): T {
  if (row.invite_status !== 'pending' || !row.is_invite) {
    throw conflict('This invitation has already been answered.');
  }
  return row;
}

export const INVITE_LINK_USED =
  'This invitation link is not valid: it was already used, answered or replaced.';

/**
 * POST /api/users/me/invitations/claim: the secret of an invitation e-mailed to an address with no
 * account accepts it for the signed-in account (holding the secret proves the mailbox); one sent to an
 * account accepts it only for that account. Single use.
 */
export async function claimInvitation(
  ctx: AppContext,
  me: AuthUser,
  secret: string,
  via: ActivityVia,
): Promise<{ organization_id: string; organization_name: string }> {
  const found = await repo.findInvitationBySecret(ctx.db, hashOneTimeSecret(secret));
  if (!found) throw notFound(INVITE_LINK_USED);
  // Sent to an account: the link opens it for that account only (as it stands when the invitation was made).
  const row = found.invited_user_id ? await myPendingInvitation(ctx, me, found.id) : pendingOnly(found);
  await accept(ctx, me, row, via);
  const org = await findOrganization(ctx.db, row.organization_id);
  return { organization_id: row.organization_id, organization_name: org?.name ?? '' };
}

export async function acceptInvitation(
  ctx: AppContext,
  me: AuthUser,
  id: string,
  via: ActivityVia,
): Promise<void> {
  await accept(ctx, me, await myPendingInvitation(ctx, me, id), via);
}

async function accept(
  ctx: AppContext,
  me: AuthUser,
  row: { id: string; organization_id: string; org_access_level: string },
  via: ActivityVia,
): Promise<void> {
  if (await repo.findMembership(ctx.db, row.organization_id, me.id)) {
    throw conflict('You are already a member of this organization.');
  }
  await withTx(ctx.db, async (trx) => {
    // Only a pending row is taken (two clicks at once: one wins); the secret is spent with it.
    const taken = await repo.acceptPendingInvitation(trx, row.id, me.id, me.email.toLowerCase());
    if (!taken) throw conflict('This invitation has already been answered.');
    await setPrimaryOrganization({ ...ctx, db: trx }, me.id, row.organization_id, { onlyIfEmpty: true });
    await recordInvitationAnswer(trx, me, row, 'accepted', via);
  });
}

function recordInvitationAnswer(
  db: AppContext['db'],
  me: AuthUser,
  row: { id: string; organization_id: string; org_access_level: string },
  answer: 'accepted' | 'declined',
  via: ActivityVia,
) {
  return recordActivity(db, {
    actorUserId: me.id,
    via,
    action: `invitation.${answer}`,
    entityType: 'organization_member',
    entityId: row.id,
    summary: `${answer === 'accepted' ? 'Accepted' : 'Declined'} an invitation to organization ${row.organization_id} (${row.org_access_level})`,
    before: { invite_status: 'pending' },
    after: {
      invite_status: answer,
      organization_id: row.organization_id,
      org_access_level: row.org_access_level,
    },
  });
}

export async function declineInvitation(
  ctx: AppContext,
  me: AuthUser,
  id: string,
  via: ActivityVia,
): Promise<void> {
  const row = await myPendingInvitation(ctx, me, id);
  await withTx(ctx.db, async (trx) => {
    await repo.updateMember(trx, row.id, { invite_status: 'declined' });
    await recordInvitationAnswer(trx, me, row, 'declined', via);
  });
}
