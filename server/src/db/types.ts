/**
 * Table types for Kysely. Times are ISO-8601 UTC strings in both dialects (they sort correctly as
 * text); booleans are 0/1 integers and JSON is text, so one set of queries serves SQLite and PostgreSQL.
 */
import type { ConnectionsTables } from './connections-types.ts';
import type { ModelSettingsTables } from './model-settings-types.ts';
import type { UsageTables } from './usage-types.ts';

export interface UsersTable {
  id: string;
  email: string;
  password_hash: string;
  first_name: string | null;
  last_name: string | null;
  user_level: string;
  organization_id: string | null;
  role: string | null;
  created_at: string;
  updated_at: string;
  /** the organization this account was created through (0012): its admins may edit the account */
  managed_by_organization_id?: string | null;
  /** the brief schedule as JSON (0018), null until the user saves one */
  brief_schedule?: string | null;
  /** 1 when the schedule is on (0018): the scheduler reads these users only */
  brief_schedule_on?: number;
  /** spend above which starting a run asks to confirm (0019; null: the configured default) */
  run_confirm_usd?: number | null;
  /** when the account's e-mail was verified here (0029): sign-up link, admin-made, SSO-made; null: never */
  email_verified_at?: string | null;
  /** the last sign-in with the password (0029): single sign-on auto-links only after one since verification */
  password_sign_in_at?: string | null;
  /** when the e-mail last changed (0029): an invitation bound to the account before that is void */
  email_changed_at?: string | null;
}

export interface ProfilesTable {
  user_id: string;
  name: string | null;
  role: string | null;
  /** JSON array of strings */
  objectives: string;
  behavior_notes: string | null;
  knowledge_summary: string | null;
  /** JSON object */
  custom_prompts: string;
  created_at: string;
  updated_at: string;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  user_agent: string | null;
}

export interface ApiKeysTable {
  id: string;
  user_id: string;
  name: string;
  prefix: string;
  secret_hash: string;
  /** JSON array of scopes such as "read:tasks". */
  scopes: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
}

export interface OidcLoginsTable {
  state: string;
  code_verifier: string;
  nonce: string;
  created_at: string;
  user_id: string | null;
  /** SHA-256 of the one-time code the web exchanges for a session, once the provider has answered. */
  exchange_hash: string | null;
  /** A link waiting for the account's password (0029): the provider identity it would link. */
  link_issuer?: string | null;
  link_subject?: string | null;
}

/** A link e-mailed to an address (0029): confirms the account's own e-mail, or a new one for it. */
export interface EmailConfirmationsTable {
  id: string;
  user_id: string;
  purpose: 'verify' | 'change';
  email: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
}

export interface UserIdentitiesTable {
  id: string;
  user_id: string;
  issuer: string;
  subject: string;
  created_at: string;
}

