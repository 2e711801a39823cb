import { type Kysely, sql } from 'kysely';

// Migrations never import application code: they describe the schema as it was at this step.
// Approval gates on side effects (issue 19 section 1):
// - factory_tools.requires_approval: a run pauses before calling such a tool until its runner
//   approves. Existing HTTP tools whose method is not GET/HEAD start gated (they may write outside
//   the workspace); built-in tools only read or propose, so they start ungated.
// - tool_approvals: one row per outbound call a run waits on, keyed by the call's place in the run
//   (run, step position, n-th gated call of that step) so a resumed step finds its decision again.
//   `status` moves pending → approved | rejected, then approved → executing → done with conditional
//   updates: whoever moves it to `executing` makes the call, so it runs once across instances.
// - factory_item_shares: a ceo shares an agent, tool, crew or flow with organizations they belong to
//   (only a platform administrator makes items public). Item ids are unique across the four tables.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('factory_tools')
    .addColumn('requires_approval', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update factory_tools set requires_approval = 1
    where kind = 'http' and coalesce(http_method, 'POST') not in ('GET', 'HEAD')`.execute(db);

  await db.schema
    .createTable('tool_approvals')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('run_id', 'text', (c) => c.notNull().references('runs.id').onDelete('cascade'))
    // The runner, who alone may decide (everyone else gets 404)
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('call_index', 'integer', (c) => c.notNull())
    .addColumn('tool_id', 'text', (c) => c.notNull())
    .addColumn('tool_name', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    // The tool's endpoint and its origin (approvals of someone else's item count per destination)
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('destination', 'text', (c) => c.notNull())
    // JSON: the headers the call sends, secrets redacted
    .addColumn('headers', 'text', (c) => c.notNull().defaultTo('{}'))
    // JSON object: the call's arguments (edited ones once the person changed them)
    .addColumn('arguments', 'text', (c) => c.notNull().defaultTo('{}'))
    // Why it waits: the tool requires approval, or the item is someone else's
    .addColumn('gate_reason', 'text', (c) => c.notNull())
    // pending | approved | rejected | executing | done
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('edited', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reason', 'text')
    // JSON: what the call returned (kept so a resumed step never calls twice)
    .addColumn('result', 'text')
    .addColumn('decided_by', 'text')
    .addColumn('decided_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('tool_approvals_call_idx')
    .on('tool_approvals')
    .columns(['run_id', 'position', 'call_index'])
    .unique()
    .execute();

  await db.schema
    .createTable('factory_item_shares')
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) =>
      c.notNull().references('organizations.id').onDelete('cascade'),
    )
    .addPrimaryKeyConstraint('factory_item_shares_pk', ['item_id', 'organization_id'])
    .execute();
  // Lists: the items shared with the caller's organizations.
  await db.schema
    .createIndex('factory_item_shares_org_idx')
    .on('factory_item_shares')
    .columns(['organization_id', 'item_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('factory_item_shares').ifExists().execute();
  await db.schema.dropTable('tool_approvals').ifExists().execute();
  await db.schema.alterTable('factory_tools').dropColumn('requires_approval').execute();
}
