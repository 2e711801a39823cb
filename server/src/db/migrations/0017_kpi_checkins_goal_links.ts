import type { Kysely } from 'kysely';

// Issue 20 section 1: the history of every KPI value (one check-in per KPI per date; a second one that
// day replaces it) and the optional link from a task to the strategic goal it serves.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('kpi_checkins')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kpi_id', 'text', (c) => c.notNull().references('goal_kpis.id').onDelete('cascade'))
    .addColumn('value', 'double precision', (c) => c.notNull())
    /** YYYY-MM-DD */
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    // The author; kept as history when their account goes.
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // One per KPI per date; also the index of a KPI's trend (by date) and of "since a date" reads.
  await db.schema
    .createIndex('kpi_checkins_kpi_date_idx')
    .on('kpi_checkins')
    .columns(['kpi_id', 'date'])
    .unique()
    .execute();

  await db.schema
    .alterTable('tasks')
    .addColumn('goal_id', 'text', (c) => c.references('strategic_goals.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('tasks_goal_idx').on('tasks').columns(['goal_id', 'status']).execute();

  // Issue 20 section 3: the records an assistant answer used, as JSON `[{type, id, title, url}]`
  // (null: written before citations existed).
  await db.schema.alterTable('conversation_messages').addColumn('citations', 'text').execute();
  await db.schema.alterTable('strategic_advice').addColumn('citations', 'text').execute();
  await db.schema.alterTable('comms_suggestions').addColumn('citations', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('conversation_messages').dropColumn('citations').execute();
  await db.schema.alterTable('strategic_advice').dropColumn('citations').execute();
  await db.schema.alterTable('comms_suggestions').dropColumn('citations').execute();
  await db.schema.dropIndex('tasks_goal_idx').execute();
  await db.schema.alterTable('tasks').dropColumn('goal_id').execute();
  await db.schema.dropTable('kpi_checkins').execute();
}
