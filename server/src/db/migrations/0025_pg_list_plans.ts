import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Migrations never import application code: they describe the schema as it was at this step.
//
// PostgreSQL only (issue #18, EXPLAIN ANALYZE of the list pages on the bench data set, see
// docs/decisions/ 2026-11-25 "PostgreSQL list plans"). SQLite already reads these through the
// indexes and gets nothing here.
//
// 1. The planner's price of a random page. With the default (4.0, priced for spinning disks) the
//    KPIs of a goals page (`goal_id in (…50 ids)`), the shared organizations of a contacts page
//    (`contact_id in (…)`) and the goal rows of a goals page were read by a sequential scan of the
//    whole table, although goal_kpis_goal_idx, contact_shares_pk and strategic_goals_pkey serve them.
//    A workspace's lists are read from memory, where a random page costs about what a sequential one
//    does: 1.1, the usual figure for SSDs and cached data. Set on this database (for the connections
//    opened from now on) only where the operator has not chosen a value (the setting's source is still
//    the built-in default) and only when the migrating role may (it owns the database); otherwise a
//    notice and nothing.
// 2. Trigram indexes (pg_trgm, part of PostgreSQL's contrib, shipped with Debian's server package) on
//    the two expressions the tasks `search` filter tests (`lower(title|description) like '%…%'`,
//    db/search.ts): a rare word no longer walks every task shared with the caller's organizations (the
//    planner picks the ordered index walk for common words, thanks to 0022's statistics, and the
//    trigram bitmap for rare ones). Skipped with a notice where the extension cannot be created.
const RANDOM_PAGE_COST = '1.1';

const TRIGRAM_INDEXES = [
  { name: 'tasks_title_trgm_idx', expr: 'lower(title)' },
  { name: 'tasks_description_trgm_idx', expr: 'lower(description)' },
] as const;

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql
    .raw(`do $$
begin
  if (select source from pg_settings where name = 'random_page_cost') = 'default' then
    execute format('alter database %I set random_page_cost = ${RANDOM_PAGE_COST}', current_database());
  end if;
exception when insufficient_privilege then
  raise notice 'random_page_cost left as it is: this role may not alter the database';
end $$`)
    .execute(db);
  // This connection (the migrations and the start-up seed) plans with it at once too.
  await sql
    .raw(`do $$
begin
  if (select source from pg_settings where name = 'random_page_cost') = 'default' then
    perform set_config('random_page_cost', '${RANDOM_PAGE_COST}', false);
  end if;
end $$`)
    .execute(db);

  await sql
    .raw(`do $$
begin
  create extension if not exists pg_trgm;
exception when others then
  raise notice 'pg_trgm is not available (%): the task search has no trigram index', sqlerrm;
end $$`)
    .execute(db);
  const { rows } = await sql<{
    ok: number;
  }>`select 1 as ok from pg_extension where extname = 'pg_trgm'`.execute(db);
  if (rows.length === 0) return;
  for (const i of TRIGRAM_INDEXES) {
    await sql
      .raw(`create index if not exists ${i.name} on tasks using gin (${i.expr} gin_trgm_ops)`)
      .execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const i of TRIGRAM_INDEXES) await sql.raw(`drop index if exists ${i.name}`).execute(db);
  // The extension stays: something else may use it by now.
  await sql
    .raw(`do $$
begin
  if current_setting('random_page_cost') = '${RANDOM_PAGE_COST}' then
    execute format('alter database %I reset random_page_cost', current_database());
  end if;
exception when insufficient_privilege then
  null;
end $$`)
    .execute(db);
}