export interface OrganizationsTable {
  id: string;
  name: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface OrganizationMembersTable {
  id: string;
  organization_id: string;
  /** null while the member is an invite for an e-mail with no account yet */
  user_id: string | null;
  email: string;
  org_access_level: string;
  is_invite: number;
  created_at: string;
  /** who sent the invitation (0012) */
  invited_by?: string | null;
  /** pending | accepted | declined; null for a membership that never was an invitation (0012) */
  invite_status?: string | null;
  /** the account the invitation was sent to, when one owned the e-mail (0029) */
  invited_user_id?: string | null;
  /** SHA-256 of the one-time secret e-mailed to the address when no account owned it (0029) */
  invite_secret_hash?: string | null;
  /** Null only in the insert type: the repository fills it with created_at. */
  updated_at: import('kysely').ColumnType<string, string | undefined, string>;
}

export interface StrategicGoalsTable {
  id: string;
  user_id: string;
  organization_id: string | null;
  title: string;
  description: string | null;
  /** YYYY-MM-DD: where expected progress starts (0035; NULL only in rows written before it). */
  start_date: string | null;
  /** YYYY-MM-DD */
  due_date: string;
  status: string;
  created_at: string;
  updated_at: string;
  /** The goal as a list presents it, without the caller's rights (0028); NULL when forgotten. */
  list_json?: string | null;
  /** The first day (YYYY-MM-DD) list_json holds for: the day it was rendered for. */
  list_from?: string | null;
  /** The first day list_json no longer holds (a KPI turns stale); NULL when no day changes it. */
  list_until?: string | null;
}

export interface GoalKpisTable {
  id: string;
  goal_id: string;
  /** order within the goal, from 0 */
  position: number;
  name: string;
  current_value: number;
  target_value: number | null;
  unit: string | null;
  /** higher_is_better | lower_is_better (0035) */
  direction: string;
}

/** One value of a KPI on one date (0017): unique per (kpi_id, date). */
export interface KpiCheckinsTable {
  id: string;
  kpi_id: string;
  value: number;
  /** YYYY-MM-DD */
  date: string;
  note: string | null;
  user_id: string | null;
  created_at: string;
}

export interface StrategicAdviceTable {
  id: string;
  user_id: string;
  organization_id: string | null;
  advice_title: string | null;
  content: string;
  feedback: string | null;
  crew_run_id: string | null;
  created_at: string;
  updated_at: string;
  /** JSON `[{type, id, title, url}]`: the records generated advice used (0017) */
  citations?: string | null;
}

export interface TasksTable {
  id: string;
  title: string;
  description: string | null;
  /** canonical: Low | Medium | High | Urgent */
  priority: string;
  status: string;
  /** YYYY-MM-DD */
  due_date: string | null;
  notes: string | null;
  assigned_to_user_id: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
  /** the strategic goal this task serves (0017) */
  goal_id?: string | null;
  /**
   * The task's list entry without the caller's rights (0026; tasks.list-entry.ts); NULL when the
   * database forgot it because something it was rendered from changed.
   */
  list_json?: string | null;
}

export interface TaskSharesTable {
  task_id: string;
  organization_id: string;
  created_at: string;
  /** Copies of the task's sort and filter columns (0003_workspace_perf), kept in step by the tasks module. */
  task_due_date: string | null;
  task_created_at: string | null;
  task_status: string | null;
  task_priority: string | null;
}

export interface JournalsTable {
  id: string;
  user_id: string;
  content: string;
  /** YYYY-MM-DD */
  entry_date: string;
  created_at: string;
  updated_at: string;
}

export interface ContactsTable {
  id: string;
  user_id: string;
  organization_id: string | null;
  name: string;
  role: string | null;
  avatar_initial: string;
  /** JSON array of strings */
  emails: string;
  /** JSON array of strings */
  phones: string;
  notes: string | null;
  created_at: string;
  updated_at: string;
  /** The contact's list entry without the linked user and rights (0027); NULL when forgotten. */
  list_json?: string | null;
}

export interface ContactSharesTable {
  contact_id: string;
  organization_id: string;
  created_at: string;
  /** lower(contacts.name) (0003_workspace_perf), kept in step by the contacts module. */
  contact_name_key: string | null;
}

export interface ContactInteractionsTable {
  id: string;
  contact_id: string;
  /** YYYY-MM-DD */
  date: string;
  summary: string;
  notes: string | null;
  created_at: string;
  updated_at: string;
}

export interface StreamTicketsTable {
  /** sha256 of the ticket, so a database dump cannot open streams */
  id: string;
  user_id: string;
  session_id: string;
  expires_at: string;
}

export interface FilesTable {
  id: string;
  user_id: string;
  conversation_id: string | null;
  /** the display name (sanitized); never used as a path */
  name: string;
  /** the generated name under FILES_DIR */
  storage_name: string;
  /** the served content type, from a safe allow-list */
  content_type: string;
  /** image | pdf | text | other */
  kind: string;
  /** bigint: PostgreSQL returns it as a string */
  size: number | string;
  sha256: string;
  /** text extracted for the internal search (text formats only) */
  text_content: string | null;
  created_at: string;
  updated_at: string;
}

export interface FileSharesTable {
  file_id: string;
  organization_id: string;
  created_at: string;
}

/** Comms Center (0007_comms). */
export interface CommsThreadsTable {
  id: string;
  participant_key: string;
  created_by: string | null;
  last_message_text: string | null;
  last_seq: number;
  created_at: string;
  updated_at: string;
}
export interface CommsParticipantsTable {
  thread_id: string;
  user_id: string;
  name: string | null;
  visible: number;
  cleared_seq: number;
  updated_at: string;
}
export interface CommsMessagesTable {
  seq: import('kysely').Generated<number>;
  id: string;
  thread_id: string;
  kind: string;
  sender_id: string | null;
  sender_name: string;
  visible_to: string | null;
  text: string;
  ai_suggested: number;
  created_at: string;
}
export interface CommsSuggestionsTable {
  id: string;
  thread_id: string;
  user_id: string;
  status: string;
  text: string;
  context: string | null;
  for_seq: number;
  created_at: string;
  updated_at: string;
  /** JSON `[{type, id, title, url}]`: the thread and contact record the reply was drafted from (0017) */
  citations?: string | null;
}
export interface CommsScriptedUsersTable {
  user_id: string;
  script: string;
  created_at: string;
}

/** AI conversations (0005_conversations). */
export interface ConversationsTable {
  id: string;
  user_id: string;
  name: string;
  created_at: string;
  updated_at: string;
}
export interface ConversationMessagesTable {
  /** order in the conversation, fixed at insert */
  position: import('kysely').Generated<number>;
  id: string;
  conversation_id: string;
  /** stream cursor, renewed on every write */
  seq: number;
  sender: string;
  text: string;
  status: string;
  model: string | null;
  input_tokens: number | null;
  output_tokens: number | null;
  error: string | null;
  crew_run_id: string | null;
  flow_run_id: string | null;
  created_at: string;
  updated_at: string;
  /** JSON `[{type, id, title, url}]`: the records the answer used (0017); null before */
  citations?: string | null;
}

export interface FactoryItemColumns {
  id: string;
  /** names a built-in catalogue item (seeded idempotently); null for user-made items */
  builtin_key: string | null;
  name: string;
  description: string | null;
  is_auto_gen: number;
  is_public: number;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}
export interface FactoryAgentsTable extends FactoryItemColumns {
  role: string;
  goal: string;
  backstory: string | null;
  llm_model: string | null;
  /** JSON array of tool ids */
  tool_ids: string;
}
export interface FactoryToolsTable extends FactoryItemColumns {
  kind: string;
  function_name: string | null;
  http_url: string | null;
  http_method: string | null;
  /** JSON Schema object */
  input_schema: string;
  /** 1: a run pauses before each call until its runner approves (issue 19 section 1). */
  requires_approval: number;
  /** kind mcp: the server's Streamable-HTTP URL. */
  mcp_url: string | null;
  /** kind mcp: the headers as JSON, encrypted with SECRETS_KEY (platform/secrets/secret-box.ts). */
  mcp_headers: string | null;
  /** kind mcp: JSON array of the tools the server listed when saved (McpToolEntry). */
  mcp_tools: string | null;
}
/** Method + destination an administrator marked side-effect-free: model-chosen calls there need no approval. */
export interface OutboundAllowlistTable {
  id: string;
  /** GET | POST */
  method: string;
  /** An http(s) origin and optional path prefix, no query (`https://api.example.com/v1/search`). */
  destination: string;
  note: string | null;
  created_by: string | null;
  created_at: string;
}
export interface FactoryCrewsTable extends FactoryItemColumns {
  version: string;
  agent_ids: string;
  requires_input: number;
  input_fields: string;
  tasks: string;
}
export interface FactoryFlowsTable extends FactoryItemColumns {
  version: string;
  steps: string;
}
export interface RunsTable {
  id: string;
  kind: string;
  user_id: string;
  definition_id: string;
  definition_name: string;
  definition: string;
  conversation_id: string | null;
  status: string;
  inputs: string;
  current_step: number;
  outputs: string;
  human_prompt: string | null;
  human_answer: string | null;
  result: string | null;
  error: string | null;
  lease_owner: string | null;
  lease_expires_at: string | null;
  attempts: number;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}
export interface FactoryItemSharesTable {
  item_id: string;
  organization_id: string;
}
export interface ToolApprovalsTable {
  id: string;
  run_id: string;
  user_id: string;
  position: number;
  call_index: number;
  tool_id: string;
  tool_name: string;
  method: string;
  url: string;
  destination: string;
  /** JSON object, secrets redacted */
  headers: string;
  /** JSON object */
  arguments: string;
  /** The MCP server tool the call names (null for an HTTP tool): part of what the approval is bound to. */
  server_tool: string | null;
  /** SHA-256 of the canonical JSON of the arguments the model proposed (null: binds to nothing). */
  proposed_digest: string | null;
  /** requires_approval | foreign_item */
  gate_reason: string;
  /** pending | approved | rejected | executing | done | interrupted (asks the person) | stopped */
  status: string;
  edited: number;
  reason: string | null;
  /** JSON */
  result: string | null;
  decided_by: string | null;
  decided_at: string | null;
  created_at: string;
  updated_at: string;
}
export interface RunEventsTable {
  seq: import('kysely').Generated<number>;
  run_id: string;
  type: string;
  summary: string;
  details: string | null;
  ts: string;
}

/** AI task suggestions and Generate Advice runs (0006_task_suggestions). */
export interface TaskSuggestionsTable {
  id: string;
  user_id: string;
  title: string;
  description: string | null;
  assignee_user_id: string | null;
  priority: string;
  /** YYYY-MM-DD */
  due_date: string | null;
  llm_context: string | null;
  rejection_reason: string | null;
  /** pending | approved | rejected */
  status: string;
  source_type: string | null;
  source_id: string | null;
  /** "<source_type>:<source_id>", never suggested twice per user */
  source_key: string | null;
  /** the normalized title, never suggested twice per user */
  title_key: string;
  organization_id: string | null;
  task_id: string | null;
  created_at: string;
  updated_at: string;
}

/** A durable fact about a user, mined from chat (AI core, 0004_ai_core). Private to the user. */
export interface MemoriesTable {
  id: string;
  user_id: string;
  content: string;
  /** lower-cased, punctuation-free content: the de-duplication key */
  normalized: string;
  conversation_id: string | null;
  created_at: string;
}

/** The internal search index (0004_ai_core), kept current by triggers; `id` exists on SQLite only. */
export interface SearchDocumentsTable {
  entity_type: string;
  entity_id: string;
  title: string;
  body: string;
}

/** The activity ledger (0016_activity): append-only, triggers refuse UPDATE and DELETE. */
export interface ActivityTable {
  seq: import('kysely').Generated<number>;
  id: string;
  ts: string;
  /** no foreign key: a deleted user's trail stays as it was */
  actor_user_id: string | null;
  /** ui | api | ai | run:<id> */
  via: string;
  action: string;
  entity_type: string;
  entity_id: string | null;
  summary: string;
  /** JSON, secrets stripped */
  before: string | null;
  /** JSON, secrets stripped */
  after: string | null;
  undoable: number;
  /** the entry this undo took back (unique: one undo per entry) */
  undo_of: string | null;
}

/** An executive brief (0018): facts, checked words and delivery. */
export interface BriefsTable {
  id: string;
  user_id: string;
  period_start: string;
  period_end: string;
  created_at: string;
  trigger: string;
  summary: string;
  summary_status: string;
  /** JSON */
  actions: string;
  /** JSON */
  sections: string;
  delivery_status: string;
  delivery_error: string | null;
  delivered_at: string | null;
}

/** A scheduled brief's slot (0018), claimed once per (user, slot time). */
export interface BriefSlotsTable {
  user_id: string;
  slot_at: string;
  claimed_at: string;
  brief_id: string | null;
}

export interface Database extends UsageTables, ModelSettingsTables, ConnectionsTables {
  activity: ActivityTable;
  briefs: BriefsTable;
  brief_slots: BriefSlotsTable;
  memories: MemoriesTable;
  search_documents: SearchDocumentsTable;
  task_suggestions: TaskSuggestionsTable;
  factory_agents: FactoryAgentsTable;
  factory_tools: FactoryToolsTable;
  outbound_allowlist: OutboundAllowlistTable;
  factory_crews: FactoryCrewsTable;
  factory_flows: FactoryFlowsTable;
  runs: RunsTable;
  run_events: RunEventsTable;
  tool_approvals: ToolApprovalsTable;
  factory_item_shares: FactoryItemSharesTable;
  stream_tickets: StreamTicketsTable;
  conversations: ConversationsTable;
  conversation_messages: ConversationMessagesTable;
  users: UsersTable;
  profiles: ProfilesTable;
  sessions: SessionsTable;
  api_keys: ApiKeysTable;
  oidc_logins: OidcLoginsTable;
  user_identities: UserIdentitiesTable;
  email_confirmations: EmailConfirmationsTable;
  organizations: OrganizationsTable;
  organization_members: OrganizationMembersTable;
  strategic_goals: StrategicGoalsTable;
  goal_kpis: GoalKpisTable;
  kpi_checkins: KpiCheckinsTable;
  strategic_advice: StrategicAdviceTable;
  tasks: TasksTable;
  task_shares: TaskSharesTable;
  journals: JournalsTable;
  contacts: ContactsTable;
  contact_shares: ContactSharesTable;
  contact_interactions: ContactInteractionsTable;
  files: FilesTable;
  file_shares: FileSharesTable;
  comms_threads: CommsThreadsTable;
  comms_participants: CommsParticipantsTable;
  comms_messages: CommsMessagesTable;
  comms_suggestions: CommsSuggestionsTable;
  comms_scripted_users: CommsScriptedUsersTable;
  inbox_items: InboxItemsTable;
}

/** The approvals inbox: one row per thing waiting for a person (migration 0015). */
export interface InboxItemsTable {
  id: string;
  kind: string;
  source_type: string;
  source_id: string;
  source_url: string;
  assignee_user_id: string;
  organization_id: string | null;
  title: string;
  summary: string;
  /** JSON object. */
  details: string;
  status: string;
  created_at: string;
  resolved_at: string | null;
  resolved_by: string | null;
  reason: string | null;
}
