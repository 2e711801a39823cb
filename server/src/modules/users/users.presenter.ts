import type { TBriefSchedule, TUser } from '@cc/contract';
import type { UserRow } from './users.repository.ts';

function parseJson<T>(text: string | null, fallback: T): T {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** The stored schedule without the server's own `since` (when it was saved). */
function scheduleOf(text: string | null): TBriefSchedule | null {
  const stored = parseJson<(TBriefSchedule & { since?: string }) | null>(text, null);
  if (!stored) return null;
  const { enabled, weekdays, time, timezone } = stored;
  return { enabled, weekdays, time, timezone };
}

/** The API shape of a user. custom_prompts are shown to administrators only. */
export function presentUser(row: UserRow, opts: { withCustomPrompts: boolean }): TUser {
  return {
    id: row.id,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    user_level: row.user_level,
    organization_id: row.organization_id,
    organization_name: row.organization_name ?? null,
    role: row.role,
    created_at: row.created_at,
    // The account's version covers its profile too (a profile edit changes the ETag).
    updated_at:
      row.profile_updated_at && row.profile_updated_at > row.updated_at
        ? row.profile_updated_at
        : row.updated_at,
    brief_schedule: scheduleOf(row.brief_schedule ?? null),
    email_verified: Boolean(row.email_verified_at),
    profile: {
      user_id: row.id,
      name: row.profile_name,
      role: row.profile_role,
      objectives: parseJson<string[]>(row.objectives, []),
      behavior_notes: row.behavior_notes,
      knowledge_summary: row.knowledge_summary,
      ...(opts.withCustomPrompts
        ? { custom_prompts: parseJson<Record<string, unknown>>(row.custom_prompts, {}) }
        : {}),
      created_at: row.profile_created_at,
      updated_at: row.profile_updated_at,
    },
  };
}
