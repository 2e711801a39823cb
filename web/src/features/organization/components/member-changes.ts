import type { TOrgAccessLevel, TOrgMember, TUpdateOrgUserRequest } from '@cc/contract';

export interface MemberValues {
  email: string;
  first_name: string;
  last_name: string;
  org_access_level: TOrgAccessLevel | '';
  password: string;
}

export function memberValues(m?: TOrgMember): MemberValues {
  return {
    email: m?.email ?? '',
    first_name: m?.first_name ?? '',
    last_name: m?.last_name ?? '',
    org_access_level: m?.org_access_level ?? 'user',
    password: '',
  };
}

const norm = (v: string | null | undefined) => (v ?? '').trim();

/** What an edit changes, and nothing else; a blank new password is not sent. */
export function memberChanges(member: TOrgMember, values: MemberValues): TUpdateOrgUserRequest {
  const changes: TUpdateOrgUserRequest = {};
  if (norm(values.email).toLowerCase() !== norm(member.email).toLowerCase())
    changes.email = norm(values.email);
  if (norm(values.first_name) !== norm(member.first_name))
    changes.first_name = norm(values.first_name) || null;
  if (norm(values.last_name) !== norm(member.last_name)) changes.last_name = norm(values.last_name) || null;
  if (values.org_access_level && values.org_access_level !== member.org_access_level) {
    changes.org_access_level = values.org_access_level;
  }
  if (values.password) changes.password = values.password;
  return changes;
}
