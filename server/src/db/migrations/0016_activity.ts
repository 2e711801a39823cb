import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Migrations never import application code: they describe the schema as it was at this step.
// The activity ledger (issue 19 §3): one append-only row per AI, agent, run or approval write and per
// security event. `seq` is the monotonic order and the page cursor; `id` is what the API shows.
// - No foreign key on `actor_user_id`: deleting a user must neither delete nor rewrite their trail.
// - `undo_of` names the entry an undo took back; unique, so two undos of one entry cannot both land.
// - Triggers refuse UPDATE and DELETE (and TRUNCATE on PostgreSQL): the application cannot alter an
//   entry, whatever path it takes to the database.
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('activity')
    .addColumn('seq', 'integer', (c) =>
      postgres ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
    )
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('ts', 'text', (c) => c.notNull())
    .addColumn('actor_user_id', 'text')
    .addColumn('via', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('entity_type', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text')
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('before', 'text')
    .addColumn('after', 'text')
    .addColumn('undoable', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('undo_of', 'text', (c) => c.unique())
    .execute();
  // The caller's own trail, newest first, and the admin's view filtered by kind: both page on seq.
  await db.schema
    .createIndex('activity_actor_seq')
    .on('activity')
    .columns(['actor_user_id', 'seq'])
    .execute();
  await db.schema.createIndex('activity_entity_seq').on('activity').columns(['entity_type', 'seq']).execute();
  await db.schema.createIndex('activity_action_seq').on('activity').columns(['action', 'seq']).execute();

  if (postgres) {
    await sql`
      create function activity_append_only() returns trigger language plpgsql as $$
      begin
        raise exception 'activity entries are append-only (% refused)', tg_op;
      end $$`.execute(db);
    await sql`create trigger activity_no_change before update or delete on activity
      for each row execute function activity_append_only()`.execute(db);
    await sql`create trigger activity_no_truncate before truncate on activity
      for each statement execute function activity_append_only()`.execute(db);
  } else {
    await sql`create trigger activity_no_update before update on activity
      begin select raise(abort, 'activity entries are append-only (UPDATE refused)'); end`.execute(db);
    await sql`create trigger activity_no_delete before delete on activity
      begin select raise(abort, 'activity entries are append-only (DELETE refused)'); end`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.dropTable('activity').execute();
  if (postgres) await sql`drop function if exists activity_append_only()`.execute(db);
}
