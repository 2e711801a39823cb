import {
  ACTIVITY_ALREADY_UNDONE,
  ACTIVITY_NOT_UNDOABLE,
  type TActivityEntry,
  type TActivityList,
  type ZActivityExportQuery,
  type ZActivityFilters,
  type ZActivityListQuery,
} from '@cc/contract';
import type { z } from 'zod';
import { withTx } from '../../db/index.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, conflict, forbidden, notFound } from '../../platform/errors.ts';
import { type ActivityVia, recordActivity } from './activity.ledger.ts';
import { csvLine, EXPORT_COLUMNS, parse, presentEntry } from './activity.presenter.ts';
import * as repo from './activity.repository.ts';
import type { ActorLookup, UndoHandlers } from './activity.undo.ts';

const ENTRY_NOT_FOUND = 'Activity entry not found';
const EXPORT_BATCH = 500;
const isAdmin = (u: AuthUser) => u.user_level === 'admin';

/** A date or time of a filter as the stored form (ISO-8601 UTC); a bare `until` date takes in its whole day. */
function bound(name: 'since' | 'until', value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const bareDate = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const t = Date.parse(bareDate ? `${value}T00:00:00Z` : value);
  if (!Number.isFinite(t)) {
    throw new AppError(422, [{ loc: ['query', name], msg: 'Not a valid date or time', type: 'value_error' }]);
  }
  return new Date(name === 'until' && bareDate ? t + 86_400_000 : t).toISOString();
}

/** The filters as a query: a platform admin sees everyone's entries, everyone else only their own. */
function scoped(caller: AuthUser, f: z.output<typeof ZActivityFilters>): Omit<repo.ActivityQuery, 'limit'> {
  if (!isAdmin(caller) && f.actor !== undefined && f.actor !== caller.id) {
    throw forbidden("Only a platform administrator can see other people's activity.");
  }
  return {
    actor: isAdmin(caller) ? (f.actor ?? null) : caller.id,
    entityType: f.entity_type,
    action: f.action,
    source: f.source,
    since: bound('since', f.since),
    until: bound('until', f.until),
  };
}

/** GET /api/activity/: newest first, a page at a time; `next_cursor` continues with older entries. */
export async function listActivity(
  ctx: AppContext,
  caller: AuthUser,
  q: z.output<typeof ZActivityListQuery>,
): Promise<TActivityList> {
  const rows = await repo.listEntries(ctx.db, { ...scoped(caller, q), before: q.cursor, limit: q.limit + 1 });
  const page = rows.slice(0, q.limit);
  const me = { id: caller.id, isAdmin: isAdmin(caller) };
  return {
    items: page.map((r) => presentEntry(r, me)),
    next_cursor: rows.length > q.limit ? page[page.length - 1].seq : null,
  };
}

/**
 * GET /api/activity/export (platform admin): every matching entry, newest first, as CSV or JSON lines,
 * produced in batches so the whole ledger is never held in memory.
 */
export function exportActivity(
  ctx: AppContext,
  caller: AuthUser,
  q: z.output<typeof ZActivityExportQuery>,
): AsyncGenerator<string> {
  if (!isAdmin(caller)) throw forbidden('Only a platform administrator can export the activity ledger.');
  // Checked before the first byte: a bad filter is a 422, not a stream cut short.
  const filters = scoped(caller, q);
  return exportLines(ctx, filters, q.format);
}

async function* exportLines(
  ctx: AppContext,
  filters: Omit<repo.ActivityQuery, 'limit'>,
  format: 'csv' | 'jsonl',
): AsyncGenerator<string> {
  const me = { id: '', isAdmin: true };
  if (format === 'csv') yield `${EXPORT_COLUMNS.join(',')}\r\n`;
  let before: number | undefined;
  for (;;) {
    const rows = await repo.listEntries(ctx.db, { ...filters, before, limit: EXPORT_BATCH });
    for (const r of rows) {
      const e = presentEntry(r, me);
      yield format === 'csv' ? csvLine(e) : `${JSON.stringify(omitCallerFields(e))}\n`;
    }
    if (rows.length < EXPORT_BATCH) return;
    before = rows[rows.length - 1].seq;
  }
}

/** `can_undo` is about the caller of the moment, not the record: left out of an export. */
function omitCallerFields(e: TActivityEntry) {
  const { can_undo: _c, ...rest } = e;
  return rest;
}

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string } | null;
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE';
}

const asObject = (v: unknown) => (v && typeof v === 'object' ? (v as Record<string, unknown>) : null);

/**
 * POST /api/activity/{id}/undo: restores the before-state of an undoable AI write and records the undo,
 * in one transaction. Only the entry's actor or a platform admin may (others: 404); an entry undone
 * already, or a record changed since, is a 409 that says why. `undo` holds the handlers the modules
 * registered; `actors` finds the entry's actor (both wired by app.ts: the ledger imports no module).
 */
export async function undoActivity(
  ctx: AppContext,
  caller: AuthUser,
  id: string,
  via: ActivityVia,
  deps: { undo: UndoHandlers; actors: ActorLookup },
): Promise<TActivityEntry> {
  const entry = await repo.findEntry(ctx.db, id);
  if (!entry || (!isAdmin(caller) && entry.actor_user_id !== caller.id)) throw notFound(ENTRY_NOT_FOUND);
  const handler = deps.undo.get(entry.action);
  if (entry.undoable !== 1 || !handler || !entry.entity_id) throw conflict(ACTIVITY_NOT_UNDOABLE);
  if (entry.undone_by) throw conflict(ACTIVITY_ALREADY_UNDONE);
  const actor = entry.actor_user_id ? await deps.actors(ctx, entry.actor_user_id) : undefined;
  if (!actor) throw conflict('The account that made this change no longer exists: it cannot be undone.');
  const entityId = entry.entity_id;
  let undoId: string;
  try {
    undoId = await withTx(ctx.db, async (trx) => {
      // Checked again under the entry's lock: an undo that landed meanwhile makes this one a 409.
      if (await repo.undoneInTransaction(trx, entry.id, ctx.dialect === 'postgres')) {
        throw conflict(ACTIVITY_ALREADY_UNDONE);
      }
      const outcome = await handler(
        { ...ctx, db: trx },
        { entityId, before: asObject(parse(entry.before)), after: asObject(parse(entry.after)), actor },
      );
      return recordActivity(trx, {
        actorUserId: caller.id,
        via,
        action: 'activity.undone',
        entityType: entry.entity_type,
        entityId,
        summary: outcome.summary,
        before: outcome.before,
        after: outcome.after,
        undoOf: entry.id,
      });
    });
  } catch (err) {
    // Two undos at once: the ledger's unique undo_of lets one land.
    if (isUniqueViolation(err)) throw conflict(ACTIVITY_ALREADY_UNDONE);
    throw err;
  }
  const recorded = await repo.findEntry(ctx.db, undoId);
  if (!recorded) throw notFound(ENTRY_NOT_FOUND);
  return presentEntry(recorded, { id: caller.id, isAdmin: isAdmin(caller) });
}
