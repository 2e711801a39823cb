import type { Kysely } from 'kysely';

/**
 * Issue 47 item 3: the model providers an administrator sets in Super Admin → Models, one row per
 * setting (compat_base_url, compat_api_key, openai_api_key, google_api_key, default_model). Keys are
 * stored sealed with SECRETS_KEY (platform/secrets/secret-box.ts), never in plain text.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('model_settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('model_settings').execute();
}
