import { randomUUID } from 'node:crypto';
import {
  type TBriefSchedule,
  ZBriefSchedule,
  type TUser,
  type ZAdminCreateUserRequest,
  type ZAdminUpdateUserRequest,
  type ZRegisterRequest,
  type ZUpdateMeRequest,
  parseCustomPrompts,
} from '@cc/contract';
import type { z } from 'zod';
import { type Db, nowIso, withTx } from '../../db/index.ts';
import { type ActivityVia, recordActivity, recordActivitySafely } from '../activity/activity.ledger.ts';
import type { ProfilesTable, UsersTable } from '../../db/types.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import { hashPassword, verifyPassword } from '../../platform/auth/passwords.ts';
import { revokeAllKeysOf } from '../../platform/auth/api-keys.repository.ts';
import { revokeUserSessions } from '../../platform/auth/sessions.repository.ts';
import type { AppContext } from '../../platform/context.ts';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.ts';
import { limitMessages } from '../../platform/limits/limit-messages.ts';
import { lockoutError } from '../../platform/limits/limits.ts';
import { deleteWithOwnedFiles } from '../files/files.service.ts';
import {
  addManagedMember,
  assertOrganizationExists,
  ensureMembership,
  syncMemberEmail,
} from '../organizations/memberships.service.ts';
import { ANY_VERSION, type Precondition } from '../../platform/concurrency.ts';
import * as repo from './users.repository.ts';
import { presentUser } from './users.presenter.ts';
import {
  accountEditRefusal,
  deletionRefusal,
  maySeeCustomPrompts,
  profileEditRefusal,
  SIGN_UP_LEVEL,
} from './users.policy.ts';
import { requestEmailChange, sendVerificationLink } from './email-ownership.service.ts';

async function load(ctx: AppContext, id: string, viewer: { user_level: string }): Promise<TUser> {
  const row = await repo.findUserById(ctx.db, id);
  if (!row) throw notFound('User not found');
  return presentUser(row, { withCustomPrompts: maySeeCustomPrompts(viewer) });
}

/** Creates the user and profile rows in the caller's transaction. */
async function insertAccount(
  ctx: AppContext,
  input: {
    email: string;
    password: string;
    user_level: string;
    first_name?: string | null;
    last_name?: string | null;
    organization_id?: string | null;
    role?: string | null;
    /** The address is known to be the person's: made by a platform admin, by single sign-on, or seeded. */
    email_verified?: boolean;
  },
): Promise<string> {
  if (await repo.emailTaken(ctx.db, input.email))
    throw conflict('An account with this email already exists.');
  const now = nowIso();
  const id = randomUUID();
  const name = [input.first_name, input.last_name].filter(Boolean).join(' ') || null;
  const user: UsersTable = {
    id,
    email: input.email.toLowerCase(),
    password_hash: await hashPassword(input.password),
    first_name: input.first_name ?? null,
    last_name: input.last_name ?? null,
    user_level: input.user_level,
    organization_id: input.organization_id ?? null,
    role: input.role ?? null,
    created_at: now,
    updated_at: now,
    email_verified_at: input.email_verified ? now : null,
  };
  const profile: ProfilesTable = {
    user_id: id,
    name,
    role: input.role ?? null,
    objectives: '[]',
    behavior_notes: null,
    knowledge_summary: null,
    custom_prompts: '{}',
    created_at: now,
    updated_at: now,
  };
  await repo.insertUser(ctx.db, user, profile);
  return id;
}

/**
 * Self sign-up: always waitlisted, whatever the body says, and unverified until the person opens the
 * link e-mailed to the address (without a mail server it stays unverified: the waitlist page says so).
 * Pending invitations for the e-mail stay invitations: the person accepts them once approved.
 */
