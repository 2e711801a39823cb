import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Migrations never import application code: they describe the schema as it was at this step.
//
// AI core: per-user memories, and the internal search index. `search_documents` holds one row per
// searchable record (entity_type, entity_id, title, body), kept current by database triggers on every
// write of goals, advice, tasks, notes (journals) and contacts, so the workspace modules need no code for
// it. SQLite indexes it with an external-content FTS5 table, PostgreSQL with a generated tsvector + GIN.
// Visibility is not stored here: searches join back to the record and apply the REST API's rules.
// Files (or any later type) join by inserting rows with their own entity_type from their own
// migration's triggers (who may see them: the domain policies, listed in server/src/ai/search/search.ts).

interface Source {
  type: string;
  table: string;
  /** columns whose change re-indexes the row */
  columns: string[];
  title: (row: string) => string;
  body: (row: string) => string;
}

function sources(pg: boolean): Source[] {
  const nl = pg ? 'chr(10)' : 'char(10)';
  return [
    {
      type: 'goal',
      table: 'strategic_goals',
      columns: ['title', 'description'],
      title: (r) => `${r}.title`,
      body: (r) => `coalesce(${r}.description, '')`,
    },
    {
      type: 'advice',
      table: 'strategic_advice',
      columns: ['advice_title', 'content'],
      title: (r) => `coalesce(nullif(${r}.advice_title, ''), 'Strategic advice')`,
      body: (r) => `${r}.content`,
    },
    {
      type: 'task',
      table: 'tasks',
      columns: ['title', 'description', 'notes'],
      title: (r) => `${r}.title`,
      body: (r) => `coalesce(${r}.description, '') || ' ' || coalesce(${r}.notes, '')`,
    },
    {
      type: 'note',
      table: 'journals',
      columns: ['content', 'entry_date'],
      title: (r) => `${r}.entry_date || ': ' || replace(substr(${r}.content, 1, 60), ${nl}, ' ')`,
      body: (r) => `${r}.content`,
    },
    {
      type: 'contact',
      table: 'contacts',
      columns: ['name', 'role', 'notes', 'emails'],
      title: (r) => `${r}.name`,
      body: (r) => `coalesce(${r}.role, '') || ' ' || coalesce(${r}.notes, '') || ' ' || ${r}.emails`,
    },
  ];
}

const run = (db: Kysely<any>, text: string) => sql.raw(text).execute(db);

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;

  await db.schema
    .createTable('memories')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('content', 'text', (c) => c.notNull())
    // lower-cased, punctuation-free text: the de-duplication key
    .addColumn('normalized', 'text', (c) => c.notNull())
    .addColumn('conversation_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('memories_user_normalized_idx')
    .on('memories')
    .columns(['user_id', 'normalized'])
    .unique()
    .execute();
  await db.schema
    .createIndex('memories_user_created_idx')
    .on('memories')
    .columns(['user_id', 'created_at'])
    .execute();

  if (pg) {
    await run(
      db,
      `create table search_documents (
        entity_type text not null,
        entity_id text not null,
        title text not null,
        body text not null,
        tsv tsvector generated always as (
          setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', body), 'B')
        ) stored,
        primary key (entity_type, entity_id)
      )`,
    );
    await run(db, 'create index search_documents_tsv_idx on search_documents using gin (tsv)');
  } else {
    await run(
      db,
      `create table search_documents (
        id integer primary key,
        entity_type text not null,
        entity_id text not null,
        title text not null,
        body text not null
      )`,
    );
    await run(
      db,
      'create unique index search_documents_entity_idx on search_documents (entity_type, entity_id)',
    );
    await run(
      db,
      `create virtual table search_fts using fts5(title, body, content='search_documents', content_rowid='id',
        tokenize='porter unicode61 remove_diacritics 2')`,
    );
    await run(
      db,
      `create trigger search_documents_ai after insert on search_documents begin
        insert into search_fts(rowid, title, body) values (new.id, new.title, new.body);
      end`,
    );
    await run(
      db,
      `create trigger search_documents_ad after delete on search_documents begin
        insert into search_fts(search_fts, rowid, title, body) values ('delete', old.id, old.title, old.body);
      end`,
    );
    await run(
      db,
      `create trigger search_documents_au after update on search_documents begin
        insert into search_fts(search_fts, rowid, title, body) values ('delete', old.id, old.title, old.body);
        insert into search_fts(rowid, title, body) values (new.id, new.title, new.body);
      end`,
    );
  }

  for (const s of sources(pg)) {
    const name = `search_sync_${s.type}`;
    if (pg) {
      await run(
        db,
        `create function ${name}() returns trigger language plpgsql as $$
        begin
          if tg_op = 'DELETE' then
            delete from search_documents where entity_type = '${s.type}' and entity_id = old.id;
            return old;
          end if;
          insert into search_documents (entity_type, entity_id, title, body)
            values ('${s.type}', new.id, ${s.title('new')}, ${s.body('new')})
            on conflict (entity_type, entity_id) do update set title = excluded.title, body = excluded.body;
          return new;
        end $$`,
      );
      await run(
        db,
        `create trigger ${name}_ins after insert on ${s.table} for each row execute function ${name}()`,
      );
      await run(
        db,
        `create trigger ${name}_upd after update of ${s.columns.join(', ')} on ${s.table}
          for each row execute function ${name}()`,
      );
      await run(
        db,
        `create trigger ${name}_del after delete on ${s.table} for each row execute function ${name}()`,
      );
    } else {
      await run(
        db,
        `create trigger ${name}_ins after insert on ${s.table} begin
          insert into search_documents (entity_type, entity_id, title, body)
            values ('${s.type}', new.id, ${s.title('new')}, ${s.body('new')});
        end`,
      );
      await run(
        db,
        `create trigger ${name}_upd after update of ${s.columns.join(', ')} on ${s.table} begin
          update search_documents set title = ${s.title('new')}, body = ${s.body('new')}
            where entity_type = '${s.type}' and entity_id = new.id;
        end`,
      );
      await run(
        db,
        `create trigger ${name}_del after delete on ${s.table} begin
          delete from search_documents where entity_type = '${s.type}' and entity_id = old.id;
        end`,
      );
    }
    // Records written before this migration.
    await run(
      db,
      `insert into search_documents (entity_type, entity_id, title, body)
        select '${s.type}', r.id, ${s.title('r')}, ${s.body('r')} from ${s.table} r`,
    );
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const s of sources(pg)) {
    const name = `search_sync_${s.type}`;
    for (const suffix of ['ins', 'upd', 'del']) {
      await run(
        db,
        pg
          ? `drop trigger if exists ${name}_${suffix} on ${s.table}`
          : `drop trigger if exists ${name}_${suffix}`,
      );
    }
    if (pg) await run(db, `drop function if exists ${name}()`);
  }
  if (!pg) await run(db, 'drop table if exists search_fts');
  await run(db, 'drop table if exists search_documents');
  await db.schema.dropTable('memories').execute();
}
