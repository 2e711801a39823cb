import type { TableClock } from '../../db/table-clock.ts';

/**
 * The caller's organization memberships as read with their session (one statement for both: on
 * PostgreSQL a round trip fewer on every request that builds a viewer). Kept beside the request's user
 * object, never on it, so nothing that presents the user can send them.
 *
 * They stand for the memberships only while this process has seen no write to organization_members
 * since they were read (this request's own writes included); otherwise, and inside a transaction, the
 * viewer reads them afresh (platform/viewer.ts). Another instance's write in between is the same race
 * as one landing just after a fresh read, so the clock need not see other instances (it does not on
 * PostgreSQL with the read cache off).
 */
interface Remembered {
  levels: Map<string, string>;
  stamp: number;
  clock: TableClock;
}

const MEMBERSHIP_TABLES = ['organization_members'];

const byCaller = new WeakMap<object, Remembered>();

/** `organization id=level` pairs joined by commas (the session query's aggregate) as a map. */
export function parseMembershipList(list: string | null): Map<string, string> {
  const levels = new Map<string, string>();
  if (!list) return levels;
  for (const pair of list.split(',')) {
    const eq = pair.lastIndexOf('=');
    if (eq > 0) levels.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
  return levels;
}

/** Remembers `caller`'s memberships, read at `stamp` of `clock` (taken before the read). */
export function rememberMemberships(
  caller: object,
  list: string | null,
  clock: TableClock | null,
  stamp: number,
): void {
  if (!clock) return;
  byCaller.set(caller, { levels: parseMembershipList(list), stamp, clock });
}

/** The memberships read with `caller`'s session while still current, else undefined. */
export function rememberedMemberships(caller: object): Map<string, string> | undefined {
  const r = byCaller.get(caller);
  if (!r) return undefined;
  if (r.clock.untouchedSince(r.stamp, MEMBERSHIP_TABLES)) return r.levels;
  byCaller.delete(caller);
  return undefined;
}
