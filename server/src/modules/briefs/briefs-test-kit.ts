import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { TestApp, TestUser } from '../../../test/helpers.ts';
import { openDraftItem } from '../comms/comms.inbox.ts';
import { storeMessage } from '../comms/comms.service.ts';
import { inboxPortOf, runInputSourceId } from '../runs/engine/engine-registry.ts';
import { openSuggestionItem } from '../task-suggestions/task-suggestions.inbox.ts';

/**
 * Seeding for the brief's tests: rows written with chosen times (a week of check-ins, tasks, runs and
 * messages before a fixed "now"), so the expected brief can be written out in full.
 */

export async function seedGoal(
  t: TestApp,
  g: { owner: TestUser; org: string | null; title: string; due: string; created: string },
  kpi: { name: string; current: number; target: number; unit: string | null },
) {
  const id = randomUUID();
  const kpiId = randomUUID();
  await t.ctx.db
    .insertInto('strategic_goals')
    .values({
      id,
      user_id: g.owner.id,
      organization_id: g.org,
      title: g.title,
      description: null,
      due_date: g.due,
      status: 'in_progress',
      created_at: g.created,
      updated_at: g.created,
    })
    .execute();
  await t.ctx.db
    .insertInto('goal_kpis')
    .values({
      id: kpiId,
      goal_id: id,
      position: 0,
      name: kpi.name,
      current_value: kpi.current,
      target_value: kpi.target,
      unit: kpi.unit,
      direction: 'higher_is_better',
    })
    .execute();
  return { id, kpiId, title: g.title };
}

export async function seedCheckin(t: TestApp, kpiId: string, value: number, date: string, createdAt: string) {
  await t.ctx.db
    .insertInto('kpi_checkins')
    .values({
      id: randomUUID(),
      kpi_id: kpiId,
      value,
      date,
      note: null,
      user_id: null,
      created_at: createdAt,
    })
    .execute();
}

export async function seedTask(
  t: TestApp,
  o: {
    title: string;
    by: TestUser;
    assignee?: TestUser | null;
    priority: string;
    status?: string;
    due?: string | null;
    goalId?: string | null;
    updated?: string;
  },
) {
  const id = randomUUID();
  const at = o.updated ?? '2026-06-01T00:00:00.000Z';
  await t.ctx.db
    .insertInto('tasks')
    .values({
      id,
      title: o.title,
      description: null,
      priority: o.priority,
      status: o.status ?? 'To Do',
      due_date: o.due ?? null,
      notes: null,
      assigned_to_user_id: o.assignee?.id ?? null,
      created_by: o.by.id,
      created_at: '2026-05-01T00:00:00.000Z',
      updated_at: at,
      goal_id: o.goalId ?? null,
    })
    .execute();
  return { id, title: o.title };
}

export async function seedRun(
  t: TestApp,
  o: {
    user: TestUser;
    name: string;
    status: string;
    prompt?: string;
    inputs?: Record<string, unknown>;
    created: string;
    finished?: string;
  },
) {
  const id = randomUUID();
  await t.ctx.db
    .insertInto('runs')
    .values({
      id,
      kind: 'flow',
      user_id: o.user.id,
      definition_id: randomUUID(),
      definition_name: o.name,
      definition: '{}',
      conversation_id: null,
      status: o.status,
      inputs: JSON.stringify(o.inputs ?? {}),
      current_step: 0,
      outputs: '[]',
      human_prompt: o.prompt ?? null,
      human_answer: null,
      result: null,
      error: null,
      lease_owner: null,
      lease_expires_at: null,
      attempts: 0,
      created_at: o.created,
      updated_at: o.finished ?? o.created,
      finished_at: o.finished ?? null,
    })
    .execute();
  return { id, title: o.name };
}

/**
 * A pending suggestion and its inbox item, opened by the suggestions' own code (as generating does);
 * the item is dated `at` so the inbox order is known.
 */
