import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * The tables cached reads are made from (the `config.cache` routes and the session lookup) at the time
 * of this migration. A later migration that caches a route over another table adds the trigger there;
 * the PostgreSQL read cache refuses routes over tables without it (server/src/platform/response-cache.ts).
 */
const LOGGED = [
  'users',
  'sessions',
  'profiles',
  'organizations',
  'organization_members',
  'strategic_goals',
  'goal_kpis',
  'kpi_checkins',
  'tasks',
  'task_shares',
  'journals',
  'conversations',
  'conversation_messages',
  'contacts',
  'contact_shares',
  'contact_interactions',
  'inbox_items',
  'usage_daily',
];

// PostgreSQL's change log for the read cache (server/src/db/pg-change-feed.ts): each transaction that
// writes a logged table leaves one row (its id, the table), committed or rolled back with the write.
// Insert-only with ON CONFLICT DO NOTHING, so writers never wait on one another's rows. SQLite needs
// none: one process sees every write there.
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`create table read_changes (xid xid8 not null, tbl text not null, primary key (xid, tbl))`.execute(
    db,
  );
  await sql`create function read_changes_log() returns trigger language plpgsql as $$
    begin
      insert into read_changes (xid, tbl) values (pg_current_xact_id(), TG_TABLE_NAME) on conflict do nothing;
      return null;
    end $$`.execute(db);
  for (const t of LOGGED) {
    await sql
      .raw(
        `create trigger read_changes_log after insert or update or delete or truncate on ${t}
         for each statement execute function read_changes_log()`,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const t of LOGGED) await sql.raw(`drop trigger if exists read_changes_log on ${t}`).execute(db);
  await sql`drop function if exists read_changes_log()`.execute(db);
  await sql`drop table if exists read_changes`.execute(db);
}
