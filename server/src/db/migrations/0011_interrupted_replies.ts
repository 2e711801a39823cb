import { type Kysely, sql } from 'kysely';

// Replies still marked `streaming` are few (one per conversation being answered): a partial index lets
// the sweep of replies interrupted by a crash find them without reading the whole message log.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index conversation_messages_streaming_idx on conversation_messages (updated_at) where status = 'streaming'`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('conversation_messages_streaming_idx').ifExists().execute();
}