export async function seedSuggestion(
  t: TestApp,
  user: TestUser,
  title: string,
  at = '2026-06-14T00:00:00.000Z',
) {
  const id = randomUUID();
  const row = await t.ctx.db
    .insertInto('task_suggestions')
    .values({
      id,
      user_id: user.id,
      title,
      description: null,
      assignee_user_id: null,
      priority: 'Medium',
      due_date: null,
      llm_context: null,
      rejection_reason: null,
      status: 'pending',
      source_type: null,
      source_id: null,
      source_key: null,
      title_key: title.toLowerCase(),
      organization_id: null,
      task_id: null,
      created_at: at,
      updated_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await openSuggestionItem(t.ctx, row);
  return { id, title, itemId: await dateInboxItem(t, 'task_suggestion', id, at) };
}

/** Dates the source's pending inbox item (items are opened "now"); returns its id. */
async function dateInboxItem(t: TestApp, kind: string, sourceId: string, at: string): Promise<string> {
  const row = await t.ctx.db
    .updateTable('inbox_items')
    .set({ created_at: at })
    .where('kind', '=', kind)
    .where('source_id', '=', sourceId)
    .where('status', '=', 'pending')
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The inbox item of a run waiting for its owner's answer, opened through the engine's inbox port. */
export async function seedRunInputItem(
  t: TestApp,
  run: { id: string; title: string; user: TestUser; prompt: string },
  at: string,
): Promise<string> {
  const sourceId = runInputSourceId(run.id, 0);
  await inboxPortOf(t.ctx).open({
    kind: 'run_input',
    sourceId,
    runId: run.id,
    assigneeUserId: run.user.id,
    title: `${run.title}: waiting for your input`,
    summary: run.prompt,
    sourceUrl: '/app/run',
    details: {
      run_id: run.id,
      run_kind: 'flow',
      step: 'Ask',
      prompt: run.prompt,
      answer: '',
      based_on: null,
    },
  });
  return dateInboxItem(t, 'run_input', sourceId, at);
}

/** The inbox item of a run's tool call waiting for approval, opened through the engine's inbox port. */
export async function seedToolApprovalItem(
  t: TestApp,
  run: { id: string; title: string; user: TestUser },
  call: { tool: string; method: string; url: string },
  at: string,
): Promise<string> {
  const approvalId = randomUUID();
  await inboxPortOf(t.ctx).open({
    kind: 'tool_approval',
    sourceId: approvalId,
    runId: run.id,
    assigneeUserId: run.user.id,
    title: `Approve a call of ${call.tool}`,
    summary: `${call.method} ${call.url} (run “${run.title}”)`,
    sourceUrl: `/app/runs/flow/${run.id}`,
    details: { approval_id: approvalId, ...call, headers: {}, body: null },
  });
  return dateInboxItem(t, 'tool_approval', approvalId, at);
}

/** An AI-drafted reply waiting for `user`'s review, opened by the comms module's own code. */
export async function seedDraftItem(
  t: TestApp,
  o: { threadId: string; user: TestUser; text: string; replyTo: string },
  at: string,
): Promise<string> {
  await openDraftItem(t.ctx, {
    threadId: o.threadId,
    userId: o.user.id,
    text: o.text,
    basedOn: null,
    replyTo: o.replyTo,
  });
  return dateInboxItem(t, 'comms_draft', `${o.threadId}:${o.user.id}`, at);
}

/** A thread (through the API) between `a` and `b`. */
export async function seedThread(t: TestApp, a: TestUser, b: TestUser): Promise<string> {
  const res = await t.req({
    method: 'POST',
    url: '/api/comms/threads',
    token: a.token,
    body: { participant_ids: [b.id] },
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json().id as string;
}

/** A message sent at `at` (stored through the comms service, then dated). */
export async function seedMessage(
  t: TestApp,
  threadId: string,
  from: TestUser,
  name: string,
  text: string,
  at: string,
) {
  const m = await storeMessage(t.ctx, { threadId, sender: { id: from.id, name }, text });
  await t.ctx.db.updateTable('comms_messages').set({ created_at: at }).where('id', '=', m.id).execute();
}