export async function register(
  ctx: AppContext,
  body: z.output<typeof ZRegisterRequest>,
  via: ActivityVia,
): Promise<TUser> {
  const id = await withTx(ctx.db, async (trx) => {
    const newId = await insertAccount(
      { ...ctx, db: trx },
      { ...body, user_level: SIGN_UP_LEVEL, organization_id: null },
    );
    await recordUserCreated(trx, { actorId: newId, via }, newId, body.email, SIGN_UP_LEVEL, 'Signed up');
    return newId;
  });
  await sendVerificationLink(ctx, { id, email: body.email.toLowerCase(), first_name: body.first_name });
  return load(ctx, id, { user_level: SIGN_UP_LEVEL });
}

/** A first single sign-on makes the account (its level decided by the caller from the e-mail's domain). */
export async function createSsoAccount(
  ctx: AppContext,
  input: {
    email: string;
    password: string;
    user_level: string;
    first_name: string | null;
    last_name: string | null;
  },
  via: ActivityVia,
): Promise<string> {
  return withTx(ctx.db, async (trx) => {
    // The provider confirmed the address (the callback refuses an unverified one).
    const newId = await insertAccount(
      { ...ctx, db: trx },
      { ...input, organization_id: null, email_verified: true },
    );
    await recordUserCreated(
      trx,
      { actorId: newId, via },
      newId,
      input.email,
      input.user_level,
      'Signed up with single sign-on',
    );
    return newId;
  });
}

export const getMe = (ctx: AppContext, me: AuthUser) => load(ctx, me.id, me);

/** Splits an update body into user columns and profile columns (changed fields only). */
function splitColumns(body: {
  first_name?: string | null;
  last_name?: string | null;
  role?: string | null;
  name?: string | null;
  objectives?: string[];
  behavior_notes?: string | null;
  knowledge_summary?: string | null;
  custom_prompts?: unknown;
  brief_schedule?: TBriefSchedule | null;
}) {
  const now = nowIso();
  const user: Partial<UsersTable> = {};
  const profile: Partial<ProfilesTable> = {};
  if (body.first_name !== undefined) user.first_name = body.first_name;
  if (body.last_name !== undefined) user.last_name = body.last_name;
  if (body.role !== undefined) {
    user.role = body.role;
    profile.role = body.role;
  }
  if (body.name !== undefined) profile.name = body.name;
  if (body.objectives !== undefined) {
    profile.objectives = JSON.stringify(body.objectives.map((o) => o.trim()).filter(Boolean));
  }
  if (body.behavior_notes !== undefined) profile.behavior_notes = body.behavior_notes;
  if (body.knowledge_summary !== undefined) profile.knowledge_summary = body.knowledge_summary;
  if (body.custom_prompts !== undefined)
    profile.custom_prompts = JSON.stringify(parseCustomPrompts(body.custom_prompts));
  if (body.brief_schedule !== undefined) {
    // `since`: slots before the schedule was saved are never produced (turning it on is not a catch-up).
    user.brief_schedule = body.brief_schedule ? JSON.stringify({ ...body.brief_schedule, since: now }) : null;
    user.brief_schedule_on = body.brief_schedule?.enabled ? 1 : 0;
  }
  if (Object.keys(user).length) user.updated_at = now;
  if (Object.keys(profile).length) profile.updated_at = now;
  return { user, profile };
}

export async function updateMe(
  ctx: AppContext,
  me: AuthUser,
  sessionId: string,
  body: z.output<typeof ZUpdateMeRequest>,
  via: ActivityVia,
  pre: Precondition = ANY_VERSION,
): Promise<TUser> {
  const input = body;
  if (pre !== ANY_VERSION) pre.check((await load(ctx, me.id, me)).updated_at);
  const refusal = profileEditRefusal(me, input);
  if (refusal) throw forbidden(refusal);
  const { password, current_password, user_level: _l, ...fields } = input;
  let newHash: string | undefined;
  if (password !== undefined) {
    if (!current_password) throw badRequest('Current password is required.');
    if (!(await currentPasswordMatches(ctx, me.id, current_password, via))) {
      throw badRequest('Current password is incorrect.');
    }
    newHash = await hashPassword(password);
  }
  const { user, profile } = splitColumns(fields);
  if (newHash) user.password_hash = newHash;
  await withTx(ctx.db, async (trx) => {
    await repo.updateUserColumns(trx, me.id, user);
    await repo.updateProfileColumns(trx, me.id, profile);
    // A password change signs out every other device (this one stays signed in) and ends every API
    // key: a key made by whoever had the old password must not outlive it.
    if (newHash) {
      await revokeUserSessions(trx, me.id, sessionId);
      await revokeAllKeysOf(trx, me.id);
      await recordActivity(trx, {
        actorUserId: me.id,
        via,
        action: 'user.password_changed',
        entityType: 'user',
        entityId: me.id,
        summary: 'Changed their password (other sessions signed out, API keys revoked)',
      });
    }
  });
  return load(ctx, me.id, me);
}

