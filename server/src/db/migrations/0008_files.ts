import { type Kysely, PostgresAdapter, sql } from 'kysely';

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

  await indexForSearch(db);
}

const run = (db: Kysely<any>, text: string) => sql.raw(text).execute(db);
/** The indexed body is capped (a PostgreSQL tsvector has a 1 MB limit). */
const TITLE = 'new.name';
const BODY = "substr(coalesce(new.text_content, ''), 1, 100000)";

/**
 * The internal search (0004_ai_core's `search_documents`) gets one 'file' row per file: the name as the
 * title, the extracted text as the body, kept current by triggers like the other record types. Who may
 * see a hit is files.policy.ts's rule (fileSearchVisibility). Skipped when the index does not exist.
 */
async function indexForSearch(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const exists = pg
    ? (await sql<{ t: string | null }>`select to_regclass('search_documents')::text as t`.execute(db)).rows[0]
        ?.t
    : (
        await sql<{
          name: string;
        }>`select name from sqlite_master where type = 'table' and name = 'search_documents'`.execute(db)
      ).rows[0]?.name;
  if (!exists) return;
  if (pg) {
    await run(
      db,
      `create function search_sync_file() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' then
          delete from search_documents where entity_type = 'file' and entity_id = old.id;
          return old;
        end if;
        insert into search_documents (entity_type, entity_id, title, body)
          values ('file', new.id, ${TITLE}, ${BODY})
          on conflict (entity_type, entity_id) do update set title = excluded.title, body = excluded.body;
        return new;
      end $$`,
    );
    await run(
      db,
      'create trigger search_sync_file_ins after insert on files for each row execute function search_sync_file()',
    );
    await run(
      db,
      'create trigger search_sync_file_upd after update of name, text_content on files for each row execute function search_sync_file()',
    );
    await run(
      db,
      'create trigger search_sync_file_del after delete on files for each row execute function search_sync_file()',
    );
  } else {
    await run(
      db,
      `create trigger search_sync_file_ins after insert on files begin
        insert into search_documents (entity_type, entity_id, title, body) values ('file', new.id, ${TITLE}, ${BODY});
      end`,
    );
    await run(
      db,
      `create trigger search_sync_file_upd after update of name, text_content on files begin
        update search_documents set title = ${TITLE}, body = ${BODY} where entity_type = 'file' and entity_id = new.id;
      end`,
    );
    await run(
      db,
      `create trigger search_sync_file_del after delete on files begin
        delete from search_documents where entity_type = 'file' and entity_id = old.id;
      end`,
    );
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const suffix of ['ins', 'upd', 'del']) {
    await run(
      db,
      pg
        ? `drop trigger if exists search_sync_file_${suffix} on files`
        : `drop trigger if exists search_sync_file_${suffix}`,
    );
  }
  if (pg) await run(db, 'drop function if exists search_sync_file()');
  await run(db, "delete from search_documents where entity_type = 'file'").catch(() => undefined);
  await db.schema.dropTable('file_shares').ifExists().execute();
  await db.schema.dropTable('files').ifExists().execute();
}
