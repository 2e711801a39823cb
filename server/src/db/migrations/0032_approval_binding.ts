import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';

// Migrations never import application code: they describe the schema as it was at this step.
// An approval is bound to the call it approved (issue 46 row 4): a resumed step's call is matched on
// the tool (`tool_id`), the MCP server tool (`server_tool`, null for an HTTP tool) and the digest of
// the arguments the model proposed (`proposed_digest`: SHA-256 of their canonical JSON, so an edit of
// `arguments` by the person does not unbind it). Anything else is a new call with its own approval.
// Undecided rows written before this step get the digest of their arguments when they were not
// edited; the rest stay null and never match (the person is asked again, never the other way round).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('tool_approvals').addColumn('server_tool', 'text').execute();
  await db.schema.alterTable('tool_approvals').addColumn('proposed_digest', 'text').execute();
  const open = await db
    .selectFrom('tool_approvals')
    .select(['id', 'arguments'])
    .where('status', 'in', ['pending', 'approved'])
    .where('edited', '=', 0)
    .where('method', '!=', 'MCP')
    .execute();
  for (const row of open) {
    await db
      .updateTable('tool_approvals')
      .set({ proposed_digest: digestOf(row.arguments) })
      .where('id', '=', row.id)
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('tool_approvals').dropColumn('proposed_digest').execute();
  await db.schema.alterTable('tool_approvals').dropColumn('server_tool').execute();
}

/** The same digest as the engine's call binding (runs/engine/call-binding.ts), as of this step (exported for its test). */
export function digestOf(argumentsJson: string): string {
  let value: unknown = {};
  try {
    value = JSON.parse(argumentsJson);
  } catch {}
  const args = value && typeof value === 'object' && !Array.isArray(value) ? value : {};
  return createHash('sha256').update(canonical(args)).digest('hex');
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}
