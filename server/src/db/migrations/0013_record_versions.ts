import { type Kysely, sql } from 'kysely';

// Every record a client edits carries `updated_at` (its version, sent as ETag; issue 16 §4). These two
// tables lacked it: existing rows start at their creation time.
const TABLES = ['organization_members', 'comms_suggestions'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) {
    await db.schema.alterTable(table).addColumn('updated_at', 'text').execute();
    await sql`update ${sql.table(table)} set updated_at = created_at`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) await db.schema.alterTable(table).dropColumn('updated_at').execute();
}
