import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Migrations never import application code: they describe the schema as it was at this step.
//
// A goal's list entry, kept on its row as 0026 and 0027 keep a task's and a contact's (issue #18,
// realistic misses; docs/decisions/ 2026-11-28 "A goal's list entry is kept on its row"):
// `strategic_goals.list_json` holds the goal as the API presents it (organization name, KPIs with
// their trends, progress) without the caller's rights, which the list adds per read. A KPI's `stale`
// depends on the day as well as the rows, so the entry holds for the days from `list_from` (the day it
// was rendered for) up to, not including, `list_until` (the first day one of its KPIs turns stale;
// NULL when no day changes it). The database forgets the entry (sets all three NULL) whenever something
// it was rendered from changes: a goal column, a KPI, a check-in, the name of its organization.
// strategic_goals_list_json_missing_idx finds the forgotten ones, strategic_goals_list_until_idx the
// ones a new day outdated, for the background renderer.

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

/** Every column of strategic_goals that a list entry is rendered from. */
const GOAL_COLUMNS = [
  'user_id',
  'organization_id',
  'title',
  'description',
  'due_date',
  'status',
  'created_at',
  'updated_at',
];

/** The statement that forgets the entries of the goals `where` names (`row` is new or old). */
const forget = (where: string) =>
  `update strategic_goals set list_json = null, list_from = null, list_until = null
    where (${where}) and list_json is not null`;

/** Triggers on other tables: [name, table, events, SQL condition on the row or null, forget's where]. */
const DEPENDENTS: [string, string, string, string | null, (row: string) => string][] = [
  ['goal_kpis_list_json_stale', 'goal_kpis', 'insert or update or delete', null, (r) => `id = ${r}.goal_id`],
  [
    'kpi_checkins_list_json_stale',
    'kpi_checkins',
    'insert or update or delete',
    null,
    (r) => `id = (select goal_id from goal_kpis where goal_kpis.id = ${r}.kpi_id)`,
  ],
  [
    'organizations_goal_list_json_stale',
    'organizations',
    'update of name',
    'old.name is distinct from new.name',
    (r) => `organization_id = ${r}.id`,
  ],
];

const run = (db: Kysely<any>, text: string) => sql.raw(text).execute(db);

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('strategic_goals').addColumn('list_json', 'text').execute();
  await db.schema.alterTable('strategic_goals').addColumn('list_from', 'text').execute();
  await db.schema.alterTable('strategic_goals').addColumn('list_until', 'text').execute();
  await run(
    db,
    'create index strategic_goals_list_json_missing_idx on strategic_goals (id) where list_json is null',
  );
  await run(
    db,
    'create index strategic_goals_list_until_idx on strategic_goals (list_until) where list_until is not null',
  );
  const columns = GOAL_COLUMNS.join(', ');
  if (isPostgres(db)) {
    // The read cache's change log (0024) leaves the entry out: storing one changes no page anyone is
    // shown, so it must not make every instance read its cached goal pages again.
    await run(db, 'drop trigger read_changes_log on strategic_goals');
    await run(
      db,
      `create trigger read_changes_log after insert or update of id, ${columns} or delete or truncate
        on strategic_goals for each statement execute function read_changes_log()`,
    );
    // The goal's own columns: forgotten in the same row write (BEFORE), no second write.
    await run(
      db,
      `create function strategic_goals_list_json_stale() returns trigger language plpgsql as $$
      begin
        new.list_json := null;
        new.list_from := null;
        new.list_until := null;
        return new;
      end $$`,
    );
    await run(
      db,
      `create trigger strategic_goals_list_json_stale before update of ${columns} on strategic_goals
        for each row when (old.list_json is not null) execute function strategic_goals_list_json_stale()`,
    );
    for (const [name, table, events, when, where] of DEPENDENTS) {
      // Each row-level trigger on a delete sees `old`, on an insert or update `new`.
      const body =
        events.includes('delete') && events !== 'delete'
          ? `if tg_op = 'DELETE' then ${forget(where('old'))}; else ${forget(where('new'))}; end if;`
          : `${forget(where(events.includes('delete') ? 'old' : 'new'))};`;
      await run(
        db,
        `create function ${name}() returns trigger language plpgsql as $$
        begin
          ${body}
          return null;
        end $$`,
      );
      await run(
        db,
        `create trigger ${name} after ${events} on ${table}
          for each row ${when ? `when (${when})` : ''} execute function ${name}()`,
      );
    }
    return;
  }
  await run(
    db,
    `create trigger strategic_goals_list_json_stale after update of ${columns} on strategic_goals
      when old.list_json is not null begin
        update strategic_goals set list_json = null, list_from = null, list_until = null where id = new.id;
      end`,
  );
  for (const [name, table, events, when, where] of DEPENDENTS) {
    // SQLite: one trigger per event; `is distinct from` is `is not`.
    const condition = when ? `when ${when.replaceAll('is distinct from', 'is not')}` : '';
    for (const event of events.split(' or ')) {
      const row = event === 'delete' ? 'old' : 'new';
      await run(
        db,
        `create trigger ${name}_${event.split(' ')[0]} after ${event} on ${table} ${condition} begin
          ${forget(where(row))};
        end`,
      );
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await run(db, 'drop trigger if exists read_changes_log on strategic_goals');
    await run(
      db,
      `create trigger read_changes_log after insert or update or delete or truncate on strategic_goals
        for each statement execute function read_changes_log()`,
    );
    await run(db, 'drop trigger if exists strategic_goals_list_json_stale on strategic_goals');
    await run(db, 'drop function if exists strategic_goals_list_json_stale()');
    for (const [name, table] of DEPENDENTS) {
      await run(db, `drop trigger if exists ${name} on ${table}`);
      await run(db, `drop function if exists ${name}()`);
    }
  } else {
    await run(db, 'drop trigger if exists strategic_goals_list_json_stale');
    for (const [name, , events] of DEPENDENTS)
      for (const event of events.split(' or '))
        await run(db, `drop trigger if exists ${name}_${event.split(' ')[0]}`);
  }
  await run(db, 'drop index if exists strategic_goals_list_until_idx');
  await run(db, 'drop index if exists strategic_goals_list_json_missing_idx');
  for (const column of ['list_until', 'list_from', 'list_json'])
    await db.schema.alterTable('strategic_goals').dropColumn(column).execute();
}
