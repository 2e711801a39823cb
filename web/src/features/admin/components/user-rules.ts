import {
  displayName,
  parseCustomPrompts,
  parseObjectives,
  type TAdminUpdateUserRequest,
  type TUser,
  type TUserLevel,
} from '@cc/contract';

/** Delete is hidden for the signed-in admin and for admin or ceo accounts; Edit is always offered. */
export function canDeleteUser(user: TUser, currentUserId: string): boolean {
  return user.id !== currentUserId && user.user_level !== 'admin' && user.user_level !== 'ceo';
}

/** Client-side search over name, e-mail and organization name (case-insensitive). */
export function filterUsers(users: TUser[], search: string): TUser[] {
  const q = search.trim().toLowerCase();
  if (!q) return users;
  return users.filter((u) =>
    [displayName(u), u.email, u.organization_name].some((field) => (field ?? '').toLowerCase().includes(q)),
  );
}

export interface EditUserValues {
  email: string;
  first_name: string;
  last_name: string;
  user_level: TUserLevel | string;
  organization_id: string;
  role: string;
  objectives: string;
  custom_prompts: string;
  password: string;
}

export function editUserValues(u: TUser): EditUserValues {
  return {
    email: u.email,
    first_name: u.first_name ?? '',
    last_name: u.last_name ?? '',
    user_level: u.user_level,
    organization_id: u.organization_id ?? '',
    role: u.role ?? '',
    objectives: (u.profile?.objectives ?? []).join('\n'),
    custom_prompts: JSON.stringify(u.profile?.custom_prompts ?? {}, null, 2),
    password: '',
  };
}

const norm = (v: string | null | undefined) => (v ?? '').trim();

/**
 * The Edit User dialog's changed fields only. Objectives are one per line; custom prompts are JSON,
 * invalid JSON becomes {}; a blank new password is not sent.
 */
export function editUserChanges(u: TUser, v: EditUserValues): TAdminUpdateUserRequest {
  const changes: TAdminUpdateUserRequest = {};
  if (norm(v.email).toLowerCase() !== u.email.toLowerCase()) changes.email = norm(v.email);
  if (norm(v.first_name) !== norm(u.first_name)) changes.first_name = norm(v.first_name) || null;
  if (norm(v.last_name) !== norm(u.last_name)) changes.last_name = norm(v.last_name) || null;
  if (v.user_level && v.user_level !== u.user_level) changes.user_level = v.user_level as TUserLevel;
  if ((v.organization_id || null) !== (u.organization_id ?? null))
    changes.organization_id = v.organization_id || null;
  if (norm(v.role) !== norm(u.role)) changes.role = norm(v.role) || null;
  const objectives = parseObjectives(v.objectives);
  if (JSON.stringify(objectives) !== JSON.stringify(u.profile?.objectives ?? []))
    changes.objectives = objectives;
  const prompts = parseCustomPrompts(v.custom_prompts);
  if (JSON.stringify(prompts) !== JSON.stringify(u.profile?.custom_prompts ?? {}))
    changes.custom_prompts = prompts;
  if (v.password) changes.password = v.password;
  return changes;
}
