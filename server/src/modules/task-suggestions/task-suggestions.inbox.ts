import { ZApprovedSuggestion } from '@cc/contract';
import type { TaskSuggestionsTable } from '../../db/types.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import { type InboxOutcome, openInboxItem, resolveInboxItem } from '../inbox/inbox.service.ts';
import { getUserSummary } from '../users/users.service.ts';
import * as repo from './task-suggestions.repository.ts';

/** A pending suggestion waits in its ceo's inbox; approve there = accept it (with edits), reject = dismiss. */

/** The fields the inbox may edit before accepting (the rest of `details` is read-only). */
const EDITABLE = ['title', 'description', 'priority', 'due_date', 'assignee_user_id'] as const;

export async function openSuggestionItem(ctx: AppContext, s: TaskSuggestionsTable): Promise<void> {
  await openInboxItem(ctx, {
    kind: 'task_suggestion',
    sourceType: 'task_suggestion',
    sourceId: s.id,
    sourceUrl: '/app/my-tasks',
    assigneeUserId: s.user_id,
    organizationId: s.organization_id,
    title: s.title,
    summary: s.description ?? '',
    details: {
      title: s.title,
      description: s.description,
      priority: s.priority,
      due_date: s.due_date,
      assignee_user_id: s.assignee_user_id,
      based_on: s.llm_context,
      origin: s.source_type && s.source_id ? { type: s.source_type, id: s.source_id } : null,
    },
  });
}

export const resolveSuggestionItem = (ctx: AppContext, id: string, outcome: InboxOutcome) =>
  resolveInboxItem(ctx, 'task_suggestion', id, outcome);

/** The suggestion's ceo: the inbox acts as them, whoever the item was delegated to. */
export async function suggestionOwner(
  ctx: AppContext,
  id: string,
): Promise<{ owner: AuthUser; row: TaskSuggestionsTable }> {
  const row = await repo.findSuggestion(ctx.db, id);
  const owner = row && (await getUserSummary(ctx, row.user_id));
  if (!row || !owner) throw notFound('Suggestion not found');
  return { owner, row };
}

/** The inbox's edits as an approved suggestion: only the editable fields, checked like the review dialog. */
export function approvedFromEdits(row: TaskSuggestionsTable, edits: Record<string, unknown>) {
  const picked = Object.fromEntries(EDITABLE.filter((k) => k in edits).map((k) => [k, edits[k]]));
  return ZApprovedSuggestion.parse({ id: row.id, title: row.title, ...picked });
}
