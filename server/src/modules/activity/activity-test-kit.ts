import { randomUUID } from 'node:crypto';
import type { TActivityEntry, TTask } from '@cc/contract';
import { expect } from 'vitest';
import { nowIso } from '../../db/index.ts';
import type { TestApp, TestUser } from '../../../test/helpers.ts';

/** A pending task suggestion for `ceo`, as Generate would leave it (the AI's part is tested elsewhere). */
export async function pendingSuggestion(
  t: TestApp,
  ceo: TestUser,
  title = `AI task ${randomUUID().slice(0, 6)}`,
) {
  const id = randomUUID();
  const now = nowIso();
  await t.ctx.db
    .insertInto('task_suggestions')
    .values({
      id,
      user_id: ceo.id,
      title,
      description: 'Proposed by the AI',
      assignee_user_id: null,
      priority: 'High',
      due_date: null,
      llm_context: 'A lagging KPI',
      rejection_reason: null,
      status: 'pending',
      source_type: null,
      source_id: null,
      source_key: null,
      title_key: title.toLowerCase(),
      organization_id: null,
      task_id: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return { id, title };
}

/** Accepts a fresh suggestion: the AI-created task. */
export async function aiCreatedTask(t: TestApp, ceo: TestUser, title?: string): Promise<TTask> {
  const s = await pendingSuggestion(t, ceo, title);
  const res = await t.req({
    method: 'POST',
    url: '/api/task-suggestions/approve',
    token: ceo.token,
    body: [{ id: s.id, title: s.title }],
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().tasks[0];
}

/** The ledger's rows for `action` (straight from the table: what was written, whoever may read it). */
export function rowsOf(t: TestApp, action: string) {
  return t.ctx.db.selectFrom('activity').selectAll().where('action', '=', action).orderBy('seq').execute();
}

export async function listActivity(
  t: TestApp,
  u: TestUser,
  query = '',
): Promise<{ items: TActivityEntry[]; next_cursor: number | null }> {
  const res = await t.req({ method: 'GET', url: `/api/activity/${query}`, token: u.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Runs `fn` and returns the entries of `action` it added (straight from the table). */
export async function entriesAdded(t: TestApp, action: string, fn: () => Promise<unknown>) {
  const before = (await rowsOf(t, action)).length;
  await fn();
  return (await rowsOf(t, action)).slice(before);
}

/** Runs `fn`, expects it added exactly one entry of `action`, and returns it. */
export async function oneEntry(t: TestApp, action: string, fn: () => Promise<unknown>) {
  const rows = await entriesAdded(t, action, fn);
  expect(rows, `${action}: ${JSON.stringify(rows)}`).toHaveLength(1);
  return rows[0];
}
