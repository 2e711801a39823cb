import { randomUUID } from 'node:crypto';
import {
  MAX_NEW_SUGGESTIONS,
  MAX_PENDING_SUGGESTIONS,
  NO_NEW_SUGGESTIONS,
  SUGGESTION_NOT_PENDING,
  suggestionTitleKey,
  TASK_SUGGESTIONS_CEO_ONLY,
  type TApproveSuggestionsResponse,
  type TGenerateSuggestionsResponse,
  type TModelSuggestion,
  type TTask,
  type TTaskSuggestion,
  ZCreateTaskRequest,
  ZModelSuggestion,
  type ZApproveSuggestionsRequest,
  type ZRejectSuggestionRequest,
} from '@cc/contract';
import { generateText, type JSONValue } from 'ai';
import type { z } from 'zod';
import { loadWorkspaceSnapshot, type WorkspaceSnapshot } from '../../ai/context/workspace-snapshot.ts';
import { resolveModel } from '../../ai/models.ts';
import {
  suggestionCandidates,
  type TaskSuggestionsData,
  taskSuggestionsHandler,
} from '../../ai/offline/handlers/task-suggestions.ts';
import { nowIso, withTx } from '../../db/index.ts';
import type { TaskSuggestionsTable } from '../../db/types.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { ownedBy } from '../../platform/access.ts';
import { conflict, forbidden } from '../../platform/errors.ts';
import { recordActivity } from '../activity/activity.ledger.ts';
import { membershipLevelsOf } from '../organizations/memberships.service.ts';
import type { InboxHandler, InboxSources } from '../inbox/inbox.service.ts';
import {
  approvedFromEdits,
  openSuggestionItem,
  resolveSuggestionItem,
  suggestionOwner,
} from './task-suggestions.inbox.ts';
import { goalCitations } from '../goals/goals.service.ts';
import { createTask, openTaskTitlesFor, taskCitations } from '../tasks/tasks.service.ts';
import { loadViewer } from '../../platform/viewer.ts';
import { presentSuggestion } from './task-suggestions.presenter.ts';
import * as repo from './task-suggestions.repository.ts';

/** Open tasks read per visibility branch when checking for duplicates. */
const OPEN_TASK_TITLES_LIMIT = 500;

const SYSTEM = [
  'You propose follow-up tasks for an executive. Answer with JSON only, no prose:',
  '{"suggestions":[{"title","description","assignee_user_id","priority":"Low|Medium|High|Urgent",',
  '"due_date":"YYYY-MM-DD","llm_context":"why this task, naming the KPI, goal or task","source_type":"kpi|goal|task","source_id"}]}.',
  'Suggest tasks only for the lagging KPIs, at-risk goals (say why from their risk reasons), overdue goals and unassigned tasks of the snapshot, at most `max`;',
  'never a source in exclude_source_keys ("<source_type>:<source_id>") or a title in exclude_title_keys.',
].join(' ');

function assertCeo(caller: AuthUser): void {
  if (caller.user_level !== 'ceo') throw forbidden(TASK_SUGGESTIONS_CEO_ONLY);
}

const sourceKey = (s: { source_type?: string | null; source_id?: string | null }) =>
  s.source_type && s.source_id ? `${s.source_type}:${s.source_id}` : null;

/** The suggestions in a model's JSON answer (fenced or bare); invalid items are dropped; null if no JSON. */
export function parseModelSuggestions(text: string): TModelSuggestion[] | null {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end < start) return null;
  let json: unknown;
  try {
    json = JSON.parse(text.slice(start, end + 1));
  } catch {
    return null;
  }
  const list = (json as { suggestions?: unknown })?.suggestions;
  if (!Array.isArray(list)) return null;
  return list.flatMap((item) => {
    const r = ZModelSuggestion.safeParse(item);
    return r.success ? [r.data] : [];
  });
}

/**
 * The suggestions in their API shape, each citing the record it came from when the reader may still
 * see it (the goal and task policies decide; a record gone or hidden since is not cited).
 */
async function presentAll(ctx: AppContext, caller: AuthUser, rows: TaskSuggestionsTable[]) {
  const viewer = await loadViewer(ctx, caller);
  const ids = (type: string) => [
    ...new Set(rows.filter((r) => r.source_type === type && r.source_id).map((r) => r.source_id as string)),
  ];
  const [goals, tasks] = await Promise.all([
    goalCitations(ctx, viewer, { goalIds: ids('goal'), kpiIds: ids('kpi') }),
    taskCitations(ctx, viewer, ids('task')),
  ]);
  const cited = new Map([...goals, ...[...tasks].map(([id, c]) => [`task:${id}`, c] as const)]);
  return rows.map((r) => presentSuggestion(r, cited));
}

