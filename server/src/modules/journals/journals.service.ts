import { randomUUID } from 'node:crypto';
import {
  type TJournal,
  type ZCreateJournalRequest,
  type ZJournalListQuery,
  type ZUpdateJournalRequest,
  todayUtc,
} from '@cc/contract';
import type { z } from 'zod';
import { nowIso } from '../../db/index.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import { canSeeNote } from './journals.policy.ts';
import { presentJournal } from './journals.presenter.ts';
import { ANY_VERSION, nextVersion, type Precondition } from '../../platform/concurrency.ts';
import * as repo from './journals.repository.ts';

/** Notes are private (journals.policy.ts): anyone but the owner gets 404. */
async function ownEntry(ctx: AppContext, caller: AuthUser, id: string) {
  const row = await repo.findJournal(ctx.db, id);
  if (!row || !canSeeNote(row, caller)) throw notFound('Note entry not found');
  return row;
}

export async function listJournals(
  ctx: AppContext,
  caller: AuthUser,
  q: z.output<typeof ZJournalListQuery>,
): Promise<TJournal[]> {
  return (await repo.listJournals(ctx.db, caller.id, q)).map(presentJournal);
}

export async function getJournal(ctx: AppContext, caller: AuthUser, id: string): Promise<TJournal> {
  return presentJournal(await ownEntry(ctx, caller, id));
}

/** user_id in the body is ignored: the owner is the caller. entry_date defaults to today (UTC). */
export async function createJournal(
  ctx: AppContext,
  caller: AuthUser,
  body: z.output<typeof ZCreateJournalRequest>,
): Promise<TJournal> {
  const now = nowIso();
  const row = {
    id: randomUUID(),
    user_id: caller.id,
    content: body.content,
    entry_date: body.entry_date ?? todayUtc(),
    created_at: now,
    updated_at: now,
  };
  await repo.insertJournal(ctx.db, row);
  return presentJournal(row);
}

export async function updateJournal(
  ctx: AppContext,
  caller: AuthUser,
  id: string,
  body: z.output<typeof ZUpdateJournalRequest>,
  pre: Precondition = ANY_VERSION,
): Promise<TJournal> {
  const row = await ownEntry(ctx, caller, id);
  pre.check(row.updated_at);
  await repo.updateJournal(ctx.db, id, {
    content: body.content,
    ...(body.entry_date ? { entry_date: body.entry_date } : {}),
    updated_at: nextVersion(row.updated_at),
  });
  return getJournal(ctx, caller, id);
}

export async function deleteJournal(ctx: AppContext, caller: AuthUser, id: string): Promise<void> {
  await ownEntry(ctx, caller, id);
  await repo.deleteJournal(ctx.db, id);
}

/** The user's latest notes (id, content, entry date), newest first, for the AI workspace snapshot. */
export function latestNotesOf(ctx: AppContext, userId: string, limit: number) {
  return repo.latestNotes(ctx.db, userId, limit);
}

/** Of these notes, the ids the viewer may see (a citation of a note is shown only to them). */
export async function visibleNoteIds(ctx: AppContext, viewer: { id: string }, ids: readonly string[]) {
  return new Set(await repo.visibleNoteIds(ctx.db, viewer, ids));
}
