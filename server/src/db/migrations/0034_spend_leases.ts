import type { Kysely } from 'kysely';

/**
 * Issue 46 rows 10, 11 and 13.
 * - usage_reservations: one row per model call in flight, owned by the instance making it under a
 *   lease it renews while the call streams, with what the call has used so far. Any instance settles
 *   rows whose lease ran out (their owner died) as `interrupted` usage, so a dead instance's holds
 *   never keep an organization at "budget reached" and the tokens it spent are still counted.
 * - model_offers: the endpoint models an administrator offers (others are refused and not listed).
 * - usage_settings: small platform settings of spend, e.g. the default price of unpriced models.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('usage_reservations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('lease_until', 'text', (c) => c.notNull())
    .addColumn('month', 'text', (c) => c.notNull())
    // The budget counters held ('\n'-separated scope keys; '' when none).
    .addColumn('scope_keys', 'text', (c) => c.notNull())
    .addColumn('reserved_micros', 'bigint', (c) => c.notNull())
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
    .addColumn('input_micros_per_million', 'bigint', (c) => c.notNull())
    .addColumn('output_micros_per_million', 'bigint', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('usage_reservations_lease_idx')
    .on('usage_reservations')
    .column('lease_until')
    .execute();
  // Holds from before this migration have no row to settle them by: they are dropped once.
  await db
    .updateTable('usage_counters')
    .set({ reserved_micros: 0 })
    .where('reserved_micros', '>', 0)
    .execute();

  await db.schema
    .createTable('model_offers')
    .addColumn('model', 'text', (c) => c.primaryKey())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('usage_settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['usage_settings', 'model_offers', 'usage_reservations'])
    await db.schema.dropTable(t).execute();
}
