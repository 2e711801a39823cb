import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, conflict } from '../../platform/errors.ts';
import type { Contribution, KindRegistry } from '../../platform/kind-registry.ts';

/** What an undo handler is given: the entry's record, the state it recorded, and who made it. */
export interface UndoRequest {
  entityId: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  /** The entry's actor: the undo acts with their rights (the record is theirs). */
  actor: AuthUser;
}

/** What an undo did, recorded as the undo's own entry. */
export interface UndoOutcome {
  summary: string;
  before: unknown;
  after: unknown;
}

/**
 * Restores the before-state of one kind of write, inside the undo's transaction (`ctx.db`). It throws
 * 409 (see {@link changedSince}) when the record changed since the entry: an undo never overwrites
 * someone's later work.
 */
export type UndoHandler = (ctx: AppContext, req: UndoRequest) => Promise<UndoOutcome>;

/**
 * The undoable actions of one app, by `action` (`task.created`, …): an entry is undoable only if its
 * action has a handler here. The module that owns the record registers its handler (`tasks.undo.ts`,
 * …); `app.ts` lists them, so the ledger imports none of the modules it can undo.
 */
export type UndoHandlers = KindRegistry<UndoHandler>;
export type UndoContribution = Contribution<UndoHandler>;

/** Who an entry's actor is now (the users module's lookup, wired by `app.ts`); undefined once gone. */
export type ActorLookup = (ctx: AppContext, userId: string) => Promise<AuthUser | undefined>;

/**
 * The fields of `recorded` whose current value differs, as a sentence for the 409 detail, or null when
 * nothing changed. Only the fields the entry recorded are compared (`updated_at` is the version, not
 * a field a person changed: named only when nothing else explains the new version).
 */
export function changedSince(
  noun: string,
  recorded: Record<string, unknown> | null,
  current: Record<string, unknown>,
): string | null {
  if (!recorded) return null;
  const fields = Object.keys(recorded).filter(
    (k) => k !== 'updated_at' && k in current && JSON.stringify(recorded[k]) !== JSON.stringify(current[k]),
  );
  if (fields.length) return `The ${noun} was changed since (${fields.join(', ')}): it was not undone.`;
  if ('updated_at' in recorded && recorded.updated_at !== current.updated_at) {
    return `The ${noun} was changed since (a newer version exists): it was not undone.`;
  }
  return null;
}

/** Throws 409 with what changed when the record is not as the entry left it. */
export function assertUnchanged(
  noun: string,
  recorded: Record<string, unknown> | null,
  current: Record<string, unknown>,
): void {
  const changed = changedSince(noun, recorded, current);
  if (changed) throw conflict(changed);
}

/** A record the entry created that is gone: nothing to undo. */
export const goneSince = (noun: string) =>
  conflict(`The ${noun} was deleted since: there is nothing to undo.`);

/** A read that answers 409 "deleted since" when the record is gone (or no longer visible to the actor). */
export async function readOrGone<T>(read: () => Promise<T>, noun: string): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof AppError && err.statusCode === 404) throw goneSince(noun);
    throw err;
  }
}
