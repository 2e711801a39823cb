import { type Kysely, sql } from 'kysely';

// Migrations never import application code: they describe the schema as it was at this step.
// Issue 46 row 5: every outbound call whose arguments a model chose waits for a person, unless
// - a platform administrator marked its method + destination side-effect-free
//   (outbound_allowlist: one row per method and destination, `destination` an http(s) origin plus
//   an optional path prefix, no query), or
// - for an MCP server's tool, the tool's owner marked it read-only when saving it. The server's own
//   annotation (readOnlyHint) is only a hint: the listed tools kept it as `read_only`, which from
//   now on means the owner's mark, so it moves to `read_only_hint` and every mark starts off.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('outbound_allowlist')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // GET | POST (the methods HTTP tools use)
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('destination', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('outbound_allowlist_method_destination_idx')
    .on('outbound_allowlist')
    .columns(['method', 'destination'])
    .unique()
    .execute();

  await moveServerHintsOut(db);
}

/** Each listed MCP tool's `read_only` (the server's claim until now) becomes `read_only_hint`; no marks. */
export async function moveServerHintsOut(db: Kysely<any>): Promise<void> {
  const rows = await sql<{ id: string; mcp_tools: string }>`
    select id, mcp_tools from factory_tools where kind = 'mcp' and mcp_tools is not null`.execute(db);
  for (const row of rows.rows) {
    let listed: Record<string, unknown>[] = [];
    try {
      listed = JSON.parse(row.mcp_tools) as Record<string, unknown>[];
    } catch {
      continue;
    }
    if (!Array.isArray(listed)) continue;
    const moved = listed.map(({ read_only, ...t }) => ({
      ...t,
      read_only_hint: read_only === true,
      read_only: false,
    }));
    await sql`update factory_tools set mcp_tools = ${JSON.stringify(moved)} where id = ${row.id}`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('outbound_allowlist').execute();
}