export async function listSuggestions(ctx: AppContext, caller: AuthUser): Promise<TTaskSuggestion[]> {
  assertCeo(caller);
  return presentAll(ctx, caller, await repo.listPending(ctx.db, caller.id, MAX_PENDING_SUGGESTIONS));
}

/** What the model is told to leave out: earlier suggestions and open tasks matching the candidates. */
async function exclusions(ctx: AppContext, caller: AuthUser, snapshot: WorkspaceSnapshot, orgIds: string[]) {
  const candidates = suggestionCandidates(snapshot);
  const sourceKeys = candidates.flatMap((c) => sourceKey(c) ?? []);
  const titleKeys = candidates.map((c) => suggestionTitleKey(c.title));
  const [earlier, openTitles] = await Promise.all([
    repo.existingKeys(ctx.db, caller.id, sourceKeys, titleKeys),
    openTaskTitlesFor(ctx, { id: caller.id, orgIds }, OPEN_TASK_TITLES_LIMIT),
  ]);
  const titles = new Set([...earlier.titles, ...openTitles.map(suggestionTitleKey)]);
  // The prompt only needs the keys that collide with a candidate; the full set filters the answer.
  const candidateTitles = new Set(titleKeys);
  return {
    sources: earlier.sources,
    titles,
    promptTitles: [...titles].filter((k) => candidateTitles.has(k)),
  };
}

/**
 * POST /api/task-suggestions/generate: new suggestions from lagging KPIs, overdue goals and unassigned
 * work (the model, or the offline handler `task-suggestions`), never repeating an earlier suggestion
 * or an open task. Each carries llm_context and the record it came from.
 */
export async function generateSuggestions(
  ctx: AppContext,
  caller: AuthUser,
  opts: { signal?: AbortSignal } = {},
): Promise<TGenerateSuggestionsResponse> {
  assertCeo(caller);
  const levels = await membershipLevelsOf(ctx, caller.id);
  const orgIds = [...levels.keys()];
  const snapshot = await loadWorkspaceSnapshot(ctx, caller.id);
  const ex = await exclusions(ctx, caller, snapshot, orgIds);
  const data: TaskSuggestionsData = {
    snapshot,
    exclude_source_keys: [...ex.sources],
    exclude_title_keys: ex.promptTitles,
    max: MAX_NEW_SUGGESTIONS,
  };
  const { model } = resolveModel(ctx, null, {
    userId: caller.id,
    organizationId: caller.organization_id,
    feature: 'task_suggestions',
  });
  const { text } = await generateText({
    model,
    system: SYSTEM,
    prompt: JSON.stringify(data),
    abortSignal: opts.signal,
    maxRetries: 2,
    providerOptions: { offline: { task: 'task-suggestions', data: data as unknown as JSONValue } },
  });
  // A model that answers without usable JSON gets the deterministic suggestions instead.
  const proposed =
    parseModelSuggestions(text) ??
    parseModelSuggestions(taskSuggestionsHandler({ data } as Parameters<typeof taskSuggestionsHandler>[0])) ??
    [];

  // Ground what the model proposed: known sources only, assignees the caller may assign, no repeats.
  const kpis = new Map(snapshot.lagging_kpis.map((k) => [k.id, k]));
  const goals = new Map([...snapshot.at_risk_goals, ...snapshot.overdue_goals].map((g) => [g.id, g]));
  const tasks = new Map(snapshot.unassigned_tasks.map((t) => [t.id, t]));
  const assignable = async (id: string | null | undefined) => {
    if (!id) return null;
    if (id === caller.id) return id;
    const theirs = await membershipLevelsOf(ctx, id);
    return orgIds.some((o) => theirs.has(o)) ? id : null;
  };
  const now = nowIso();
  const rows: TaskSuggestionsTable[] = [];
  const seenTitles = new Set(ex.titles);
  const seenSources = new Set(ex.sources);
  for (const s of proposed) {
    if (rows.length >= MAX_NEW_SUGGESTIONS) break;
    const known =
      (s.source_type === 'kpi' && s.source_id && kpis.get(s.source_id)) ||
      (s.source_type === 'goal' && s.source_id && goals.get(s.source_id)) ||
      (s.source_type === 'task' && s.source_id && tasks.has(s.source_id));
    const key = known ? sourceKey(s) : null;
    const titleKey = suggestionTitleKey(s.title);
    if (!titleKey || seenTitles.has(titleKey) || (key && seenSources.has(key))) continue;
    seenTitles.add(titleKey);
    if (key) seenSources.add(key);
    const org =
      s.source_type === 'kpi' && s.source_id
        ? kpis.get(s.source_id)?.organization_id
        : s.source_type === 'goal' && s.source_id
          ? goals.get(s.source_id)?.organization_id
          : null;
    rows.push({
      id: randomUUID(),
      user_id: caller.id,
      title: s.title,
      description: s.description?.trim() || null,
      assignee_user_id: await assignable(s.assignee_user_id),
      priority: s.priority,
      due_date: s.due_date ?? null,
      llm_context: s.llm_context?.trim() || null,
      rejection_reason: null,
      status: 'pending',
      source_type: key ? (s.source_type ?? null) : null,
      source_id: key ? (s.source_id ?? null) : null,
      source_key: key,
      title_key: titleKey,
      organization_id: org && levels.has(org) ? org : null,
      task_id: null,
      created_at: now,
      updated_at: now,
    });
  }
  const inserted = new Set(await withTx(ctx.db, (trx) => repo.insertSuggestions(trx, rows)));
  const fresh = rows.filter((r) => inserted.has(r.id));
  // Each new suggestion waits in the ceo's approvals inbox until it is accepted or dismissed anywhere.
  for (const r of fresh) await openSuggestionItem(ctx, r);
  const added = await presentAll(ctx, caller, fresh);
  const n = added.length;
  return {
    suggestions: added,
    message: n === 0 ? NO_NEW_SUGGESTIONS : `${n} new suggestion${n === 1 ? '' : 's'}`,
  };
}