/**
 * Whether `password` is the account's current one (a password change, making an API key). Locked like
 * sign-in after repeated wrong guesses (429), so a stolen session cannot try passwords forever.
 */
export async function currentPasswordMatches(
  ctx: AppContext,
  userId: string,
  password: string,
  via: ActivityVia,
): Promise<boolean> {
  const guard = ctx.limits.currentPassword;
  if (guard.isLocked(userId)) throw lockoutError(guard, userId, limitMessages.currentPassword);
  const stored = await repo.findPasswordHash(ctx.db, userId);
  if (stored && (await verifyPassword(stored.password_hash, password))) {
    guard.succeed(userId);
    return true;
  }
  guard.fail(userId);
  if (guard.isLocked(userId)) {
    await recordActivitySafely(ctx.db, {
      actorUserId: userId,
      via,
      action: 'auth.lockout',
      entityType: 'user',
      entityId: userId,
      summary: `Current password locked after ${guard.maxFailures} wrong guesses`,
    });
  }
  return false;
}

export async function listUsers(
  ctx: AppContext,
  admin: AuthUser,
  q: { search?: string; skip: number; limit: number },
) {
  const rows = await repo.listUsers(ctx.db, q);
  return rows.map((r) => presentUser(r, { withCustomPrompts: maySeeCustomPrompts(admin) }));
}

export async function adminCreateUser(
  ctx: AppContext,
  admin: AuthUser,
  body: z.output<typeof ZAdminCreateUserRequest>,
  via: ActivityVia,
) {
  const input = body;
  const id = await withTx(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    if (input.organization_id) await assertOrganizationExists(tctx, input.organization_id);
    // A platform administrator vouches for the address of an account they create.
    const newId = await insertAccount(tctx, { ...input, email_verified: true });
    // An account created with an organization is created through it: that organization manages it.
    if (input.organization_id) {
      await addManagedMember(tctx, input.organization_id, { id: newId, email: input.email }, 'user');
    }
    await recordUserCreated(
      trx,
      { actorId: admin.id, via },
      newId,
      input.email,
      input.user_level,
      'Created the account',
    );
    return newId;
  });
  return load(ctx, id, admin);
}

/**
 * Account changes shared by the admin user manager and organization member editing. A change of level
 * or password, or of e-mail, revokes the user's sessions.
 */
