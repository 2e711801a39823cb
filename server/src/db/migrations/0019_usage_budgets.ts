import type { Kysely } from 'kysely';

/**
 * Spend governance (issue 21): one row per model call, a daily roll-up the usage screens read (so a
 * summary never scans the call rows), the admin's price table, budgets, and the monthly counters that
 * reservations update with a conditional UPDATE (correct under concurrency on both engines).
 * Money is integer micro-dollars (1 USD = 1,000,000), so sums are exact.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('usage_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('organization_id', 'text')
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('engine', 'text', (c) => c.notNull())
    .addColumn('feature', 'text', (c) => c.notNull())
    .addColumn('conversation_id', 'text')
    .addColumn('run_id', 'text')
    .addColumn('agent_id', 'text')
    .addColumn('input_tokens', 'integer', (c) => c.notNull())
    .addColumn('output_tokens', 'integer', (c) => c.notNull())
    .addColumn('cost_micros', 'bigint', (c) => c.notNull())
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('usage_events_day_idx').on('usage_events').columns(['day', 'id']).execute();
  await db.schema
    .createIndex('usage_events_org_day_idx')
    .on('usage_events')
    .columns(['organization_id', 'day'])
    .execute();
  // Run estimates read an agent's past calls.
  await db.schema
    .createIndex('usage_events_agent_idx')
    .on('usage_events')
    .columns(['agent_id', 'day'])
    .execute();
  await db.schema
    .createIndex('usage_events_user_day_idx')
    .on('usage_events')
    .columns(['user_id', 'day'])
    .execute();

  // The roll-up: one row per day, person, organization, model and feature ('' stands for none, so
  // the key is a plain primary key on both engines).
  await db.schema
    .createTable('usage_daily')
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('feature', 'text', (c) => c.notNull())
    .addColumn('calls', 'integer', (c) => c.notNull())
    .addColumn('input_tokens', 'bigint', (c) => c.notNull())
    .addColumn('output_tokens', 'bigint', (c) => c.notNull())
    .addColumn('cost_micros', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_daily_pk', ['day', 'user_id', 'organization_id', 'model', 'feature'])
    .execute();
  await db.schema
    .createIndex('usage_daily_org_day_idx')
    .on('usage_daily')
    .columns(['organization_id', 'day'])
    .execute();
  await db.schema
    .createIndex('usage_daily_user_day_idx')
    .on('usage_daily')
    .columns(['user_id', 'day'])
    .execute();

  await db.schema
    .createTable('model_prices')
    .addColumn('model', 'text', (c) => c.primaryKey())
    .addColumn('input_micros_per_million', 'bigint', (c) => c.notNull())
    .addColumn('output_micros_per_million', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  // scope_key: `org:{orgId}` or `member:{orgId}:{userId}`. A scope without a budget has no row.
  await db.schema
    .createTable('usage_budgets')
    .addColumn('scope_key', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) =>
      c.notNull().references('organizations.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('monthly_micros', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  // month: 'YYYY-MM' (UTC). used: settled spend; reserved: estimates of calls in flight.
  await db.schema
    .createTable('usage_counters')
    .addColumn('scope_key', 'text', (c) => c.notNull())
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('used_micros', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('reserved_micros', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('warned', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('usage_counters_pk', ['scope_key', 'month'])
    .execute();

  // The per-user run threshold (decisions/ 2026-11-24): a run estimated above it asks to confirm.
  await db.schema.alterTable('users').addColumn('run_confirm_usd', 'real').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('run_confirm_usd').execute();
  for (const t of ['usage_counters', 'usage_budgets', 'model_prices', 'usage_daily', 'usage_events']) {
    await db.schema.dropTable(t).execute();
  }
}
