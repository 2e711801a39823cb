import { randomUUID } from 'node:crypto';
import type { TaskSuggestionsTable } from '../../src/db/types.ts';
import { openSuggestionItem } from '../../src/modules/task-suggestions/task-suggestions.inbox.ts';
import { everyone, type Row, type World } from './matrix.ts';

/**
 * The approvals inbox: everyone has one (the list, the count and the stream are the caller's own);
 * an item is its assignee's only (tenant A's ceo here, with a task suggestion): anyone else 404.
 */
async function ceoItem(w: World): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  const title = `Inbox matrix ${id.slice(0, 8)}`;
  const row: TaskSuggestionsTable = {
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
    organization_id: w.orgA,
    task_id: null,
    created_at: now,
    updated_at: now,
  };
  await w.t.ctx.db.insertInto('task_suggestions').values(row).execute();
  await openSuggestionItem(w.t.ctx, row);
  const item = await w.t.ctx.db
    .selectFrom('inbox_items')
    .select('id')
    .where('kind', '=', 'task_suggestion')
    .where('source_id', '=', id)
    .executeTakeFirstOrThrow();
  return item.id;
}

const assigneeOnly = (code: number) => ({ ...everyone(404), ceo: code });

export const inboxRows: Row[] = [
  { op: 'GET /api/inbox/', target: () => ({ url: '/api/inbox/' }), expect: everyone(200) },
  { op: 'GET /api/inbox/count', target: () => ({ url: '/api/inbox/count' }), expect: everyone(200) },
  {
    op: 'GET /api/inbox/events',
    target: () => ({ url: '/api/inbox/events' }),
    expect: everyone(200),
    stream: true,
  },
  {
    op: 'POST /api/inbox/{id}/approve',
    target: async (w) => ({ url: `/api/inbox/${await ceoItem(w)}/approve`, body: {} }),
    expect: assigneeOnly(200),
  },
  {
    op: 'POST /api/inbox/{id}/reject',
    target: async (w) => ({ url: `/api/inbox/${await ceoItem(w)}/reject`, body: { reason: 'no' } }),
    expect: assigneeOnly(200),
  },
  {
    op: 'POST /api/inbox/{id}/delegate',
    target: async (w) => ({
      url: `/api/inbox/${await ceoItem(w)}/delegate`,
      body: { user_id: w.users.member.id },
    }),
    expect: assigneeOnly(200),
  },
];
