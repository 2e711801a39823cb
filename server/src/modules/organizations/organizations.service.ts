import { randomUUID } from 'node:crypto';
import type { TOrgMember, TOrganization, ZAddOrgUserRequest, ZUpdateOrgUserRequest } from '@cc/contract';
import type { z } from 'zod';
import { nowIso, withTx } from '../../db/index.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { conflict, forbidden, notFound } from '../../platform/errors.ts';
import { isPlatformAdmin } from '../../platform/access.ts';
import { ANY_VERSION, nextVersion, type Precondition } from '../../platform/concurrency.ts';
import { newOneTimeSecret } from '../../platform/mail/app-mail.ts';
import { sendInvitation } from './invitation-mail.ts';
import { type ActivityVia, recordActivity } from '../activity/activity.ledger.ts';
import * as memberships from './memberships.repository.ts';
import { setPrimaryOrganization } from './memberships.service.ts';
import * as repo from './organizations.repository.ts';
import {
  accountEditRefusal,
  type MemberTarget,
  mayChangeMembership,
  mayGrantLevel,
  organizationRights,
} from './organizations.policy.ts';

/**
 * What member administration needs of the accounts (the users module's functions, wired by app.ts):
 * the users module places accounts in organizations, so this module must not import it back.
 */
export interface MemberAccounts {
  /** The account that owns an e-mail, if any (an invitation is bound to it). */
  findByEmail: (ctx: AppContext, email: string) => Promise<{ id: string } | undefined>;
  /** A manager's edit of a managed account's fields; the users module's rules and ledger apply. */
  update: (
    ctx: AppContext,
    userId: string,
    fields: Omit<z.output<typeof ZUpdateOrgUserRequest>, 'org_access_level'>,
    by: { actorId: string; via: ActivityVia; confirmEmailChange: boolean },
  ) => Promise<void>;
  /** Each account's e-mail change still waiting for the new address to confirm it. */
  pendingEmails: (ctx: AppContext, userIds: readonly string[]) => Promise<Map<string, string>>;
}

const ORG_LIST_LIMIT = 200;
type OrgAccess = 'user' | 'manager' | 'admin';
type Access = Awaited<ReturnType<typeof access>>;

async function access(ctx: AppContext, caller: AuthUser, orgId: string) {
  const org = await repo.findOrganization(ctx.db, orgId);
  const membership = org
    ? (await memberships.findMembership(ctx.db, orgId, caller.id))?.org_access_level
    : undefined;
  const r = organizationRights(caller, membership);
  if (!org || !r.visible) throw notFound('Organization not found');
  return { org, membership, ...r };
}

async function managerAccess(ctx: AppContext, caller: AuthUser, orgId: string) {
  const a = await access(ctx, caller, orgId);
  if (!a.canManage) throw forbidden('You cannot manage the members of this organization.');
  return a;
}

function targetOf(m: repo.MemberRow): MemberTarget {
  return {
    user_id: m.user_id ?? '',
    user_level: m.user_level ?? null,
    managed_by_organization_id: m.managed_by_organization_id ?? null,
    in_other_organization: Boolean(m.in_other_organization),
  };
}

/** An invitation shows the e-mail and offered level only: nothing about a matching account. */
function presentMember(caller: AuthUser, a: Access, m: repo.MemberRow): TOrgMember {
  const invite = Boolean(m.is_invite);
  return {
    id: m.id,
    user_id: invite ? null : m.user_id,
    email: m.email,
    first_name: invite ? null : (m.first_name ?? null),
    last_name: invite ? null : (m.last_name ?? null),
    user_level: invite ? null : (m.user_level ?? null),
    org_access_level: m.org_access_level as OrgAccess,
    is_invite: invite,
    created_at: m.created_at,
    updated_at: m.updated_at,
    can_edit_account: !invite && accountEditRefusal(caller, a.canManage, a.org.id, targetOf(m)) === null,
    can_change_access: !invite && a.canManage && mayChangeMembership(caller, targetOf(m)),
  };
}

