import {
  DEFAULT_RUN_CONFIRM_USD,
  type TBudget,
  type TMyUsage,
  type TUsageGroup,
  type TUsageRow,
  type TUsageSummary,
  USAGE_FEATURE_LABELS,
} from '@cc/contract';
import { nowIso } from '../../db/index.ts';
import type { AuthUser } from '../../platform/auth/authenticate.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, forbidden, notFound } from '../../platform/errors.ts';
import { membershipLevelsOf } from '../organizations/memberships.service.ts';
import { organizationNames } from '../organizations/organizations.service.ts';
import { runConfirmThreshold, setRunConfirmThreshold, userNames } from '../users/users.service.ts';
import { monthOf, monthRange, resetsOn, usageNow } from './usage-clock.ts';
import { num, toMicros, toUsd } from './usage-money.ts';
import { payingOrganization } from './usage-payer.ts';
import { isPlatformAdmin } from '../../platform/access.ts';
import { orgSpendRights } from './usage.policy.ts';
import * as repo from './usage.repository.ts';

const COLUMN: Record<TUsageGroup, repo.GroupColumn> = {
  day: 'day',
  user: 'user_id',
  organization: 'organization_id',
  model: 'model',
  feature: 'feature',
};

/** The longest range a summary or export covers (a year and a day). */
const MAX_RANGE_DAYS = 366;
/** Rows an export holds at most (the screen's CSV of a month). */
export const MAX_EXPORT_ROWS = 100_000;

async function orgRights(ctx: AppContext, caller: AuthUser, orgId: string) {
  const levels = await membershipLevelsOf(ctx, caller.id);
  const rights = orgSpendRights(caller, levels.get(orgId));
  if (!rights.visible) throw notFound('Organization not found');
  const [name] = [...(await organizationNames(ctx, [orgId])).values()];
  if (name === undefined) throw notFound('Organization not found');
  return rights;
}

/** Who may read a summary of this scope: the platform admin any; an organization admin theirs. */
async function assertMayRead(ctx: AppContext, caller: AuthUser, orgId: string | undefined): Promise<void> {
  if (orgId === undefined) {
    if (!isPlatformAdmin(caller)) throw forbidden("Only administrators can see others' usage.");
    return;
  }
  if (!(await orgRights(ctx, caller, orgId)).manage)
    throw forbidden("Only administrators can see others' usage.");
}

/** since/until defaulting to the current month; at most a year apart. */
function range(ctx: AppContext, since?: string, until?: string): { since: string; until: string } {
  const month = monthRange(usageNow(ctx));
  const s = since ?? (until ? `${until.slice(0, 7)}-01` : month.since);
  const u = until ?? (since ? monthRange(new Date(`${since}T00:00:00Z`)).until : month.until);
  if (s > u)
    throw new AppError(422, [
      { loc: ['query', 'since'], msg: 'since must not be after until', type: 'value_error' },
    ]);
  const days = (Date.parse(u) - Date.parse(s)) / 86_400_000;
  return days > MAX_RANGE_DAYS
    ? { since: s, until: new Date(Date.parse(s) + MAX_RANGE_DAYS * 86_400_000).toISOString().slice(0, 10) }
    : { since: s, until: u };
}

const figures = (r: {
  calls: unknown;
  input_tokens: unknown;
  output_tokens: unknown;
  cost_micros: unknown;
}) => ({
  calls: num(r.calls as number),
  input_tokens: num(r.input_tokens as number),
  output_tokens: num(r.output_tokens as number),
  cost_usd: toUsd(r.cost_micros as number),
});

async function labelled(
  ctx: AppContext,
  group: TUsageGroup,
  rows: Awaited<ReturnType<typeof repo.summarize>>,
) {
  const keys = rows.map((r) => r.key).filter((k) => k !== '');
  const names =
    group === 'user'
      ? await userNames(ctx, keys)
      : group === 'organization'
        ? await organizationNames(ctx, keys)
        : new Map<string, string>();
  const none = group === 'user' ? 'No person' : group === 'organization' ? 'No organization' : '';
  return rows.map(
    (r): TUsageRow => ({
      key: r.key,
      label:
        r.key === ''
          ? none
          : group === 'feature'
            ? (USAGE_FEATURE_LABELS[r.key as keyof typeof USAGE_FEATURE_LABELS] ?? r.key)
            : (names.get(r.key) ?? r.key),
      ...figures(r),
    }),
  );
}

