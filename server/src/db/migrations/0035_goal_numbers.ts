import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Migrations never import application code: they describe the schema as it was at this step.
//
// What a goal's numbers mean (issue 47 §1; docs/decisions/ 2026-11-29 "One home for a goal's
// numbers"): a KPI has a `direction` (higher_is_better, the default, or lower_is_better) and a goal a
// `start_date` (where the straight line of expected progress starts; existing goals start the day
// they were created). The old "(inverse)" unit hack becomes lower_is_better with the marker dropped
// from the unit. The goal's list entry (0028) is rendered from start_date too, so the trigger that
// forgets it (and PostgreSQL's change log) now names that column; every stored entry is forgotten, as
// the entry's shape grew (risk, forecast, expected progress).

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;
const run = (db: Kysely<any>, text: string) => sql.raw(text).execute(db);

/** Every column of strategic_goals that a list entry is rendered from (0028's list and start_date). */
const columnsWith = (extra: string[]) =>
  [
    'user_id',
    'organization_id',
    'title',
    'description',
    'due_date',
    'status',
    'created_at',
    'updated_at',
    ...extra,
  ].join(', ');

async function goalTriggers(db: Kysely<any>, columns: string): Promise<void> {
  if (isPostgres(db)) {
    await run(db, 'drop trigger read_changes_log on strategic_goals');
    await run(
      db,
      `create trigger read_changes_log after insert or update of id, ${columns} or delete or truncate
        on strategic_goals for each statement execute function read_changes_log()`,
    );
    await run(db, 'drop trigger strategic_goals_list_json_stale on strategic_goals');
    await run(
      db,
      `create trigger strategic_goals_list_json_stale before update of ${columns} on strategic_goals
        for each row when (old.list_json is not null) execute function strategic_goals_list_json_stale()`,
    );
    return;
  }
  await run(db, 'drop trigger strategic_goals_list_json_stale');
  await run(
    db,
    `create trigger strategic_goals_list_json_stale after update of ${columns} on strategic_goals
      when old.list_json is not null begin
        update strategic_goals set list_json = null, list_from = null, list_until = null where id = new.id;
      end`,
  );
}

/** The "(inverse)" unit hack becomes lower_is_better; the unit keeps what was left ("% (inverse)" → "%"). */
export async function migrateInverseUnits(db: Kysely<any>): Promise<void> {
  await run(
    db,
    `update goal_kpis set direction = 'lower_is_better',
       unit = nullif(trim(replace(replace(unit, '(inverse)', ''), '(Inverse)', '')), '')
     where lower(unit) like '%(inverse)%'`,
  );
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('goal_kpis')
    .addColumn('direction', 'text', (c) => c.notNull().defaultTo('higher_is_better'))
    .execute();
  await db.schema.alterTable('strategic_goals').addColumn('start_date', 'text').execute();
  await run(db, 'update strategic_goals set start_date = substr(created_at, 1, 10)');
  await migrateInverseUnits(db);
  await goalTriggers(db, columnsWith(['start_date']));
  await run(
    db,
    'update strategic_goals set list_json = null, list_from = null, list_until = null where list_json is not null',
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await goalTriggers(db, columnsWith([]));
  await run(
    db,
    `update goal_kpis set unit = trim(coalesce(unit, '') || ' (inverse)') where direction = 'lower_is_better'`,
  );
  await db.schema.alterTable('strategic_goals').dropColumn('start_date').execute();
  await db.schema.alterTable('goal_kpis').dropColumn('direction').execute();
  await run(
    db,
    'update strategic_goals set list_json = null, list_from = null, list_until = null where list_json is not null',
  );
}