export async function listOrganizations(ctx: AppContext, caller: AuthUser): Promise<TOrganization[]> {
  const mine = await memberships.membershipsOf(ctx.db, caller.id);
  const rows = await repo.listOrganizations(ctx.db, {
    memberUserId: caller.user_level === 'admin' ? undefined : caller.id,
    limit: ORG_LIST_LIMIT,
  });
  return rows.map((o) => {
    const level = mine.get(o.id);
    const r = organizationRights(caller, level);
    return {
      id: o.id,
      name: o.name,
      created_at: o.created_at,
      updated_at: o.updated_at,
      member_count: Number(o.member_count ?? 0),
      my_access_level: (level as OrgAccess | undefined) ?? null,
      can_manage: r.canManage,
      can_edit: r.canEdit,
    };
  });
}

async function presentOrganization(ctx: AppContext, caller: AuthUser, id: string): Promise<TOrganization> {
  const found = (await listOrganizations(ctx, caller)).find((o) => o.id === id);
  if (!found) throw notFound('Organization not found');
  return found;
}

export async function createOrganization(
  ctx: AppContext,
  caller: AuthUser,
  name: string,
  via: ActivityVia,
): Promise<TOrganization> {
  if (caller.user_level !== 'ceo' && caller.user_level !== 'admin') {
    throw forbidden('Only a CEO or an administrator can create organizations.');
  }
  const now = nowIso();
  const id = randomUUID();
  await withTx(ctx.db, async (trx) => {
    await repo.insertOrganization(trx, { id, name, created_by: caller.id, created_at: now, updated_at: now });
    // The creator runs the new organization.
    await memberships.insertMember(trx, {
      id: randomUUID(),
      organization_id: id,
      user_id: caller.id,
      email: caller.email,
      org_access_level: 'admin',
      is_invite: 0,
      created_at: now,
    });
    await setPrimaryOrganization({ ...ctx, db: trx }, caller.id, id, { onlyIfEmpty: true });
    await recordActivity(trx, {
      actorUserId: caller.id,
      via,
      action: 'organization.created',
      entityType: 'organization',
      entityId: id,
      summary: `Created the organization "${name}" (and joined it as its admin)`,
      after: { name },
    });
  });
  return presentOrganization(ctx, caller, id);
}

const EDIT_REFUSED = 'Only a platform administrator, or a CEO who is an admin of this organization, can';

export async function renameOrganization(
  ctx: AppContext,
  caller: AuthUser,
  id: string,
  name: string,
  pre: Precondition = ANY_VERSION,
) {
  const a = await access(ctx, caller, id);
  if (!a.canEdit) throw forbidden(`${EDIT_REFUSED} rename it.`);
  pre.check(a.org.updated_at);
  await repo.renameOrganization(ctx.db, id, name, nextVersion(a.org.updated_at));
  return presentOrganization(ctx, caller, id);
}

export async function deleteOrganization(
  ctx: AppContext,
  caller: AuthUser,
  id: string,
  via: ActivityVia,
): Promise<void> {
  const a = await access(ctx, caller, id);
  if (!a.canEdit) throw forbidden(`${EDIT_REFUSED} delete it.`);
  await withTx(ctx.db, async (trx) => {
    await repo.deleteOrganization(trx, id); // memberships cascade; users' primary organization is set null
    await recordActivity(trx, {
      actorUserId: caller.id,
      via,
      action: 'organization.deleted',
      entityType: 'organization',
      entityId: id,
      summary: `Deleted the organization "${a.org.name}" (its memberships and invitations went with it)`,
      before: { name: a.org.name },
    });
  });
}

export async function listMembers(
  ctx: AppContext,
  caller: AuthUser,
  orgId: string,
  accounts: MemberAccounts,
): Promise<TOrgMember[]> {
  const a = await access(ctx, caller, orgId);
  return presentMembers(ctx, caller, a, await repo.listMembers(ctx.db, orgId), accounts);
}

