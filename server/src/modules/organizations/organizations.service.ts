import { randomUUID } from 'node:crypto';
import type { TOrgMember, TOrganization, ZAddOrgUserRequest, ZUpdateOrgUserRequest } from '@cc/contract';
import type { z } from 'zod';
import { nowIso, withTx } from '../../db/index.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { conflict, forbidden, notFound } from '../../platform/errors.ts';
import {
  findUserByEmail,
  getUserSummary,
  setPrimaryOrganization,
  updateAccount,
} from '../users/users.service.ts';
import { ANY_VERSION, nextVersion, type Precondition } from '../../platform/concurrency.ts';
import * as repo from './organizations.repository.ts';

const ORG_LIST_LIMIT = 200;
type OrgAccess = 'user' | 'manager' | 'admin';

/** Platform admins and CEOs (within their organizations) run organizations; org admins manage members. */
function rights(caller: AuthUser, membership: string | undefined) {
  const platformAdmin = caller.user_level === 'admin';
  const ceoMember = caller.user_level === 'ceo' && membership !== undefined;
  return {
    visible: platformAdmin || membership !== undefined,
    canManage: platformAdmin || ceoMember || membership === 'admin',
    canEdit: platformAdmin || ceoMember,
  };
}

async function access(ctx: AppContext, caller: AuthUser, orgId: string) {
  const org = await repo.findOrganization(ctx.db, orgId);
  const membership = org
    ? (await repo.findMembership(ctx.db, orgId, caller.id))?.org_access_level
    : undefined;
  const r = rights(caller, membership);
  if (!org || !r.visible) throw notFound('Organization not found');
  return { org, membership, ...r };
}

function presentMember(m: Awaited<ReturnType<typeof repo.listMembers>>[number]): TOrgMember {
  return {
    id: m.id,
    user_id: m.user_id,
    email: m.email,
    first_name: m.first_name ?? null,
    last_name: m.last_name ?? null,
    user_level: m.user_level ?? null,
    org_access_level: m.org_access_level as OrgAccess,
    is_invite: Boolean(m.is_invite),
    created_at: m.created_at,
    updated_at: m.updated_at,
  };
}

