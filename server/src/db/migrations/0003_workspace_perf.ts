import { type Kysely, sql } from 'kysely';

// Migrations never import application code: they describe the schema as it was at this step.
//
// The first page of a workspace list must not read every visible row (ARCHITECTURE.md section 8).
// A list is visible through several branches (created by me, assigned to me, shared with one of my
// organizations...); each branch gets an index that starts with its equality column and then holds the
// list's sort order, so a branch reads at most skip + limit entries in order and the branches are merged
// (UNION ALL, dedupe, sort, limit). Share tables carry a copy of the sort and filter columns of their
// record (kept in step by the services in the same transaction as every write of the record), because
// an index can only hold columns of its own table. The trailing status/priority columns let the
// default filters be checked inside the index, without reading the row.
export async function up(db: Kysely<any>): Promise<void> {
  // ---- tasks: by due date (none last), then newest created, then id ----
  await db.schema.dropIndex('tasks_created_by_idx').execute();
  await db.schema.dropIndex('tasks_assignee_idx').execute();
  await sql`create index tasks_creator_list_idx on tasks
    (created_by, (due_date is null), due_date, created_at desc, id, status, priority)`.execute(db);
  await sql`create index tasks_assignee_list_idx on tasks
    (assigned_to_user_id, (due_date is null), due_date, created_at desc, id, status, priority)`.execute(db);

  await db.schema.alterTable('task_shares').addColumn('task_due_date', 'text').execute();
  await db.schema.alterTable('task_shares').addColumn('task_created_at', 'text').execute();
  await db.schema.alterTable('task_shares').addColumn('task_status', 'text').execute();
  await db.schema.alterTable('task_shares').addColumn('task_priority', 'text').execute();
  await sql`update task_shares set
    task_due_date = (select t.due_date from tasks t where t.id = task_shares.task_id),
    task_created_at = (select t.created_at from tasks t where t.id = task_shares.task_id),
    task_status = (select t.status from tasks t where t.id = task_shares.task_id),
    task_priority = (select t.priority from tasks t where t.id = task_shares.task_id)`.execute(db);
  await db.schema.dropIndex('task_shares_org_idx').execute();
  await sql`create index task_shares_list_idx on task_shares
    (organization_id, (task_due_date is null), task_due_date, task_created_at desc, task_id, task_status,
     task_priority)`.execute(db);

  // ---- contacts: a directory by lower(name), then id ----
  await db.schema.dropIndex('contacts_user_idx').execute();
  await sql`create index contacts_user_name_idx on contacts (user_id, (lower(name)), id)`.execute(db);
  // lower() of the database itself, so both branches sort by exactly the same key.
  await db.schema.alterTable('contact_shares').addColumn('contact_name_key', 'text').execute();
  await sql`update contact_shares set
    contact_name_key = (select lower(c.name) from contacts c where c.id = contact_shares.contact_id)`.execute(
    db,
  );
  await db.schema.dropIndex('contact_shares_org_idx').execute();
  await db.schema
    .createIndex('contact_shares_list_idx')
    .on('contact_shares')
    .columns(['organization_id', 'contact_name_key', 'contact_id'])
    .execute();

  // ---- strategic goals: by due date, then newest created, then id (the default sort) ----
  await db.schema.dropIndex('strategic_goals_user_idx').execute();
  await db.schema.dropIndex('strategic_goals_org_idx').execute();
  await sql`create index strategic_goals_user_list_idx on strategic_goals
    (user_id, due_date, created_at desc, id, status)`.execute(db);
  await sql`create index strategic_goals_org_list_idx on strategic_goals
    (organization_id, due_date, created_at desc, id, status)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('strategic_goals_org_list_idx').execute();
  await db.schema.dropIndex('strategic_goals_user_list_idx').execute();
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

  await db.schema.dropIndex('contact_shares_list_idx').execute();
  await db.schema.alterTable('contact_shares').dropColumn('contact_name_key').execute();
  await db.schema
    .createIndex('contact_shares_org_idx')
    .on('contact_shares')
    .columns(['organization_id', 'contact_id'])
    .execute();
  await db.schema.dropIndex('contacts_user_name_idx').execute();
  await db.schema.createIndex('contacts_user_idx').on('contacts').columns(['user_id', 'name']).execute();

  await db.schema.dropIndex('task_shares_list_idx').execute();
  for (const c of ['task_due_date', 'task_created_at', 'task_status', 'task_priority']) {
    await db.schema.alterTable('task_shares').dropColumn(c).execute();
  }
  await db.schema
    .createIndex('task_shares_org_idx')
    .on('task_shares')
    .columns(['organization_id', 'task_id'])
    .execute();
  await db.schema.dropIndex('tasks_assignee_list_idx').execute();
  await db.schema.dropIndex('tasks_creator_list_idx').execute();
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
}