/** The rows with each account's e-mail change still waiting for the new address (shown to managers). */
async function presentMembers(
  ctx: AppContext,
  caller: AuthUser,
  a: Access,
  rows: repo.MemberRow[],
  accounts: MemberAccounts,
) {
  const ids = rows.flatMap((m) => (m.is_invite || !m.user_id ? [] : [m.user_id]));
  const pending = a.canManage ? await accounts.pendingEmails(ctx, ids) : new Map<string, string>();
  return rows.map((m) => ({
    ...presentMember(caller, a, m),
    pending_email: (m.user_id && !m.is_invite && pending.get(m.user_id)) || null,
  }));
}

async function memberView(
  ctx: AppContext,
  caller: AuthUser,
  orgId: string,
  memberId: string,
  accounts: MemberAccounts,
) {
  const a = await access(ctx, caller, orgId);
  const [m] = await repo.listMembers(ctx.db, orgId, { memberId });
  if (!m) throw notFound('Member not found');
  const [view] = await presentMembers(ctx, caller, a, [m], accounts);
  return view as TOrgMember;
}

function assertMayGrant(caller: AuthUser, a: Access, level: string) {
  if (!mayGrantLevel(caller, a.membership, level)) {
    throw forbidden('You cannot give an access level above your own.');
  }
}

/**
 * Every e-mail becomes an invitation, whether an account owns it or not: nobody joins an organization
 * without accepting, and the inviter learns nothing about the account. The invitation is bound at
 * creation to the account that owns the e-mail (which sees it among its invitations), or else to a
 * one-time secret e-mailed to the address (only its hash is kept; without a mail server the inviter is
 * shown the link to pass on). Both kinds get the e-mail and the link; an account-bound one opens only
 * for that account. A declined invitation may be sent again, and so may one whose link
 * went to an address that has no account yet (a new secret replaces the old one).
 */
export async function addMember(
  ctx: AppContext,
  caller: AuthUser,
  orgId: string,
  body: z.output<typeof ZAddOrgUserRequest>,
  via: ActivityVia,
  accounts: MemberAccounts,
): Promise<TOrgMember> {
  const a = await managerAccess(ctx, caller, orgId);
  assertMayGrant(caller, a, body.org_access_level);
  const account = await accounts.findByEmail(ctx, body.email);
  // Every invitation gets a link, so the answer is the same whether an account owns the e-mail or not;
  // for an account-bound one the link only opens it for that account.
  const secret = newOneTimeSecret();
  const invite = {
    org_access_level: body.org_access_level,
    is_invite: 1,
    invite_status: 'pending',
    invited_by: caller.id,
    invited_user_id: account?.id ?? null,
    invite_secret_hash: secret.hash,
    created_at: nowIso(),
  };
  const existing = await memberships.findMembershipByEmail(ctx.db, orgId, body.email);
  const resendable =
    existing?.invite_status === 'declined' ||
    (existing?.invite_status === 'pending' && !existing.invited_user_id && !account);
  if (existing && !resendable) {
    throw conflict(
      existing.is_invite
        ? 'This e-mail has already been invited to this organization.'
        : 'This user is already a member of this organization.',
    );
  }
  const id = existing?.id ?? randomUUID();
  await withTx(ctx.db, async (trx) => {
    if (existing) await memberships.updateMember(trx, id, { ...invite, user_id: null });
    else
      await memberships.insertMember(trx, {
        id,
        organization_id: orgId,
        user_id: null,
        email: body.email,
        ...invite,
      });
    await recordActivity(trx, {
      actorUserId: caller.id,
      via,
      action: 'invitation.created',
      entityType: 'organization_member',
      entityId: id,
      summary: `Invited ${body.email} to organization ${orgId} as ${body.org_access_level}`,
      after: { email: body.email, organization_id: orgId, org_access_level: body.org_access_level },
    });
  });
  const view = await memberView(ctx, caller, orgId, id, accounts);
  const delivery = await sendInvitation(ctx, { to: body.email, org: a.org.name, by: caller }, secret.secret);
  return { ...view, ...delivery };
}

/** The path's userId names an account; an invite (no account) is addressed by its member id. */
async function findTarget(ctx: AppContext, orgId: string, userId: string) {
  const byAccount = await repo.listMembers(ctx.db, orgId, { userId });
  const [m] = byAccount.length ? byAccount : await repo.listMembers(ctx.db, orgId, { memberId: userId });
  if (!m) throw notFound('Member not found');
  if (m.is_invite || !m.user_id) throw forbidden('Invited users cannot be edited or deleted.');
  return m as typeof m & { user_id: string };
}

