import { randomUUID } from 'node:crypto';
import {
  MAX_API_KEYS_PER_USER,
  type TApiKey,
  type TCreateApiKeyRequest,
  type TCreatedApiKey,
} from '@cc/contract';
import { nowIso } from '../../db/index.ts';
import { newApiKeySecret } from '../../platform/auth/api-keys.ts';
import {
  countLiveUserApiKeys,
  insertApiKey,
  listUserApiKeys,
  revokeApiKey,
} from '../../platform/auth/api-keys.repository.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { presentApiKey } from './api-keys.presenter.ts';

export async function createApiKey(
  ctx: AppContext,
  me: AuthUser,
  body: TCreateApiKeyRequest,
): Promise<TCreatedApiKey> {
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
  await insertApiKey(ctx.db, row);
  return { ...presentApiKey(row), secret };
}

export async function listApiKeys(ctx: AppContext, me: AuthUser): Promise<TApiKey[]> {
  return (await listUserApiKeys(ctx.db, me.id)).map(presentApiKey);
}

export async function deleteApiKey(ctx: AppContext, me: AuthUser, id: string): Promise<void> {
  if (!(await revokeApiKey(ctx.db, me.id, id, nowIso()))) throw notFound('API key not found');
}