function total(rows: TUsageRow[]) {
  const t = { calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0 };
  for (const r of rows) {
    t.calls += r.calls;
    t.input_tokens += r.input_tokens;
    t.output_tokens += r.output_tokens;
    t.cost_usd += r.cost_usd;
  }
  t.cost_usd = Math.round(t.cost_usd * 1e6) / 1e6;
  return t;
}

/** GET /api/usage/summary: the roll-up grouped by one dimension, for a range, for all or one organization. */
export async function usageSummary(
  ctx: AppContext,
  caller: AuthUser,
  q: { group_by: TUsageGroup; since?: string; until?: string; organization_id?: string },
): Promise<TUsageSummary> {
  await assertMayRead(ctx, caller, q.organization_id);
  const r = range(ctx, q.since, q.until);
  const rows = await repo.summarize(ctx.db, {
    group: COLUMN[q.group_by],
    since: r.since,
    until: r.until,
    organizationId: q.organization_id,
  });
  const out = await labelled(ctx, q.group_by, rows);
  return {
    group_by: q.group_by,
    ...r,
    organization_id: q.organization_id ?? null,
    rows: out,
    total: total(out),
  };
}

const csvCell = (v: unknown) => {
  const s = v === null || v === undefined ? '' : String(v);
  // Quote what needs it, and defuse spreadsheet formulas.
  const safe = /^[=+\-@]/.test(s) ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** GET /api/usage/export?format=csv: one line per call of the range (same rights as the summary). */
export async function usageCsv(
  ctx: AppContext,
  caller: AuthUser,
  q: { since?: string; until?: string; organization_id?: string },
): Promise<string> {
  await assertMayRead(ctx, caller, q.organization_id);
  const r = range(ctx, q.since, q.until);
  const rows = await repo.listEvents(ctx.db, {
    ...r,
    organizationId: q.organization_id,
    limit: MAX_EXPORT_ROWS,
  });
  const ids = [...new Set(rows.map((x) => x.user_id).filter((x): x is string => !!x))];
  const orgIds = [...new Set(rows.map((x) => x.organization_id).filter((x): x is string => !!x))];
  const [people, orgs] = await Promise.all([userNames(ctx, ids), organizationNames(ctx, orgIds)]);
  const head = [
    'time',
    'user_id',
    'user',
    'organization_id',
    'organization',
    'model',
    'engine',
    'feature',
    'conversation_id',
    'run_id',
    'input_tokens',
    'output_tokens',
    'cost_usd',
    'duration_ms',
    'outcome',
  ];
  const lines = [head.join(',')];
  for (const e of rows) {
    lines.push(
      [
        e.at,
        e.user_id,
        e.user_id ? people.get(e.user_id) : '',
        e.organization_id,
        e.organization_id ? orgs.get(e.organization_id) : '',
        e.model,
        e.engine,
        e.feature,
        e.conversation_id,
        e.run_id,
        e.input_tokens,
        e.output_tokens,
        toUsd(e.cost_micros).toFixed(6),
        e.duration_ms,
        e.outcome,
      ]
        .map(csvCell)
        .join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** A budget's answer: what it is, what this month used, what is left and when it starts again. */
async function budgetOf(ctx: AppContext, key: string): Promise<TBudget> {
  const now = usageNow(ctx);
  const [b, c] = await Promise.all([
    repo.findBudget(ctx.db, key),
    repo.findCounter(ctx.db, key, monthOf(now)),
  ]);
  const used = toUsd(c?.used_micros);
  const monthly = b ? toUsd(b.monthly_micros) : null;
  return {
    monthly_usd: monthly,
    used_usd: used,
    remaining_usd: monthly === null ? null : Math.max(0, Math.round((monthly - used) * 1e6) / 1e6),
    resets_on: resetsOn(now),
  };
}

async function assertManage(ctx: AppContext, caller: AuthUser, orgId: string): Promise<void> {
  if (!(await orgRights(ctx, caller, orgId)).manage)
    throw forbidden('Only administrators of this organization can see or set its AI budget.');
}

export async function getOrgBudget(ctx: AppContext, caller: AuthUser, orgId: string): Promise<TBudget> {
  await assertManage(ctx, caller, orgId);
  return budgetOf(ctx, repo.orgKey(orgId));
}

export async function setOrgBudget(
  ctx: AppContext,
  caller: AuthUser,
  orgId: string,
  monthlyUsd: number | null,
): Promise<TBudget> {
  await assertManage(ctx, caller, orgId);
  await repo.setBudget(ctx.db, {
    scope_key: repo.orgKey(orgId),
    organization_id: orgId,
    user_id: null,
    monthly_micros: monthlyUsd === null ? null : toMicros(monthlyUsd),
    updated_at: nowIso(),
  });
  return budgetOf(ctx, repo.orgKey(orgId));
}

async function assertMember(ctx: AppContext, orgId: string, userId: string): Promise<void> {
  const levels = await membershipLevelsOf(ctx, userId);
  if (!levels.has(orgId)) throw notFound('Member not found');
}

export async function getMemberBudget(ctx: AppContext, caller: AuthUser, orgId: string, userId: string) {
  await assertManage(ctx, caller, orgId);
  await assertMember(ctx, orgId, userId);
  return budgetOf(ctx, repo.memberKey(orgId, userId));
}

export async function setMemberBudget(
  ctx: AppContext,
  caller: AuthUser,
  orgId: string,
  userId: string,
  monthlyUsd: number | null,
): Promise<TBudget> {
  await assertManage(ctx, caller, orgId);
  await assertMember(ctx, orgId, userId);
  const key = repo.memberKey(orgId, userId);
  await repo.setBudget(ctx.db, {
    scope_key: key,
    organization_id: orgId,
    user_id: userId,
    monthly_micros: monthlyUsd === null ? null : toMicros(monthlyUsd),
    updated_at: nowIso(),
  });
  return budgetOf(ctx, key);
}

/** The tightest of two budgets (least remaining); a scope without a budget loses to one with. */
function tightest(a: TBudget, b: TBudget): TBudget {
  if (a.remaining_usd === null) return b.remaining_usd === null ? a : b;
  if (b.remaining_usd === null) return a;
  return b.remaining_usd < a.remaining_usd ? b : a;
}

/** GET /api/users/me/usage: the caller's own usage this month and the budget their calls meet first. */
export async function myUsage(ctx: AppContext, caller: AuthUser): Promise<TMyUsage> {
  const now = usageNow(ctx);
  const r = monthRange(now);
  const [byFeature, byModel] = await Promise.all([
    repo.summarize(ctx.db, { group: 'feature', ...r, userId: caller.id }),
    repo.summarize(ctx.db, { group: 'model', ...r, userId: caller.id }),
  ]);
  const feature = await labelled(ctx, 'feature', byFeature);
  const model = await labelled(ctx, 'model', byModel);
  // The organization the caller's calls are charged to (usage-payer.ts): its budgets are the ones met.
  const orgId = await payingOrganization(ctx, { userId: caller.id, organizationId: caller.organization_id });
  const budget = orgId
    ? tightest(await budgetOf(ctx, repo.memberKey(orgId, caller.id)), await budgetOf(ctx, repo.orgKey(orgId)))
    : { monthly_usd: null, used_usd: total(feature).cost_usd, remaining_usd: null, resets_on: resetsOn(now) };
  const threshold = (await runConfirmThreshold(ctx, caller.id)) ?? DEFAULT_RUN_CONFIRM_USD;
  return {
    month: monthOf(now),
    total: total(feature),
    by_feature: feature,
    by_model: model,
    budget,
    charged_organization_id: orgId,
    run_confirm_usd: threshold,
  };
}

/** PUT /api/users/me/run-threshold. */
export async function setRunThreshold(ctx: AppContext, caller: AuthUser, usd: number | null) {
  await setRunConfirmThreshold(ctx, caller.id, usd);
  return { run_confirm_usd: usd ?? DEFAULT_RUN_CONFIRM_USD };
}
