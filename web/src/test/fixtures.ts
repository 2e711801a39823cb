import {
  DEFAULT_KPI_DIRECTION,
  goalProgress,
  kpiProgress,
  type TGoal,
  type TKpi,
  type TOrganization,
  type TOrgMember,
  type TUser,
} from '@cc/contract';

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

/** A KPI as a test writes it: what the goals API derives (progress, direction, forecast) may be left out. */
export type KpiFixture = Omit<TKpi, 'direction' | 'progress' | 'forecast'> & Partial<TKpi>;
/** A goal as a test writes it: its KPIs as {@link KpiFixture}, every derived figure optional. */
export type GoalFixture = Omit<Partial<TGoal>, 'kpis'> & { kpis?: KpiFixture[] };

/** A KPI as the API presents it; progress from the contract's rule unless given. */
export function makeKpi(k: KpiFixture): TKpi {
  return {
    direction: DEFAULT_KPI_DIRECTION,
    forecast: null,
    ...k,
    progress: k.progress ?? Math.round(kpiProgress(k)),
  };
}

/** A goal as the API presents it (not at risk unless `risk` is given). */
export function makeGoalFixture(over: GoalFixture = {}): TGoal {
  const kpis = (over.kpis ?? []).map(makeKpi);
  return {
    id: 'goal-1',
    user_id: 'user-ceo',
    title: 'Grow revenue',
    description: 'Double ARR',
    start_date: '2026-01-01',
    due_date: '2026-12-31',
    status: 'in_progress',
    organization_id: 'org-1',
    organization_name: 'Northwind Ventures',
    expected_progress: 0,
    risk: { at_risk: false, reasons: [] },
    can_edit: true,
    can_delete: true,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...over,
    kpis,
    progress: over.progress ?? goalProgress(kpis),
  };
}
