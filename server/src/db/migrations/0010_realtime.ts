import type { Kysely } from 'kysely';

// Single-use stream tickets: the web app opens SSE streams with `?token=<ticket>` so the access token
// never appears in a URL. They live in the database so any server instance can redeem them.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('stream_tickets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('stream_tickets_expiry_idx')
    .on('stream_tickets')
    .column('expires_at')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('stream_tickets').ifExists().execute();
}
