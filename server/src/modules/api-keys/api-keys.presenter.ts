import type { TApiKey } from '@cc/contract';
import type { ApiKeyRow } from '../../platform/auth/api-keys.repository.ts';

/** Never the secret or its hash: those leave the server once, in the answer to creation. */
export function presentApiKey(row: ApiKeyRow): TApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: JSON.parse(row.scopes) as string[],
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    expires_at: row.expires_at,
  };
}