export async function updateAccount(
  ctx: AppContext,
  userId: string,
  input: Omit<z.output<typeof ZAdminUpdateUserRequest>, 'custom_prompts'> & { custom_prompts?: unknown },
  /**
   * Who made the change (the admin, or the organization admin editing a member) and from where, for the
   * ledger; `confirmEmailChange`: a new e-mail waits for the new address to confirm it (an organization
   * admin's change), instead of taking effect at once (a platform admin's).
   */
  by: { actorId: string | null; via: ActivityVia; confirmEmailChange?: boolean },
): Promise<void> {
  const { actorId, via } = by;
  const current = await repo.findUserById(ctx.db, userId);
  if (!current) throw notFound('User not found');
  const { email, password, user_level, organization_id, ...fields } = input;
  const { user, profile } = splitColumns(fields);
  let revoke = false;
  if (email !== undefined && email !== current.email) {
    if (await repo.emailTaken(ctx.db, email, userId))
      throw conflict('An account with this email already exists.');
    if (by.confirmEmailChange) {
      // Sent before anything else is written: a refusal leaves the whole account as it was.
      await requestEmailChange(ctx, current, email, by);
    } else {
      user.email = email;
      // Nobody has proven the new address is the person's: single sign-on will ask for the password.
      user.email_verified_at = null;
      user.email_changed_at = nowIso();
      revoke = true;
    }
  }
  if (password !== undefined) {
    user.password_hash = await hashPassword(password);
    revoke = true;
  }
  if (user_level !== undefined && user_level !== current.user_level) {
    user.user_level = user_level;
    revoke = true;
  }
  if (organization_id !== undefined && organization_id !== current.organization_id) {
    if (organization_id) await assertOrganizationExists(ctx, organization_id);
    user.organization_id = organization_id;
  }
  if (Object.keys(user).length) user.updated_at = nowIso();
  await withTx(ctx.db, async (trx) => {
    await repo.updateUserColumns(trx, userId, user);
    await repo.updateProfileColumns(trx, userId, profile);
    if (user.organization_id) {
      await ensureMembership({ ...ctx, db: trx }, user.organization_id, userId, user.email ?? current.email);
    }
    if (user.email) await syncMemberEmail({ ...ctx, db: trx }, userId, user.email);
    if (revoke) await revokeUserSessions(trx, userId);
    if (user.password_hash) await revokeAllKeysOf(trx, userId);
    if (user.user_level) {
      await recordActivity(trx, {
        actorUserId: actorId,
        via,
        action: 'user.level_changed',
        entityType: 'user',
        entityId: userId,
        summary: `Changed ${current.email}'s level from ${current.user_level} to ${user.user_level}`,
        before: { user_level: current.user_level },
        after: { user_level: user.user_level },
      });
    }
    if (user.password_hash) {
      await recordActivity(trx, {
        actorUserId: actorId,
        via,
        action: 'user.password_changed',
        entityType: 'user',
        entityId: userId,
        summary: `Set a new password for ${current.email} (their sessions signed out, API keys revoked)`,
      });
    }
  });
}

export async function adminUpdateUser(
  ctx: AppContext,
  admin: AuthUser,
  id: string,
  body: z.output<typeof ZAdminUpdateUserRequest>,
  via: ActivityVia,
  pre: Precondition = ANY_VERSION,
) {
  const input = body;
  if (pre !== ANY_VERSION) pre.check((await load(ctx, id, admin)).updated_at);
  const refusal = accountEditRefusal(admin, id, input);
  if (refusal) throw forbidden(refusal);
  await updateAccount(ctx, id, input, { actorId: admin.id, via });
  return load(ctx, id, admin);
}

export async function adminDeleteUser(
  ctx: AppContext,
  admin: AuthUser,
  id: string,
  via: ActivityVia,
): Promise<void> {
  const target = await repo.findUserById(ctx.db, id);
  if (!target) throw notFound('User not found');
  const refusal = deletionRefusal(admin, target);
  if (refusal) throw forbidden(refusal);
  // Sessions, profile, memberships and file rows cascade; the files' bytes are removed after.
  await deleteWithOwnedFiles(ctx, id, () =>
    withTx(ctx.db, async (trx) => {
      await repo.deleteUser(trx, id);
      // The trail keeps the account's id; the entry says whose account it was (no secrets).
      await recordActivity(trx, {
        actorUserId: admin.id,
        via,
        action: 'user.deleted',
        entityType: 'user',
        entityId: id,
        summary: `Deleted the account ${target.email}`,
        before: {
          email: target.email,
          user_level: target.user_level,
          first_name: target.first_name,
          last_name: target.last_name,
        },
      });
    }),
  );
}

/** A new account in the ledger (inside the transaction that created it). */
function recordUserCreated(
  db: Db,
  by: { actorId: string; via: ActivityVia },
  id: string,
  email: string,
  level: string,
  verb: string,
) {
  return recordActivity(db, {
    actorUserId: by.actorId,
    via: by.via,
    action: 'user.created',
    entityType: 'user',
    entityId: id,
    summary: `${verb}: ${email.toLowerCase()} (${level})`,
    after: { email: email.toLowerCase(), user_level: level },
  });
}

