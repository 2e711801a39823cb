import type { Kysely } from 'kysely';

// Issue 20 section 2: the executive brief. A brief keeps its facts (sections with citations), the
// checked summary and actions, and how its e-mail went. `brief_slots` makes the scheduler produce each
// scheduled brief once: a slot row per (user, slot time) is claimed by insert, so two instances on one
// database cannot both produce it. The schedule itself is a JSON column of the user (its owner edits it
// through PATCH /api/users/me); `brief_schedule_on` lets the scheduler read only the users who turned it on.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('briefs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('period_start', 'text', (c) => c.notNull())
    .addColumn('period_end', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    // manual | scheduled
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    // checked | replaced
    .addColumn('summary_status', 'text', (c) => c.notNull())
    // JSON: [{text, citations}] and [{key, title, enough_data, items}]
    .addColumn('actions', 'text', (c) => c.notNull())
    .addColumn('sections', 'text', (c) => c.notNull())
    // not_configured | sent | not_delivered
    .addColumn('delivery_status', 'text', (c) => c.notNull())
    .addColumn('delivery_error', 'text')
    .addColumn('delivered_at', 'text')
    .execute();
  // History newest first, and "the previous brief" of a user.
  await db.schema
    .createIndex('briefs_user_created_idx')
    .on('briefs')
    .columns(['user_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('brief_slots')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // ISO instant of the scheduled time
    .addColumn('slot_at', 'text', (c) => c.notNull())
    .addColumn('claimed_at', 'text', (c) => c.notNull())
    .addColumn('brief_id', 'text')
    .addPrimaryKeyConstraint('brief_slots_pk', ['user_id', 'slot_at'])
    .execute();

  await db.schema.alterTable('users').addColumn('brief_schedule', 'text').execute();
  await db.schema
    .alterTable('users')
    .addColumn('brief_schedule_on', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('users_brief_schedule_idx')
    .on('users')
    .columns(['brief_schedule_on', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('users_brief_schedule_idx').execute();
  await db.schema.alterTable('users').dropColumn('brief_schedule_on').execute();
  await db.schema.alterTable('users').dropColumn('brief_schedule').execute();
  await db.schema.dropTable('brief_slots').execute();
  await db.schema.dropTable('briefs').execute();
}
