import type { Kysely } from 'kysely';

/**
 * Issue 49 phase 1: a person's connections to their own calendars and mailboxes, and what they import.
 * - connections: one row per connection; `secret_sealed` holds the password (CalDAV, IMAP) or the
 *   secret ICS address, sealed with SECRETS_KEY. The sync worker's lease (`lease_owner`,
 *   `lease_until`) lets one instance at a time sync a connection; `next_sync_at` and `failures` are its
 *   schedule and back-off; `sync_state` is the kind's own cursor (a CalDAV sync-token, IMAP's
 *   UIDVALIDITY and last UID) as JSON.
 * - calendar_events: one row per occurrence (recurrences expanded over a window), keyed by
 *   (connection, UID, start).
 * - mail_messages: one row per message, keyed by (connection, Message-ID); plain text only.
 * Imported rows go with their connection (ON DELETE CASCADE) and with their owner.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('connections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('url', 'text')
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('port', 'integer')
    .addColumn('tls', 'integer')
    .addColumn('username', 'text')
    .addColumn('secret_sealed', 'text')
    .addColumn('mail_days', 'integer')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('last_synced_at', 'text')
    .addColumn('last_error', 'text')
    .addColumn('sync_state', 'text')
    .addColumn('next_sync_at', 'text', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('connections_user_idx')
    .on('connections')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema.createIndex('connections_due_idx').on('connections').column('next_sync_at').execute();

  await db.schema
    .createTable('calendar_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('connection_id', 'text', (c) => c.notNull().references('connections.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('uid', 'text', (c) => c.notNull())
    // The CalDAV object's address (null for an ICS feed): a deleted object's occurrences go with it.
    .addColumn('href', 'text')
    .addColumn('starts_at', 'text', (c) => c.notNull())
    .addColumn('ends_at', 'text', (c) => c.notNull())
    .addColumn('all_day', 'integer', (c) => c.notNull())
    .addColumn('time_zone', 'text')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('location', 'text')
    .addColumn('description', 'text')
    .addColumn('organizer', 'text')
    // JSON: [{email, name}]
    .addColumn('attendees', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('calendar_events_occurrence_key', ['connection_id', 'uid', 'starts_at'])
    .execute();
  await db.schema
    .createIndex('calendar_events_user_start_idx')
    .on('calendar_events')
    .columns(['user_id', 'starts_at'])
    .execute();

  await db.schema
    .createTable('mail_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('connection_id', 'text', (c) => c.notNull().references('connections.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('mailbox', 'text', (c) => c.notNull())
    .addColumn('uid', 'integer', (c) => c.notNull())
    .addColumn('from_address', 'text')
    .addColumn('from_name', 'text')
    // JSON: [{email, name}]
    .addColumn('to_addresses', 'text', (c) => c.notNull())
    .addColumn('cc_addresses', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .addColumn('in_reply_to', 'text')
    .addColumn('text_body', 'text', (c) => c.notNull())
    // JSON: [file name]
    .addColumn('attachment_names', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('imported_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('mail_messages_message_key', ['connection_id', 'message_id'])
    .execute();
  await db.schema
    .createIndex('mail_messages_user_sent_idx')
    .on('mail_messages')
    .columns(['user_id', 'sent_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mail_messages').execute();
  await db.schema.dropTable('calendar_events').execute();
  await db.schema.dropTable('connections').execute();
}
