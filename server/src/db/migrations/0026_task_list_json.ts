import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Migrations never import application code: they describe the schema as it was at this step.
//
// A task's list entry, kept on its row (issue #18, realistic misses; docs/decisions/ 2026-11-27
// "A task's list entry is kept on its row"): `tasks.list_json` holds the task as the API presents it
// in a list (the tasks presenter's output, names of its creator and assignee, shared organizations and
// goal included) without the caller's rights, which the list adds per caller. The application renders
// it when it writes a task; the database forgets it (sets NULL) whenever something it was rendered from
// changes, whoever changes it: a task column, a share row (an organization deleted cascades here), the
// name or e-mail of its creator or assignee, a foreign key action (a user or goal deleted sets the
// task's column to NULL). A list renders a NULL entry from the rows, and the application renders it
// again in the background (tasks_list_json_missing_idx finds them).

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

/** Every column of tasks that a list entry is rendered from. */
const TASK_COLUMNS = [
  'title',
  'description',
  'priority',
  'status',
  'due_date',
  'notes',
  'assigned_to_user_id',
  'created_by',
  'created_at',
  'updated_at',
  'goal_id',
];

const run = (db: Kysely<any>, text: string) => sql.raw(text).execute(db);

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('tasks').addColumn('list_json', 'text').execute();
  await run(db, 'create index tasks_list_json_missing_idx on tasks (id) where list_json is null');
  const columns = TASK_COLUMNS.join(', ');
  if (isPostgres(db)) {
    // The read cache's change log (0024) leaves the entry out: storing one changes no page anyone is
    // shown, so it must not make every instance read its cached tasks pages again.
    await run(db, 'drop trigger read_changes_log on tasks');
    await run(
      db,
      `create trigger read_changes_log after insert or update of id, ${columns} or delete or truncate
        on tasks for each statement execute function read_changes_log()`,
    );
    // The task's own columns: forgotten in the same row write (BEFORE), no second write.
    await run(
      db,
      `create function tasks_list_json_stale() returns trigger language plpgsql as $$
      begin
        new.list_json := null;
        return new;
      end $$`,
    );
    await run(
      db,
      `create trigger tasks_list_json_stale before update of ${columns} on tasks
        for each row when (old.list_json is not null) execute function tasks_list_json_stale()`,
    );
    await run(
      db,
      `create function task_shares_list_json_stale() returns trigger language plpgsql as $$
      begin
        update tasks set list_json = null
          where id = (case when tg_op = 'DELETE' then old.task_id else new.task_id end)
            and list_json is not null;
        return null;
      end $$`,
    );
    await run(
      db,
      `create trigger task_shares_list_json_stale after insert or delete on task_shares
        for each row execute function task_shares_list_json_stale()`,
    );
    await run(
      db,
      `create function users_list_json_stale() returns trigger language plpgsql as $$
      begin
        update tasks set list_json = null
          where (created_by = new.id or assigned_to_user_id = new.id) and list_json is not null;
        return null;
      end $$`,
    );
    await run(
      db,
      `create trigger users_list_json_stale after update of first_name, last_name, email on users
        for each row when (old.first_name is distinct from new.first_name
          or old.last_name is distinct from new.last_name or old.email is distinct from new.email)
        execute function users_list_json_stale()`,
    );
    return;
  }
  await run(
    db,
    `create trigger tasks_list_json_stale after update of ${columns} on tasks
      when old.list_json is not null begin
        update tasks set list_json = null where id = new.id;
      end`,
  );
  await run(
    db,
    `create trigger task_shares_list_json_stale_ins after insert on task_shares begin
        update tasks set list_json = null where id = new.task_id and list_json is not null;
      end`,
  );
  await run(
    db,
    `create trigger task_shares_list_json_stale_del after delete on task_shares begin
        update tasks set list_json = null where id = old.task_id and list_json is not null;
      end`,
  );
  await run(
    db,
    `create trigger users_list_json_stale after update of first_name, last_name, email on users
      when old.first_name is not new.first_name or old.last_name is not new.last_name
        or old.email is not new.email begin
        update tasks set list_json = null
          where (created_by = new.id or assigned_to_user_id = new.id) and list_json is not null;
      end`,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await run(db, 'drop trigger if exists read_changes_log on tasks');
    await run(
      db,
      `create trigger read_changes_log after insert or update or delete or truncate on tasks
        for each statement execute function read_changes_log()`,
    );
    await run(db, 'drop trigger if exists tasks_list_json_stale on tasks');
    await run(db, 'drop trigger if exists task_shares_list_json_stale on task_shares');
    await run(db, 'drop trigger if exists users_list_json_stale on users');
    await run(db, 'drop function if exists tasks_list_json_stale()');
    await run(db, 'drop function if exists task_shares_list_json_stale()');
    await run(db, 'drop function if exists users_list_json_stale()');
  } else {
    for (const t of [
      'tasks_list_json_stale',
      'task_shares_list_json_stale_ins',
      'task_shares_list_json_stale_del',
      'users_list_json_stale',
    ])
      await run(db, `drop trigger if exists ${t}`);
  }
  await run(db, 'drop index if exists tasks_list_json_missing_idx');
  await db.schema.alterTable('tasks').dropColumn('list_json').execute();
}
