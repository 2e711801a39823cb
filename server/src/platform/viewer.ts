import { membershipLevelsOf } from '../modules/organizations/memberships.service.ts';
import type { Memberships } from './access.ts';
import { rememberedMemberships } from './auth/caller-memberships.ts';
import type { AppContext } from './context.ts';
import { notFound } from './errors.ts';

/**
 * What a list predicate needs to know about the caller: their id and their organizations. A plain
 * pair, so a prepared query can stand its values in (see db/prepared-query.ts).
 */
export interface ViewerScope {
  id: string;
  orgIds: readonly string[];
}

/**
 * The caller as the access policies (`modules/<domain>/<domain>.policy.ts`) see them: id, platform
 * level and organization memberships (organization id → org_access_level). Built once per request by
 * the service that handles it and handed to every policy call, so memberships are read once.
 */
export interface Viewer extends ViewerScope {
  /** The platform level (`ceo`, `admin`, …); null where no rule needs it (e.g. the AI snapshot). */
  userLevel: string | null;
  levels: Memberships;
}

export function viewerOf(user: { id: string; user_level?: string | null }, levels: Memberships): Viewer {
  return { id: user.id, userLevel: user.user_level ?? null, levels, orgIds: [...levels.keys()] };
}

/** The caller's viewer: one read of their memberships. */
export async function loadViewer(
  ctx: AppContext,
  user: { id: string; user_level?: string | null },
): Promise<Viewer> {
  // The memberships read with the session, unless this is a transaction (it reads its own).
  const known = ctx.db.isTransaction ? undefined : rememberedMemberships(user);
  return viewerOf(user, known ?? (await membershipLevelsOf(ctx, user.id)));
}

/**
 * The "load the record, its shares and the caller's memberships, compute the rights" sequence every
 * shared-record service runs before it reads or changes one record. A record the caller may not see is
 * a 404 with `missing`, exactly like one that does not exist (never leak existence).
 */
export async function loadWithRights<Row, Rights extends { visible: boolean }, Shares = undefined>(
  ctx: AppContext,
  user: { id: string; user_level?: string | null },
  spec: {
    find: () => Promise<Row | undefined>;
    /** The organizations the record is shared with (in the form its rights take); none: undefined. */
    shares?: () => Promise<Shares>;
    rights: (row: Row, shares: Shares, viewer: Viewer) => Rights;
    missing: string;
  },
): Promise<{ row: Row; shares: Shares; viewer: Viewer; rights: Rights }> {
  const [row, viewer, shares] = await Promise.all([
    spec.find(),
    loadViewer(ctx, user),
    spec.shares?.() as Promise<Shares>,
  ]);
  if (!row) throw notFound(spec.missing);
  const rights = spec.rights(row, shares, viewer);
  if (!rights.visible) throw notFound(spec.missing);
  return { row, shares, viewer, rights };
}
