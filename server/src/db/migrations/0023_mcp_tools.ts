import type { Kysely } from 'kysely';

// MCP servers as factory tools (issue 22 section 3): one `factory_tools` row of kind `mcp` per server,
// with its Streamable-HTTP URL, its headers encrypted with SECRETS_KEY (never returned by the API) and
// the tools it listed when it was saved (JSON: name, description, input schema, approval default).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('factory_tools').addColumn('mcp_url', 'text').execute();
  await db.schema.alterTable('factory_tools').addColumn('mcp_headers', 'text').execute();
  await db.schema.alterTable('factory_tools').addColumn('mcp_tools', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('factory_tools').dropColumn('mcp_tools').execute();
  await db.schema.alterTable('factory_tools').dropColumn('mcp_headers').execute();
  await db.schema.alterTable('factory_tools').dropColumn('mcp_url').execute();
}
