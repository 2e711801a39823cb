import { randomUUID } from 'node:crypto';
import { everyone, type Row, type World } from './matrix.ts';

/**
 * AI task suggestions are for the global level ceo only (everyone else 403, with the reason); a
 * suggestion is the ceo's who got it (tenant A's ceo here): any other ceo finds no such suggestion.
 */
async function pendingSuggestion(w: World): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  const title = `Matrix suggestion ${id.slice(0, 8)}`;
  // Inserted directly: generating needs lagging goals, and a source is never suggested twice.
  await w.t.ctx.db
    .insertInto('task_suggestions')
    .values({
      id,
      user_id: w.users.ceo.id,
      title,
      description: null,
      assignee_user_id: null,
      priority: 'Medium',
      due_date: null,
      llm_context: 'matrix',
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
  return id;
}

const ceosOnly = (code: number, others = code) => ({
  ...everyone(403),
  ceo: code,
  ceoMember: others,
  otherCeo: others,
});

export const taskSuggestionRows: Row[] = [
  {
    op: 'GET /api/task-suggestions',
    target: () => ({ url: '/api/task-suggestions/' }),
    expect: ceosOnly(200),
  },
  {
    op: 'POST /api/task-suggestions/generate',
    target: () => ({ url: '/api/task-suggestions/generate' }),
    expect: ceosOnly(200),
  },
  {
    op: 'POST /api/task-suggestions/approve',
    target: async (w) => ({
      url: '/api/task-suggestions/approve',
      body: [{ id: await pendingSuggestion(w), title: 'Approved' }],
    }),
    expect: ceosOnly(200, 404),
  },
  {
    op: 'POST /api/task-suggestions/{id}/reject',
    target: async (w) => ({
      url: `/api/task-suggestions/${await pendingSuggestion(w)}/reject`,
      body: { reason: 'no' },
    }),
    expect: ceosOnly(200, 404),
  },
];
