import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Migrations never import application code: they describe the schema as it was at this step.
// The AI Factory (agents, tools, crews, flows) and the durable run engine (ARCHITECTURE.md section 6).
// - Factory items: ordered crew tasks and flow steps are JSON arrays on their row (always read and
//   written whole); `builtin_key` names a catalogue item so the seed can upsert it on every start.
// - runs: crew and flow runs in one table (`kind`), with the lease a worker holds while executing
//   (`lease_owner`, `lease_expires_at`), the step it is at, and the definition snapshotted at start,
//   so editing a crew never changes a run in flight. `finished_at IS NULL` marks an active run; a
//   partial unique index allows one active run per conversation (two concurrent starts: one 409).
// - run_events: the append-only timeline; `seq` is the monotonic id and the SSE cursor.
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;

  const factoryTable = (name: string) =>
    db.schema
      .createTable(name)
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('builtin_key', 'text', (c) => c.unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('is_auto_gen', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('is_public', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull());

  await factoryTable('factory_agents')
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('goal', 'text', (c) => c.notNull())
    .addColumn('backstory', 'text')
    .addColumn('llm_model', 'text')
    // JSON array of tool ids
    .addColumn('tool_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();

  await factoryTable('factory_tools')
    // builtin | http
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('function_name', 'text')
    .addColumn('http_url', 'text')
    .addColumn('http_method', 'text')
    // JSON Schema object
    .addColumn('input_schema', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();

  await factoryTable('factory_crews')
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('agent_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('requires_input', 'integer', (c) => c.notNull().defaultTo(0))
    // JSON [{name, label, required}]
    .addColumn('input_fields', 'text', (c) => c.notNull().defaultTo('[]'))
    // JSON [{name, description, expected_output, agent_id, human_input}] in order
    .addColumn('tasks', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();

  await factoryTable('factory_flows')
    .addColumn('version', 'text', (c) => c.notNull())
    // JSON [{title, kind, prompt, agent_id, tool_id}] in order
    .addColumn('steps', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();

  // Lists: own items, then public and auto-generated ones, newest first.
  for (const t of ['factory_agents', 'factory_tools', 'factory_crews', 'factory_flows']) {
    await db.schema.createIndex(`${t}_owner_idx`).on(t).columns(['created_by', 'created_at']).execute();
    await db.schema
      .createIndex(`${t}_shared_idx`)
      .on(t)
      .columns(['is_public', 'is_auto_gen', 'created_at'])
      .execute();
  }

  await db.schema
    .createTable('runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // crew | flow
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('definition_id', 'text', (c) => c.notNull())
    .addColumn('definition_name', 'text', (c) => c.notNull())
    // JSON snapshot of the crew's tasks / the flow's steps at start
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('conversation_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('inputs', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('current_step', 'integer', (c) => c.notNull().defaultTo(0))
    // JSON array of the finished steps' outputs (the next step's context)
    .addColumn('outputs', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('human_prompt', 'text')
    // The answer given to the current step's human prompt, consumed when the step runs
    .addColumn('human_answer', 'text')
    .addColumn('result', 'text')
    .addColumn('error', 'text')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  // The worker's claim query: runnable status, lease free or expired, oldest first.
  await db.schema
    .createIndex('runs_claim_idx')
    .on('runs')
    .columns(['status', 'lease_expires_at', 'created_at'])
    .execute();
  await db.schema
    .createIndex('runs_user_idx')
    .on('runs')
    .columns(['user_id', 'kind', 'created_at'])
    .execute();
  await db.schema
    .createIndex('runs_conversation_idx')
    .on('runs')
    .columns(['conversation_id', 'kind', 'created_at'])
    .execute();
  await db.schema
    .createIndex('runs_one_active_per_conversation')
    .on('runs')
    .column('conversation_id')
    .unique()
    .where(sql<boolean>`finished_at is null and conversation_id is not null`)
    .execute();

  await db.schema
    .createTable('run_events')
    .addColumn('seq', 'integer', (c) =>
      postgres ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
    )
    .addColumn('run_id', 'text', (c) => c.notNull().references('runs.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('details', 'text')
    .addColumn('ts', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('run_events_timeline_idx')
    .on('run_events')
    .columns(['run_id', 'seq'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('run_events').ifExists().execute();
  await db.schema.dropTable('runs').ifExists().execute();
  for (const t of ['factory_flows', 'factory_crews', 'factory_tools', 'factory_agents']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
