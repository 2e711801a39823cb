/**
 * Table types for Kysely. Times are ISO-8601 UTC strings in both dialects (they sort correctly as
 * text); booleans are 0/1 integers and JSON is text, so one set of queries serves SQLite and PostgreSQL.
 */
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
}

export interface StrategicGoalsTable {
  id: string;
  user_id: string;
  organization_id: string | null;
  title: string;
  description: string | null;
  /** YYYY-MM-DD */
  due_date: string;
  status: string;
  created_at: string;
  updated_at: string;
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
}

export interface TaskSharesTable {
  task_id: string;
  organization_id: string;
  created_at: string;
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
}

export interface ContactSharesTable {
  contact_id: string;
  organization_id: string;
  created_at: string;
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

export interface Database {
  users: UsersTable;
  profiles: ProfilesTable;
  sessions: SessionsTable;
  organizations: OrganizationsTable;
  organization_members: OrganizationMembersTable;
  strategic_goals: StrategicGoalsTable;
  goal_kpis: GoalKpisTable;
  strategic_advice: StrategicAdviceTable;
  tasks: TasksTable;
  task_shares: TaskSharesTable;
  journals: JournalsTable;
  contacts: ContactsTable;
  contact_shares: ContactSharesTable;
  contact_interactions: ContactInteractionsTable;
}
