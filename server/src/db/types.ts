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

export interface Database {
  users: UsersTable;
  profiles: ProfilesTable;
  sessions: SessionsTable;
  organizations: OrganizationsTable;
  organization_members: OrganizationMembersTable;
}
