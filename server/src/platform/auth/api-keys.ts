import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { API_KEY_SECRET_PREFIX, apiOperation, keyMayCallOperation } from '@cc/contract';
import type { Db } from '../../db/index.ts';
import { nowIso } from '../../db/index.ts';
import { findApiKeyWithUser, touchApiKey } from './api-keys.repository.ts';
import type { AuthUser } from './authenticate.ts';

/**
 * Personal API keys: `cck_<prefix>_<secret>`. The prefix (public, unique) finds the row; the whole
 * token's SHA-256 is compared in constant time. A key acts as its owner, limited by its scopes, and
 * stops at once when revoked, expired, or its owner is waitlisted or deleted (the row goes with the user).
 */
export interface ApiKeyCaller {
  id: string;
  scopes: ReadonlySet<string>;
}

const PREFIX_BYTES = 6;
const SECRET_BYTES = 32;
/** last_used_at is a hint for the owner, not an audit trail: written at most once a minute per key. */
const TOUCH_EVERY_MS = 60_000;

export function isApiKeyToken(token: string): boolean {
  return token.startsWith(API_KEY_SECRET_PREFIX);
}

export function newApiKeySecret(): { secret: string; prefix: string; hash: string } {
  const prefix = randomBytes(PREFIX_BYTES).toString('hex');
  const secret = `${API_KEY_SECRET_PREFIX}${prefix}_${randomBytes(SECRET_BYTES).toString('base64url')}`;
  return { secret, prefix: `${API_KEY_SECRET_PREFIX}${prefix}`, hash: hashSecret(secret) };
}

function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

function prefixOf(token: string): string | null {
  const m = /^cck_([0-9a-f]{12})_[A-Za-z0-9_-]{20,}$/.exec(token);
  return m ? `${API_KEY_SECRET_PREFIX}${m[1]}` : null;
}

/** The key's owner and scopes, or null for an unknown, wrong, revoked or expired key or a waitlisted owner. */
export async function resolveApiKey(
  db: Db,
  token: string,
  now = new Date(),
): Promise<{ user: AuthUser; key: ApiKeyCaller } | null> {
  const prefix = prefixOf(token);
  if (!prefix) return null;
  const row = await findApiKeyWithUser(db, prefix);
  if (!row) return null;
  const given = Buffer.from(hashSecret(token), 'hex');
  const stored = Buffer.from(row.secret_hash, 'hex');
  if (given.length !== stored.length || !timingSafeEqual(given, stored)) return null;
  if (row.revoked_at) return null;
  if (row.expires_at && Date.parse(row.expires_at) <= now.getTime()) return null;
  if (row.user_level === 'waitlisted') return null;
  if (!row.last_used_at || now.getTime() - Date.parse(row.last_used_at) > TOUCH_EVERY_MS) {
    await touchApiKey(db, row.key_id, nowIso());
  }
  let scopes: string[] = [];
  try {
    scopes = JSON.parse(row.scopes);
  } catch {
    scopes = [];
  }
  const {
    key_id,
    secret_hash: _h,
    scopes: _s,
    expires_at: _e,
    revoked_at: _r,
    last_used_at: _l,
    ...user
  } = row;
  return { user, key: { id: key_id, scopes: new Set(scopes) } };
}

/**
 * Whether a key may call a route: its row in the contract's route → scope table (the MCP tools read
 * the same table). A route without a row is refused to keys.
 */
export function keyMayCall(key: ApiKeyCaller, method: string, route: string): boolean {
  return keyMayCallOperation(key.scopes, apiOperation(method, route));
}
