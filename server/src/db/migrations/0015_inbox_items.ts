import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';

// The approvals inbox (issue 19 section 2): one row per thing waiting for a person. Sources open a
// row when something starts waiting and resolve it when it is settled anywhere. (kind, source_id) is
// unique, so a source opens and resolves by its own id; (assignee_user_id, status, created_at) makes
// the count and the oldest-first page one index range each.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('inbox_items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('source_type', 'text', (c) => c.notNull())
    .addColumn('source_id', 'text', (c) => c.notNull())
    .addColumn('source_url', 'text', (c) => c.notNull())
    .addColumn('assignee_user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('organization_id', 'text', (c) => c.references('organizations.id').onDelete('set null'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull().defaultTo(''))
    // JSON: the editable fields and what the AI based it on.
    .addColumn('details', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('resolved_at', 'text')
    .addColumn('resolved_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('reason', 'text')
    .addUniqueConstraint('inbox_items_kind_source_uq', ['kind', 'source_id'])
    .execute();
  await db.schema
    .createIndex('inbox_items_assignee_status_idx')
    .on('inbox_items')
    .columns(['assignee_user_id', 'status', 'created_at'])
    .execute();
  await backfill(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('inbox_items').ifExists().execute();
}

const clip = (s: string | null | undefined, n: number) => (s ?? '').slice(0, n);

/**
 * What is already waiting when the table is made (the same shapes the sources open at run time:
 * task-suggestions.inbox.ts, runs.inbox.ts, comms.inbox.ts), so nothing waiting is missing.
 */
export async function backfill(db: Kysely<any>): Promise<void> {
  const rows: Record<string, unknown>[] = [];
  const suggestions = await db
    .selectFrom('task_suggestions')
    .selectAll()
    .where('status', '=', 'pending')
    .execute();
  for (const s of suggestions) {
    rows.push({
      kind: 'task_suggestion',
      source_type: 'task_suggestion',
      source_id: s.id,
      source_url: '/app/my-tasks',
      assignee_user_id: s.user_id,
      organization_id: s.organization_id,
      title: s.title,
      summary: clip(s.description, 500),
      details: JSON.stringify({
        title: s.title,
        description: s.description,
        priority: s.priority,
        due_date: s.due_date,
        assignee_user_id: s.assignee_user_id,
        based_on: s.llm_context,
        origin: s.source_type && s.source_id ? { type: s.source_type, id: s.source_id } : null,
      }),
      created_at: s.created_at,
    });
  }
  const runs = await db
    .selectFrom('runs')
    .selectAll()
    .where('status', 'in', ['awaiting_human_input', 'paused'])
    .where('human_prompt', 'is not', null)
    .execute();
  for (const r of runs) {
    const outputs = JSON.parse(r.outputs || '[]') as { output?: string }[];
    rows.push({
      kind: 'run_input',
      source_type: r.kind === 'crew' ? 'crew_run' : 'flow_run',
      source_id: `${r.id}:${r.current_step}`,
      source_url: r.conversation_id ? `/app/conversations/${r.conversation_id}` : '/app/run',
      assignee_user_id: r.user_id,
      organization_id: null,
      title: `${r.definition_name}: waiting for your input`,
      summary: clip(r.human_prompt, 500),
      details: JSON.stringify({
        run_id: r.id,
        run_kind: r.kind,
        prompt: r.human_prompt,
        answer: '',
        based_on: clip(outputs.at(-1)?.output, 2000) || null,
      }),
      created_at: r.updated_at,
    });
  }
  const drafts = await db.selectFrom('comms_suggestions').selectAll().where('status', '=', 'ready').execute();
  for (const d of drafts) {
    rows.push({
      kind: 'comms_draft',
      source_type: 'comms_thread',
      source_id: `${d.thread_id}:${d.user_id}`,
      source_url: `/app/comms?thread=${encodeURIComponent(d.thread_id)}`,
      assignee_user_id: d.user_id,
      organization_id: null,
      title: 'Suggested reply',
      summary: clip(d.text, 500),
      details: JSON.stringify({ text: d.text, based_on: d.context, thread_id: d.thread_id }),
      created_at: d.created_at,
    });
  }
  for (const row of rows) {
    await db
      .insertInto('inbox_items')
      .values({ id: randomUUID(), status: 'pending', ...row })
      .execute();
  }
}