const PROTECTED_MEMBER =
  "Only a platform administrator can change or remove the organization's CEO or a platform administrator.";

export async function updateMember(
  ctx: AppContext,
  caller: AuthUser,
  orgId: string,
  userId: string,
  body: z.output<typeof ZUpdateOrgUserRequest>,
  via: ActivityVia,
  accounts: MemberAccounts,
  pre: Precondition = ANY_VERSION,
): Promise<TOrgMember> {
  const a = await managerAccess(ctx, caller, orgId);
  const m = await findTarget(ctx, orgId, userId);
  const target = targetOf(m);
  pre.check(m.updated_at);
  const { org_access_level, ...account } = body;
  const levelChange = org_access_level !== undefined && org_access_level !== m.org_access_level;
  if (levelChange) {
    assertMayGrant(caller, a, org_access_level);
    if (!mayChangeMembership(caller, target)) throw forbidden(PROTECTED_MEMBER);
  }
  // A client sending back the row it read repeats the e-mail and names: only a difference is a change.
  const touchesAccount =
    account.password !== undefined ||
    (account.email !== undefined && account.email !== m.email) ||
    (account.first_name !== undefined && account.first_name !== (m.first_name ?? null)) ||
    (account.last_name !== undefined && account.last_name !== (m.last_name ?? null));
  if (touchesAccount) {
    const refusal = accountEditRefusal(caller, a.canManage, orgId, target);
    if (refusal) throw forbidden(refusal);
    // An organization admin's new e-mail for a managed account waits for that address to confirm it.
    const confirmEmailChange = !isPlatformAdmin(caller);
    await accounts.update(ctx, m.user_id, account, { actorId: caller.id, via, confirmEmailChange });
  }
  // The member row's version covers the account fields it shows, so any change moves it.
  if (levelChange || touchesAccount) {
    await withTx(ctx.db, async (trx) => {
      await memberships.updateMember(trx, m.id, {
        ...(levelChange ? { org_access_level } : {}),
        updated_at: nextVersion(m.updated_at),
      });
      if (levelChange) {
        await recordActivity(trx, {
          actorUserId: caller.id,
          via,
          action: 'membership.level_changed',
          entityType: 'organization_member',
          entityId: m.id,
          summary: `Changed ${m.email}'s level in organization ${orgId} from ${m.org_access_level} to ${org_access_level}`,
          before: { org_access_level: m.org_access_level },
          after: { org_access_level },
        });
      }
    });
  }
  return memberView(ctx, caller, orgId, m.id, accounts);
}

export async function removeMember(
  ctx: AppContext,
  caller: AuthUser,
  orgId: string,
  userId: string,
  via: ActivityVia,
): Promise<void> {
  await managerAccess(ctx, caller, orgId);
  const m = await findTarget(ctx, orgId, userId);
  if (!mayChangeMembership(caller, targetOf(m))) throw forbidden(PROTECTED_MEMBER);
  await withTx(ctx.db, async (trx) => {
    await memberships.deleteMember(trx, m.id);
    await recordActivity(trx, {
      actorUserId: caller.id,
      via,
      action: 'membership.removed',
      entityType: 'organization_member',
      entityId: m.id,
      summary: `Removed ${m.email} from organization ${orgId}`,
      before: { user_id: m.user_id, email: m.email, org_access_level: m.org_access_level },
    });
    const rest = await memberships.membershipsOf(trx, m.user_id);
    const next = rest.keys().next().value ?? null;
    await setPrimaryOrganization({ ...ctx, db: trx }, m.user_id, next, { onlyIfEquals: orgId });
  });
}

/** id → name of the given organizations. */
export async function organizationNames(
  ctx: AppContext,
  ids: readonly string[],
): Promise<Map<string, string>> {
  const rows = await repo.namesByIds(ctx.db, ids);
  return new Map(rows.map((r) => [r.id, r.name]));
}
