import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Migrations never import application code: they describe the schema as it was at this step.
// AI conversations (private to their owner) and their messages. A message has two integers:
// - `position`: its place in the conversation, fixed at insert (autoincrement / identity); the log is
//   ordered and paged on it ("latest 50 of 5,000" is one index range on (conversation_id, position));
// - `seq`: the event-stream cursor, taken anew from one global counter on every write (insert, each
//   batched update of a streaming reply, completion), so a stream resuming after cursor N replays
//   exactly the messages that changed after N (index (conversation_id, seq)).
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;

  await db.schema
    .createTable('conversations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('conversations_user_updated_idx')
    .on('conversations')
    .columns(['user_id', 'updated_at', 'id'])
    .execute();

  if (postgres) await sql`CREATE SEQUENCE conversation_message_seq`.execute(db);

  await db.schema
    .createTable('conversation_messages')
    .addColumn('position', 'integer', (c) =>
      postgres ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
    )
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('conversation_id', 'text', (c) =>
      c.notNull().references('conversations.id').onDelete('cascade'),
    )
    .addColumn('seq', 'integer', (c) =>
      postgres ? c.notNull().defaultTo(sql`nextval('conversation_message_seq')`) : c.notNull(),
    )
    // user | assistant | system | crew
    .addColumn('sender', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    // streaming | complete | stopped | failed
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('complete'))
    .addColumn('model', 'text')
    .addColumn('input_tokens', 'integer')
    .addColumn('output_tokens', 'integer')
    .addColumn('error', 'text')
    .addColumn('crew_run_id', 'text')
    .addColumn('flow_run_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('conversation_messages_log_idx')
    .on('conversation_messages')
    .columns(['conversation_id', 'position'])
    .execute();
  await db.schema
    .createIndex('conversation_messages_cursor_idx')
    .on('conversation_messages')
    .columns(['conversation_id', 'seq'])
    .execute();
  // One global counter: SQLite takes max(seq) + 1 through this index inside the writing statement.
  await db.schema
    .createIndex('conversation_messages_seq_idx')
    .on('conversation_messages')
    .column('seq')
    .unique()
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('conversation_messages').ifExists().execute();
  await db.schema.dropTable('conversations').ifExists().execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`DROP SEQUENCE IF EXISTS conversation_message_seq`.execute(db);
  }
}
