import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * PostgreSQL only (issue #18): statistics on the expressions the tasks `search` filter tests
 * (`lower(title) like '%…%'`, `lower(description) like '%…%'`, db/search.ts). Without them the planner
 * guesses a fixed, tiny share of matching tasks, so for each shared branch of the list it scanned
 * every task to join the few matches it expected (about 200 ms a page on the bench's 100k tasks);
 * with them it reads the organization's share index in list order and stops once the page is full
 * (about 7 ms). Expression statistics need PostgreSQL 14; older servers keep the old plan. SQLite
 * already reads the branches in index order and needs nothing.
 */
const STATISTICS = [
  { name: 'tasks_lower_title_stats', expr: 'lower(title)' },
  { name: 'tasks_lower_description_stats', expr: 'lower(description)' },
] as const;

async function supported(db: Kysely<any>): Promise<boolean> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return false;
  const { rows } = await sql<{ v: string }>`select current_setting('server_version_num') as v`.execute(db);
  return Number(rows[0]?.v) >= 140000;
}

export async function up(db: Kysely<any>): Promise<void> {
  if (!(await supported(db))) return;
  for (const s of STATISTICS) {
    await sql.raw(`create statistics if not exists ${s.name} on (${s.expr}) from tasks`).execute(db);
  }
  // Built by ANALYZE: an existing database gets them now rather than at the next auto-analyze.
  await sql`analyze tasks`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(await supported(db))) return;
  for (const s of STATISTICS) await sql.raw(`drop statistics if exists ${s.name}`).execute(db);
}