export async function listOrganizations(ctx: AppContext, caller: AuthUser): Promise<TOrganization[]> {
  const mine = await repo.membershipsOf(ctx.db, caller.id);
  const rows = await repo.listOrganizations(ctx.db, {
    memberUserId: caller.user_level === 'admin' ? undefined : caller.id,
    limit: ORG_LIST_LIMIT,
  });
  return rows.map((o) => {
    const level = mine.get(o.id);
    const r = rights(caller, level);
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
): Promise<TOrganization> {
  if (caller.user_level !== 'ceo' && caller.user_level !== 'admin') {
    throw forbidden('Only a CEO or an administrator can create organizations.');
  }
  const now = nowIso();
  const id = randomUUID();
  await withTx(ctx.db, async (trx) => {
    await repo.insertOrganization(trx, { id, name, created_by: caller.id, created_at: now, updated_at: now });
    // The creator runs the new organization.
    await repo.insertMember(trx, {
      id: randomUUID(),
      organization_id: id,
      user_id: caller.id,
      email: caller.email,
      org_access_level: 'admin',
      is_invite: 0,
      created_at: now,
    });
    await setPrimaryOrganization({ ...ctx, db: trx }, caller.id, id, { onlyIfEmpty: true });
  });
  return presentOrganization(ctx, caller, id);
}

export async function renameOrganization(
  ctx: AppContext,
  caller: AuthUser,
  id: string,
  name: string,
  pre: Precondition = ANY_VERSION,
) {
  const a = await access(ctx, caller, id);
  if (!a.canEdit) throw forbidden('Only a CEO or an administrator can rename this organization.');
  const current = await presentOrganization(ctx, caller, id);
  pre.check(current.updated_at);
  await repo.renameOrganization(ctx.db, id, name, nextVersion(current.updated_at));
  return presentOrganization(ctx, caller, id);
}

export async function deleteOrganization(ctx: AppContext, caller: AuthUser, id: string): Promise<void> {
  const a = await access(ctx, caller, id);
  if (!a.canEdit) throw forbidden('Only a CEO or an administrator can delete this organization.');
  await repo.deleteOrganization(ctx.db, id); // memberships cascade; users' primary organization is set null
}

export async function listMembers(ctx: AppContext, caller: AuthUser, orgId: string): Promise<TOrgMember[]> {
  await access(ctx, caller, orgId);
  return (await repo.listMembers(ctx.db, orgId)).map(presentMember);
}

async function memberView(ctx: AppContext, orgId: string, memberId: string): Promise<TOrgMember> {
  const m = (await repo.listMembers(ctx.db, orgId)).find((x) => x.id === memberId);
  if (!m) throw notFound('Member not found');
  return presentMember(m);
}

export async function addMember(
  ctx: AppContext,
  caller: AuthUser,
  orgId: string,
  body: z.output<typeof ZAddOrgUserRequest>,
): Promise<TOrgMember> {
  const a = await access(ctx, caller, orgId);
  if (!a.canManage) throw forbidden('You cannot manage the members of this organization.');
  if (await repo.findMembershipByEmail(ctx.db, orgId, body.email)) {
    throw conflict('This user is already a member of this organization.');
  }
  const user = await findUserByEmail(ctx, body.email);
  const id = randomUUID();
  await withTx(ctx.db, async (trx) => {
    await repo.insertMember(trx, {
      id,
      organization_id: orgId,
      user_id: user?.id ?? null,
      email: body.email,
      org_access_level: body.org_access_level,
      // An e-mail with no account yet is an invite: it joins when that person signs up.
      is_invite: user ? 0 : 1,
      created_at: nowIso(),
    });
    if (user) await setPrimaryOrganization({ ...ctx, db: trx }, user.id, orgId, { onlyIfEmpty: true });
  });
  return memberView(ctx, orgId, id);
}

/** The path's userId names an account; an invite (no account) is addressed by its member id. */
async function findTarget(ctx: AppContext, orgId: string, userId: string) {
  const m = (await repo.findMembership(ctx.db, orgId, userId)) ?? (await repo.findMemberRow(ctx.db, userId));
  if (!m || m.organization_id !== orgId) throw notFound('Member not found');
  if (m.is_invite) throw forbidden('Invited users cannot be edited or deleted.');
  return m as typeof m & { user_id: string };
}

export async function updateMember(
  ctx: AppContext,
  caller: AuthUser,
  orgId: string,
  userId: string,
  body: z.output<typeof ZUpdateOrgUserRequest>,
  pre: Precondition = ANY_VERSION,
): Promise<TOrgMember> {
  const a = await access(ctx, caller, orgId);
  if (!a.canManage) throw forbidden('You cannot manage the members of this organization.');
  const m = await findTarget(ctx, orgId, userId);
  pre.check(m.updated_at);
  const { org_access_level, ...account } = body;
  const touchesAccount = Object.values(account).some((v) => v !== undefined);
  if (touchesAccount && caller.user_level !== 'admin') {
    // Account fields (e-mail, names, password) of another person: only for regular members, never for
    // oneself (the profile page does that with the current password) nor for admin or CEO accounts.
    const target = await getUserSummary(ctx, m.user_id);
    if (m.user_id === caller.id) throw forbidden('Change your own account from your profile.');
    if (!target || target.user_level === 'admin' || target.user_level === 'ceo') {
      throw forbidden('Only a platform administrator can change this account.');
    }
  }
  if (touchesAccount) await updateAccount(ctx, m.user_id, account);
  const levelChange = org_access_level !== undefined && org_access_level !== m.org_access_level;
  // The member row's version covers the account fields it shows, so any change moves it.
  if (levelChange || touchesAccount) {
    await repo.updateMember(ctx.db, m.id, {
      ...(levelChange ? { org_access_level } : {}),
      updated_at: nextVersion(m.updated_at),
    });
  }
  return memberView(ctx, orgId, m.id);
}

export async function removeMember(
  ctx: AppContext,
  caller: AuthUser,
  orgId: string,
  userId: string,
): Promise<void> {
  const a = await access(ctx, caller, orgId);
  if (!a.canManage) throw forbidden('You cannot manage the members of this organization.');
  const m = await findTarget(ctx, orgId, userId);
  await withTx(ctx.db, async (trx) => {
    await repo.deleteMember(trx, m.id);
    const rest = await repo.membershipsOf(trx, m.user_id);
    const next = rest.keys().next().value ?? null;
    await setPrimaryOrganization({ ...ctx, db: trx }, m.user_id, next, { onlyIfEquals: orgId });
  });
}

// ---- for other modules ----

export async function assertOrganizationExists(ctx: AppContext, id: string): Promise<void> {
  if (!(await repo.findOrganization(ctx.db, id))) throw notFound('Organization not found');
}

/** Makes the user a member (level user) unless they already are. */
export async function ensureMembership(ctx: AppContext, orgId: string, userId: string, email: string) {
  if (await repo.findMembership(ctx.db, orgId, userId)) return;
  const invite = await repo.findMembershipByEmail(ctx.db, orgId, email);
  if (invite) {
    await repo.updateMember(ctx.db, invite.id, { user_id: userId, is_invite: 0 });
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

/** On sign-up: pending invites for the e-mail become memberships; the first becomes the primary org. */
export async function acceptInvites(ctx: AppContext, userId: string, email: string): Promise<void> {
  const orgIds = await repo.claimInvites(ctx.db, userId, email);
  if (orgIds.length) await setPrimaryOrganization(ctx, userId, orgIds[0], { onlyIfEmpty: true });
}

export const syncMemberEmail = (ctx: AppContext, userId: string, email: string) =>
  repo.setMemberEmail(ctx.db, userId, email);

/** Ids of the organizations the user belongs to (for visibility rules of other modules). */
export async function organizationIdsOf(ctx: AppContext, userId: string): Promise<string[]> {
  return [...(await repo.membershipsOf(ctx.db, userId)).keys()];
}

/** The user's memberships as organization id → org_access_level (for other modules' permission rules). */
export function membershipLevelsOf(ctx: AppContext, userId: string): Promise<Map<string, string>> {
  return repo.membershipsOf(ctx.db, userId);
}