/** For sign-in: the stored hash of the account with this e-mail. */
export const findCredentials = (ctx: AppContext, email: string) => repo.findCredentialsByEmail(ctx.db, email);

/**
 * Notes a successful password sign-in. Only the first one after the e-mail was verified is written:
 * that is all single sign-on asks (a verified account whose password was used since), and sign-ins
 * stay free of a write.
 */
export async function notePasswordSignIn(
  ctx: AppContext,
  account: { id: string; email_verified_at?: string | null; password_sign_in_at?: string | null },
): Promise<void> {
  const verified = account.email_verified_at;
  if (!verified || (account.password_sign_in_at && account.password_sign_in_at >= verified)) return;
  await repo.markPasswordSignIn(ctx.db, account.id, nowIso());
}

/** For confirming a single sign-on link: the account's e-mail and stored hash by id. */
export async function credentialsById(ctx: AppContext, id: string) {
  const [hash, state] = await Promise.all([
    repo.findPasswordHash(ctx.db, id),
    repo.findEmailState(ctx.db, id),
  ]);
  return hash && state ? { id, email: state.email, password_hash: hash.password_hash } : undefined;
}

/** An account's id and e-mail by e-mail, with when that e-mail last changed (invitations bind to it). */
export async function findAccountByEmail(ctx: AppContext, email: string) {
  const row = await repo.findCredentialsByEmail(ctx.db, email);
  return row ? { id: row.id, email: row.email } : undefined;
}

/** When the account's e-mail last changed (null: never since it was created), or undefined when it is gone. */
export async function emailChangedAt(ctx: AppContext, id: string): Promise<string | null | undefined> {
  const row = await repo.findEmailState(ctx.db, id);
  return row ? (row.email_changed_at ?? null) : undefined;
}

export async function getUserSummary(ctx: AppContext, id: string) {
  const r = await repo.findUserById(ctx.db, id);
  return r
    ? {
        id: r.id,
        email: r.email,
        first_name: r.first_name,
        last_name: r.last_name,
        user_level: r.user_level,
        organization_id: r.organization_id,
      }
    : undefined;
}

export const countUsers = (ctx: AppContext) => repo.countUsers(ctx.db);
export const createAccount = insertAccount;

/** A page of the users whose brief schedule is on (for the brief scheduler), by id after `afterId`. */
export async function scheduledBriefUsers(
  ctx: AppContext,
  afterId: string,
  limit: number,
): Promise<
  { id: string; organization_id: string | null; schedule: TBriefSchedule | null; since: string | null }[]
> {
  const rows = await repo.scheduledBriefUsers(ctx.db, afterId, limit);
  return rows.map((r) => {
    const { since, ...stored } = (safeJson(r.brief_schedule ?? null) ?? {}) as { since?: unknown };
    const parsed = ZBriefSchedule.safeParse(stored);
    return {
      id: r.id,
      organization_id: r.organization_id,
      schedule: parsed.success ? parsed.data : null,
      since: typeof since === 'string' ? since : null,
    };
  });
}

function safeJson(text: string | null): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** id → display name ("First Last", else the e-mail) of the given accounts. */
export async function userNames(ctx: AppContext, ids: readonly string[]): Promise<Map<string, string>> {
  const rows = await repo.namesByIds(ctx.db, ids);
  return new Map(rows.map((r) => [r.id, [r.first_name, r.last_name].filter(Boolean).join(' ') || r.email]));
}

/** The account's run confirmation threshold (USD; null: the configured default). */
export async function runConfirmThreshold(ctx: AppContext, id: string): Promise<number | null> {
  const [row] = await repo.namesByIds(ctx.db, [id]);
  return row?.run_confirm_usd ?? null;
}

/** Sets the account's run confirmation threshold (null: back to the default). */
export async function setRunConfirmThreshold(ctx: AppContext, id: string, usd: number | null): Promise<void> {
  await repo.updateUserColumns(ctx.db, id, { run_confirm_usd: usd });
}