async function pendingOf(ctx: AppContext, caller: AuthUser, id: string): Promise<TaskSuggestionsTable> {
  const row = ownedBy(await repo.findSuggestion(ctx.db, id), caller.id, 'Suggestion not found');
  if (row.status !== 'pending') throw conflict(SUGGESTION_NOT_PENDING);
  return row;
}

/**
 * POST /api/task-suggestions/approve: each edited suggestion becomes a task (through the tasks
 * service, so its assignment and sharing rules hold), all in one transaction: one refusal creates none.
 */
export async function approveSuggestions(
  ctx: AppContext,
  caller: AuthUser,
  items: z.output<typeof ZApproveSuggestionsRequest>,
): Promise<TApproveSuggestionsResponse> {
  assertCeo(caller);
  return approveOwnSuggestions(ctx, caller, items);
}

/**
 * Accepting the caller's own pending suggestions. The suggestions screen is a ceo's (the route checks
 * that); from the approvals inbox anyone may accept what was proposed to them (an assistant's
 * `propose_task` over MCP proposes to whoever holds the key).
 */
async function approveOwnSuggestions(
  ctx: AppContext,
  caller: AuthUser,
  items: z.output<typeof ZApproveSuggestionsRequest>,
): Promise<TApproveSuggestionsResponse> {
  const created = await withTx(ctx.db, async (trx) => {
    const tctx: AppContext = { ...ctx, db: trx };
    const out: TTask[] = [];
    for (const item of items) {
      const row = await pendingOf(tctx, caller, item.id);
      const assignee = item.assignee_user_id !== undefined ? item.assignee_user_id : row.assignee_user_id;
      const task = await createTask(
        tctx,
        caller,
        ZCreateTaskRequest.parse({
          title: item.title,
          description: item.description !== undefined ? item.description : row.description,
          priority: item.priority ?? row.priority,
          due_date: item.due_date !== undefined ? item.due_date : row.due_date,
          assigned_to_user_id: assignee,
          shared_org_ids: row.organization_id ? [row.organization_id] : [],
        }),
      );
      const settled = await repo.settleSuggestion(trx, row.id, {
        status: 'approved',
        title: task.title,
        description: task.description,
        priority: task.priority,
        due_date: task.due_date,
        assignee_user_id: task.assigned_to_user_id,
        task_id: task.id,
        updated_at: nowIso(),
      });
      if (!settled) throw conflict(SUGGESTION_NOT_PENDING);
      // The AI's write, approved by the person: in the ledger with the task as created (undo deletes it).
      await recordActivity(trx, {
        actorUserId: caller.id,
        via: 'ai',
        action: 'task.created',
        entityType: 'task',
        entityId: task.id,
        summary: `Created the task "${task.title}" from an AI suggestion`,
        before: null,
        after: taskState(task),
        undoable: true,
      });
      out.push(task);
    }
    return out;
  });
  for (const item of items)
    await resolveSuggestionItem(ctx, item.id, { status: 'approved', resolvedBy: caller.id });
  const n = created.length;
  return { tasks: created, message: `${n} task${n === 1 ? '' : 's'} created` };
}

