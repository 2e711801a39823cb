import type { Kysely } from 'kysely';

// Migrations never import application code: they describe the schema as it was at this step.
// Uploaded files: the bytes live in FILES_DIR under a generated storage name; the row carries the
// display name, the served (sniffed) content type, the size, a digest and the text extracted for the
// internal search. conversation_id has no foreign key so files do not depend on the order in which
// the conversations migration lands; the conversations service checks it on upload.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('conversation_id', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('storage_name', 'text', (c) => c.notNull().unique())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('text_content', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // The list is newest first, per owner or per shared organization; attachments per conversation.
  await db.schema.createIndex('files_user_idx').on('files').columns(['user_id', 'created_at']).execute();
  await db.schema
    .createIndex('files_conversation_idx')
    .on('files')
    .columns(['conversation_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('file_shares')
    .addColumn('file_id', 'text', (c) => c.notNull().references('files.id').onDelete('cascade'))
    .addColumn('organization_id', 'text', (c) =>
      c.notNull().references('organizations.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('file_shares_pk', ['file_id', 'organization_id'])
    .execute();
  await db.schema
    .createIndex('file_shares_org_idx')
    .on('file_shares')
    .columns(['organization_id', 'file_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('file_shares').ifExists().execute();
  await db.schema.dropTable('files').ifExists().execute();
}
