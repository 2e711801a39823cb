import type { Kysely } from 'kysely';

// Migrations never import application code: they describe the schema as it was at this step.
// The executive workspace: strategic goals with KPIs, strategic advice, tasks shared with
// organizations, journals (notes) and contacts with past interactions. Every list query has an index
// that serves its filter (owner / organization / share) and its sort.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('strategic_goals')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('organization_id', 'text', (c) => c.references('organizations.id').onDelete('set null'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('due_date', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('new'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('strategic_goals_user_idx')
    .on('strategic_goals')
    .columns(['user_id', 'due_date'])
    .execute();
  await db.schema
    .createIndex('strategic_goals_org_idx')
    .on('strategic_goals')
    .columns(['organization_id', 'due_date'])
    .execute();

  await db.schema
    .createTable('goal_kpis')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('goal_id', 'text', (c) => c.notNull().references('strategic_goals.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('current_value', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('target_value', 'double precision')
    .addColumn('unit', 'text')
    .execute();
  await db.schema
    .createIndex('goal_kpis_goal_idx')
    .on('goal_kpis')
    .columns(['goal_id', 'position'])
    .execute();

  await db.schema
    .createTable('strategic_advice')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('organization_id', 'text', (c) => c.references('organizations.id').onDelete('set null'))
    .addColumn('advice_title', 'text')
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('feedback', 'text')
    .addColumn('crew_run_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('strategic_advice_user_idx')
    .on('strategic_advice')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('strategic_advice_org_idx')
    .on('strategic_advice')
    .columns(['organization_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('tasks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('priority', 'text', (c) => c.notNull().defaultTo('Medium'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('To Do'))
    .addColumn('due_date', 'text')
    .addColumn('notes', 'text')
    .addColumn('assigned_to_user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_by', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('tasks_created_by_idx')
    .on('tasks')
    .columns(['created_by', 'due_date'])
    .execute();
  await db.schema
    .createIndex('tasks_assignee_idx')
    .on('tasks')
    .columns(['assigned_to_user_id', 'due_date'])
    .execute();

  await db.schema
    .createTable('task_shares')
    .addColumn('task_id', 'text', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('organization_id', 'text', (c) =>
      c.notNull().references('organizations.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('task_shares_pk', ['task_id', 'organization_id'])
    .execute();
  await db.schema
    .createIndex('task_shares_org_idx')
    .on('task_shares')
    .columns(['organization_id', 'task_id'])
    .execute();

  await db.schema
    .createTable('journals')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('entry_date', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('journals_user_date_idx')
    .on('journals')
    .columns(['user_id', 'entry_date', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('contacts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('organization_id', 'text', (c) => c.references('organizations.id').onDelete('set null'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('role', 'text')
    .addColumn('avatar_initial', 'text', (c) => c.notNull())
    .addColumn('emails', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('phones', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('notes', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('contacts_user_idx').on('contacts').columns(['user_id', 'name']).execute();

  await db.schema
    .createTable('contact_shares')
    .addColumn('contact_id', 'text', (c) => c.notNull().references('contacts.id').onDelete('cascade'))
    .addColumn('organization_id', 'text', (c) =>
      c.notNull().references('organizations.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('contact_shares_pk', ['contact_id', 'organization_id'])
    .execute();
  await db.schema
    .createIndex('contact_shares_org_idx')
    .on('contact_shares')
    .columns(['organization_id', 'contact_id'])
    .execute();

  await db.schema
    .createTable('contact_interactions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('contact_id', 'text', (c) => c.notNull().references('contacts.id').onDelete('cascade'))
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('notes', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('contact_interactions_contact_idx')
    .on('contact_interactions')
    .columns(['contact_id', 'date'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'contact_interactions',
    'contact_shares',
    'contacts',
    'journals',
    'task_shares',
    'tasks',
    'strategic_advice',
    'goal_kpis',
    'strategic_goals',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
