import { randomUUID } from 'node:crypto';
import {
  API_KEY_RECENT_SIGN_IN_MINUTES,
  MAX_API_KEYS_PER_USER,
  type TApiKey,
  type TCreateApiKeyRequest,
  type TCreatedApiKey,
} from '@cc/contract';
import { nowIso, withTx } from '../../db/index.ts';
import { newApiKeySecret } from '../../platform/auth/api-keys.ts';
import {
  countLiveUserApiKeys,
  insertApiKey,
  listUserApiKeys,
  revokeApiKey,
} from '../../platform/auth/api-keys.repository.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import { sessionSignedInAt } from '../../platform/auth/sessions.repository.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { type ActivityVia, recordActivity } from '../activity/activity.ledger.ts';
import { currentPasswordMatches } from '../users/users.service.ts';
import { sendKeyCreatedEmail } from './api-keys.mailer.ts';
import { presentApiKey } from './api-keys.presenter.ts';

/** A 422 on the password field, so the form can ask for it (a 401/403 would sign the web out). */
const passwordProblem = (msg: string, type: string) =>
  new AppError(422, [{ loc: ['body', 'current_password'], msg, type }]);

/**
 * Who makes a key must be the account's person, not just someone holding its session: the current
 * password, or a sign-in of this very session within the last few minutes.
 */
async function assertRecentlyProven(
  ctx: AppContext,
  me: AuthUser,
  sessionId: string | null,
  password: string | undefined,
  via: ActivityVia,
): Promise<void> {
  if (password) {
    if (await currentPasswordMatches(ctx, me.id, password, via)) return;
    throw passwordProblem('Current password is incorrect.', 'password_incorrect');
  }
  const signedIn = sessionId ? await sessionSignedInAt(ctx.db, sessionId) : null;
  const recent = Date.now() - API_KEY_RECENT_SIGN_IN_MINUTES * 60_000;
  if (signedIn && Date.parse(signedIn) >= recent) return;
  throw passwordProblem(
    `Enter your current password to create an API key (you signed in more than ${API_KEY_RECENT_SIGN_IN_MINUTES} minutes ago).`,
    'password_required',
  );
}

export async function createApiKey(
  ctx: AppContext,
  me: AuthUser,
  sessionId: string | null,
  body: TCreateApiKeyRequest,
  via: ActivityVia,
): Promise<TCreatedApiKey> {
  await assertRecentlyProven(ctx, me, sessionId, body.current_password, via);
  if ((await countLiveUserApiKeys(ctx.db, me.id)) >= MAX_API_KEYS_PER_USER) {
    throw new AppError(422, `At most ${MAX_API_KEYS_PER_USER} API keys; revoke one first.`);
  }
  const { secret, prefix, hash } = newApiKeySecret();
  const row = {
    id: randomUUID(),
    user_id: me.id,
    name: body.name,
    prefix,
    secret_hash: hash,
    scopes: JSON.stringify([...new Set(body.scopes)].sort()),
    created_at: nowIso(),
    last_used_at: null,
    expires_at: body.expires_at ? new Date(body.expires_at).toISOString() : null,
    revoked_at: null,
  };
  const key = presentApiKey(row);
  await withTx(ctx.db, async (trx) => {
    await insertApiKey(trx, row);
    await recordActivity(trx, {
      actorUserId: me.id,
      via,
      action: 'api_key.created',
      entityType: 'api_key',
      entityId: row.id,
      summary: `Created the API key "${row.name}" (${key.scopes.join(', ')})`,
      after: { name: row.name, prefix: row.prefix, scopes: key.scopes, expires_at: row.expires_at },
    });
  });
  // After the commit: the owner hears of every new key (a failed mail does not undo the key).
  await sendKeyCreatedEmail(ctx, me.email, key);
  return { ...key, secret };
}

export async function listApiKeys(ctx: AppContext, me: AuthUser): Promise<TApiKey[]> {
  return (await listUserApiKeys(ctx.db, me.id)).map(presentApiKey);
}

export async function deleteApiKey(ctx: AppContext, me: AuthUser, id: string): Promise<void> {
  if (!(await revokeApiKey(ctx.db, me.id, id, nowIso()))) throw notFound('API key not found');
}
