import type { TOrganization, TOrgMember, TUser } from '@cc/contract';

let seq = 0;

export function makeUser(
  over: Omit<Partial<TUser>, 'profile'> & { profile?: Partial<TUser['profile']> } = {},
): TUser {
  seq += 1;
  const id = over.id ?? `user-${seq}`;
  const { profile, ...rest } = over;
  return {
    id,
    email: `person${seq}@example.com`,
    first_name: 'Maya',
    last_name: 'Patel',
    user_level: 'user',
    organization_id: 'org-1',
    organization_name: 'Northwind Ventures',
    role: null,
    created_at: '2026-01-05T10:00:00.000Z',
    updated_at: '2026-01-05T10:00:00.000Z',
    ...rest,
    profile: {
      user_id: id,
      name: 'Maya Patel',
      role: 'Head of Growth',
      objectives: ['Grow revenue', 'Hire a CFO'],
      behavior_notes: null,
      knowledge_summary: null,
      created_at: '2026-01-05T10:00:00.000Z',
      updated_at: '2026-01-05T10:00:00.000Z',
      ...profile,
    },
  };
}

export function makeOrg(over: Partial<TOrganization> = {}): TOrganization {
  return {
    id: 'org-1',
    name: 'Northwind Ventures',
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    member_count: 2,
    my_access_level: 'admin',
    can_manage: true,
    can_edit: true,
    ...over,
  };
}

export function makeMember(over: Partial<TOrgMember> = {}): TOrgMember {
  seq += 1;
  return {
    id: `member-${seq}`,
    user_id: `user-m${seq}`,
    email: `member${seq}@example.com`,
    first_name: 'Leo',
    last_name: 'Garcia',
    user_level: 'user',
    org_access_level: 'user',
    is_invite: false,
    created_at: '2026-01-02T00:00:00.000Z',
    can_edit_account: true,
    can_change_access: true,
    updated_at: '2026-01-02T00:00:00.000Z',
    ...over,
  };
}