/** The fields of a task a person edits, with its version: what an undo compares with. */
const taskState = (t: TTask) => ({
  title: t.title,
  description: t.description,
  priority: t.priority,
  status: t.status,
  due_date: t.due_date,
  notes: t.notes,
  assigned_to_user_id: t.assigned_to_user_id,
  shared_org_ids: t.shared_org_ids,
  updated_at: t.updated_at,
});

/** POST /api/task-suggestions/{id}/reject: removed from the list, kept (with its reason) so it never returns. */
export async function rejectSuggestion(
  ctx: AppContext,
  caller: AuthUser,
  id: string,
  body: z.output<typeof ZRejectSuggestionRequest>,
): Promise<TTaskSuggestion> {
  assertCeo(caller);
  return rejectOwnSuggestion(ctx, caller, id, body);
}

async function rejectOwnSuggestion(
  ctx: AppContext,
  caller: AuthUser,
  id: string,
  body: z.output<typeof ZRejectSuggestionRequest>,
): Promise<TTaskSuggestion> {
  const row = await pendingOf(ctx, caller, id);
  const set = { status: 'rejected', rejection_reason: body.reason, updated_at: nowIso() };
  if (!(await repo.settleSuggestion(ctx.db, id, set))) throw conflict(SUGGESTION_NOT_PENDING);
  await resolveSuggestionItem(ctx, id, { status: 'rejected', resolvedBy: caller.id, reason: body.reason });
  const [rejected] = await presentAll(ctx, caller, [{ ...row, ...set }]);
  return rejected;
}

/**
 * A task another tool proposes for the caller (the workspace's MCP server): it waits as a pending
 * suggestion for the person to review, never as a task. The same title twice is one suggestion.
 */
export async function proposeTask(
  ctx: AppContext,
  caller: AuthUser,
  input: {
    title: string;
    description?: string | null;
    priority?: string;
    due_date?: string | null;
    context: string;
  },
): Promise<{ suggestion: TTaskSuggestion | null; duplicate: boolean }> {
  const titleKey = suggestionTitleKey(input.title);
  const now = nowIso();
  const row: TaskSuggestionsTable = {
    id: randomUUID(),
    user_id: caller.id,
    title: input.title.trim(),
    description: input.description?.trim() || null,
    assignee_user_id: null,
    priority: input.priority ?? 'Medium',
    due_date: input.due_date ?? null,
    llm_context: input.context,
    rejection_reason: null,
    status: 'pending',
    source_type: null,
    source_id: null,
    source_key: null,
    title_key: titleKey,
    organization_id: null,
    task_id: null,
    created_at: now,
    updated_at: now,
  };
  const inserted = await repo.insertSuggestions(ctx.db, [row]);
  if (inserted.length > 0) await openSuggestionItem(ctx, row);
  return inserted.length > 0
    ? { suggestion: presentSuggestion(row), duplicate: false }
    : { suggestion: null, duplicate: true };
}

/**
 * `task_suggestion` items of the approvals inbox: approve = accept (with the edited fields), reject =
 * dismiss with the reason, both as the suggestion's ceo (the item may have been delegated).
 */
export const taskSuggestionInboxHandler: InboxHandler = {
  async approve(ctx, _actor, id, edits) {
    const { owner, row } = await suggestionOwner(ctx, id);
    await approveOwnSuggestions(ctx, owner, [approvedFromEdits(row, edits)]);
  },
  async reject(ctx, _actor, id, reason) {
    const { owner } = await suggestionOwner(ctx, id);
    await rejectOwnSuggestion(ctx, owner, id, { reason });
  },
};

/** The approvals inbox's `task_suggestion` items are this module's (docs/architecture.md, "Registrations"). */
export function registerTaskSuggestionInboxSources(sources: InboxSources): void {
  sources.register('task_suggestion', taskSuggestionInboxHandler);
}
