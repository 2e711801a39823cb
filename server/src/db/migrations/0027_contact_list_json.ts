import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Migrations never import application code: they describe the schema as it was at this step.
//
// A contact's list entry, kept on its row as 0026 keeps a task's (docs/decisions/ 2026-11-27 "A
// task's list entry is kept on its row"): `contacts.list_json` holds the contact as the API presents it
// (owner's name, shared organizations with their names, past interactions) without the linked app
// user and the caller's rights, which the list adds per read. The database forgets it (sets NULL)
// whenever something it was rendered from changes: a contact column, a share row (an organization
// deleted cascades here), a past interaction, the name of a shared organization, the name or e-mail of
// its owner. contacts_list_json_missing_idx finds the forgotten ones for the background renderer.

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

const CONTACT_COLUMNS = [
  'user_id',
  'organization_id',
  'name',
  'role',
  'avatar_initial',
  'emails',
  'phones',
  'notes',
  'created_at',
  'updated_at',
];

/** The statement that forgets the entries of the contacts `where` names (`row` is new or old). */
const forget = (where: string) =>
  `update contacts set list_json = null where (${where}) and list_json is not null`;

/** Triggers on other tables: [name, table, events, SQL condition on the row or null, forget's where]. */
const DEPENDENTS: [string, string, string, string | null, (row: string) => string][] = [
  [
    'contact_shares_list_json_stale',
    'contact_shares',
    'insert or delete',
    null,
    (r) => `id = ${r}.contact_id`,
  ],
  [
    'contact_interactions_list_json_stale',
    'contact_interactions',
    'insert or update or delete',
    null,
    (r) => `id = ${r}.contact_id`,
  ],
  [
    'organizations_contact_list_json_stale',
    'organizations',
    'update of name',
    'old.name is distinct from new.name',
    (r) => `id in (select contact_id from contact_shares where organization_id = ${r}.id)`,
  ],
  [
    'users_contact_list_json_stale',
    'users',
    'update of first_name, last_name, email',
    'old.first_name is distinct from new.first_name or old.last_name is distinct from new.last_name ' +
      'or old.email is distinct from new.email',
    (r) => `user_id = ${r}.id`,
  ],
];

const run = (db: Kysely<any>, text: string) => sql.raw(text).execute(db);

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('contacts').addColumn('list_json', 'text').execute();
  await run(db, 'create index contacts_list_json_missing_idx on contacts (id) where list_json is null');
  const columns = CONTACT_COLUMNS.join(', ');
  if (isPostgres(db)) {
    // The read cache's change log (0024) leaves the entry out: storing one changes no page anyone is
    // shown, so it must not make every instance read its cached contacts pages again.
    await run(db, 'drop trigger read_changes_log on contacts');
    await run(
      db,
      `create trigger read_changes_log after insert or update of id, ${columns} or delete or truncate
        on contacts for each statement execute function read_changes_log()`,
    );
    await run(
      db,
      `create function contacts_list_json_stale() returns trigger language plpgsql as $$
      begin
        new.list_json := null;
        return new;
      end $$`,
    );
    await run(
      db,
      `create trigger contacts_list_json_stale before update of ${columns} on contacts
        for each row when (old.list_json is not null) execute function contacts_list_json_stale()`,
    );
    for (const [name, table, events, when, where] of DEPENDENTS) {
      // Each row-level trigger on a delete sees `old`, on an insert or update `new`.
      const body =
        events.includes('delete') && events !== 'delete'
          ? `if tg_op = 'DELETE' then ${forget(where('old'))}; else ${forget(where('new'))}; end if;`
          : `${forget(where(events.includes('delete') ? 'old' : 'new'))};`;
      await run(
        db,
        `create function ${name}() returns trigger language plpgsql as $$
        begin
          ${body}
          return null;
        end $$`,
      );
      await run(
        db,
        `create trigger ${name} after ${events} on ${table}
          for each row ${when ? `when (${when})` : ''} execute function ${name}()`,
      );
    }
    return;
  }
  await run(
    db,
    `create trigger contacts_list_json_stale after update of ${columns} on contacts
      when old.list_json is not null begin
        update contacts set list_json = null where id = new.id;
      end`,
  );
  for (const [name, table, events, when, where] of DEPENDENTS) {
    // SQLite: one trigger per event; `is distinct from` is `is not`.
    const condition = when ? `when ${when.replaceAll('is distinct from', 'is not')}` : '';
    for (const event of events.split(' or ')) {
      const row = event === 'delete' ? 'old' : 'new';
      await run(
        db,
        `create trigger ${name}_${event.split(' ')[0]} after ${event} on ${table} ${condition} begin
          ${forget(where(row))};
        end`,
      );
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await run(db, 'drop trigger if exists read_changes_log on contacts');
    await run(
      db,
      `create trigger read_changes_log after insert or update or delete or truncate on contacts
        for each statement execute function read_changes_log()`,
    );
    await run(db, 'drop trigger if exists contacts_list_json_stale on contacts');
    await run(db, 'drop function if exists contacts_list_json_stale()');
    for (const [name, table] of DEPENDENTS) {
      await run(db, `drop trigger if exists ${name} on ${table}`);
      await run(db, `drop function if exists ${name}()`);
    }
  } else {
    await run(db, 'drop trigger if exists contacts_list_json_stale');
    for (const [name, , events] of DEPENDENTS)
      for (const event of events.split(' or '))
        await run(db, `drop trigger if exists ${name}_${event.split(' ')[0]}`);
  }
  await run(db, 'drop index if exists contacts_list_json_missing_idx');
  await db.schema.alterTable('contacts').dropColumn('list_json').execute();
}
