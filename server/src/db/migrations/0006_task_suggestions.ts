import type { Kysely } from 'kysely';

// AI task suggestions for the ceo (Generate Advice runs are ordinary flow runs of the run engine).
// A suggestion is never made twice: title_key (normalized title) and source_key ("kpi:<id>", …) are
// looked up per user on every generate, whatever the suggestion's status (pending, approved, rejected),
// and unique per user so two generate calls at once cannot both add the same one (NULL keys never clash).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('task_suggestions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('assignee_user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('priority', 'text', (c) => c.notNull().defaultTo('Medium'))
    .addColumn('due_date', 'text')
    .addColumn('llm_context', 'text')
    .addColumn('rejection_reason', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('source_type', 'text')
    .addColumn('source_id', 'text')
    .addColumn('source_key', 'text')
    .addColumn('title_key', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.references('organizations.id').onDelete('set null'))
    .addColumn('task_id', 'text', (c) => c.references('tasks.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('task_suggestions_user_status_idx')
    .on('task_suggestions')
    .columns(['user_id', 'status', 'created_at'])
    .execute();
  await db.schema
    .createIndex('task_suggestions_user_title_idx')
    .unique()
    .on('task_suggestions')
    .columns(['user_id', 'title_key'])
    .execute();
  await db.schema
    .createIndex('task_suggestions_user_source_idx')
    .unique()
    .on('task_suggestions')
    .columns(['user_id', 'source_key'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('task_suggestions').ifExists().execute();
}
