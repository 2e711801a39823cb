import { randomUUID } from 'node:crypto';
import { allowlistCovers, type TOutboundAllowlist, type ZOutboundAllowlistRequest } from '@cc/contract';
import type { z } from 'zod';
import { nowIso } from '../../db/index.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { assertMayManageAllowlist } from './outbound-allowlist.policy.ts';
import * as repo from './outbound-allowlist.repository.ts';

const present = (rows: repo.AllowlistRow[]): TOutboundAllowlist => ({
  entries: rows.map((r) => ({
    method: r.method as 'GET' | 'POST',
    destination: r.destination,
    note: r.note,
    created_at: r.created_at,
  })),
});

/** GET /api/admin/outbound-allowlist */
export async function getAllowlist(ctx: AppContext, caller: AuthUser): Promise<TOutboundAllowlist> {
  assertMayManageAllowlist(caller);
  return present(await repo.listEntries(ctx.db));
}

/** PUT /api/admin/outbound-allowlist: the given list replaces the stored one (an entry kept keeps its date). */
export async function replaceAllowlist(
  ctx: AppContext,
  caller: AuthUser,
  body: z.output<typeof ZOutboundAllowlistRequest>,
): Promise<TOutboundAllowlist> {
  assertMayManageAllowlist(caller);
  const before = new Map((await repo.listEntries(ctx.db)).map((r) => [`${r.method} ${r.destination}`, r]));
  const now = nowIso();
  const rows = body.entries.map((e): repo.AllowlistRow => {
    const kept = before.get(`${e.method} ${e.destination}`);
    return {
      id: kept?.id ?? randomUUID(),
      method: e.method,
      destination: e.destination,
      note: e.note ?? null,
      created_by: kept ? kept.created_by : caller.id,
      created_at: kept?.created_at ?? now,
    };
  });
  await repo.replaceEntries(ctx.db, rows);
  return present(await repo.listEntries(ctx.db));
}

/**
 * The gate's question, read fresh each time (several instances share the list): may a model send a
 * call of `method` to `url` without a person's approval?
 */
export async function sideEffectFreeCheck(
  ctx: AppContext,
): Promise<(method: string, url: string) => boolean> {
  const entries = await repo.listEntries(ctx.db);
  return (method, url) => allowlistCovers(entries, method, url);
}
