import { type Kysely, PostgresAdapter } from 'kysely';

// Migrations never import application code: they describe the schema as it was at this step.
// Comms Center: threads between app users, one row per participant (the caller's own label, list
// position and "deleted for me" state), messages with a monotonic integer `seq` (the stream cursor),
// the current AI-suggested reply per recipient, and the demo colleagues whose replies are scripted.
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;

  await db.schema
    .createTable('comms_threads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // Sorted participant ids joined by ",": one thread per set of people (POST reuses it).
    .addColumn('participant_key', 'text', (c) => c.notNull().unique())
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('last_message_text', 'text')
    .addColumn('last_seq', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('comms_participants')
    .addColumn('thread_id', 'text', (c) => c.notNull().references('comms_threads.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text')
    // 0 once the participant deleted the chat; a newer message shows it again.
    .addColumn('visible', 'integer', (c) => c.notNull().defaultTo(1))
    // Messages up to this seq are hidden from this participant (history before "Delete Chat").
    .addColumn('cleared_seq', 'integer', (c) => c.notNull().defaultTo(0))
    // Copy of the thread's updated_at so the list is one index range per user.
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('comms_participants_pk', ['thread_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('comms_participants_list_idx')
    .on('comms_participants')
    .columns(['user_id', 'visible', 'updated_at', 'thread_id'])
    .execute();

  await db.schema
    .createTable('comms_messages')
    .addColumn('seq', 'integer', (c) =>
      postgres ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
    )
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('thread_id', 'text', (c) => c.notNull().references('comms_threads.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('user'))
    .addColumn('sender_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('sender_name', 'text', (c) => c.notNull())
    // A system note meant for one participant only (e.g. "AI suggestion dismissed by user.").
    .addColumn('visible_to', 'text')
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('ai_suggested', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('comms_messages_thread_idx')
    .on('comms_messages')
    .columns(['thread_id', 'seq'])
    .execute();

  await db.schema
    .createTable('comms_suggestions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('thread_id', 'text', (c) => c.notNull().references('comms_threads.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('context', 'text')
    // The message it answers: a late generation for an older message never overwrites a newer one.
    .addColumn('for_seq', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('comms_suggestions_thread_user_uq', ['thread_id', 'user_id'])
    .execute();

  await db.schema
    .createTable('comms_scripted_users')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    // JSON: the persona's reply lines, used in turn.
    .addColumn('script', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['comms_scripted_users', 'comms_suggestions', 'comms_messages', 'comms_participants']) {
    await db.schema.dropTable(t).execute();
  }
  await db.schema.dropTable('comms_threads').execute();
}
