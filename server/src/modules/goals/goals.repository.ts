import { type SelectQueryBuilder, sql } from 'kysely';
import { type BranchPageParams, branchPageParams } from '../../db/branch-page.ts';
import type { Db } from '../../db/index.ts';
import { preparedQuery } from '../../db/prepared-query.ts';
import { lowerLike } from '../../db/search.ts';
import type { Database, GoalKpisTable, StrategicGoalsTable } from '../../db/types.ts';
import type { ViewerScope } from '../../platform/viewer.ts';
import {
  type GoalVisibilityBranch,
  goalBranchPredicate,
  goalVisibilityBranches,
  visibleGoals,
} from './goals.policy.ts';

export interface GoalListOptions {
  userId: string;
  /** The caller's organizations: their goals are visible too. */
  orgIds: readonly string[];
  search?: string;
  status?: string;
  organizationId?: string;
  sortBy: 'due_date' | 'created_at' | 'status';
  /** When false, statuses in `completed` are left out (unless `status` asks for one). */
  includeCompleted: boolean;
  completed: readonly string[];
  skip: number;
  limit: number;
}

/** The goal's own columns (not its stored list entry). */
const GOAL_COLUMNS = [
  'strategic_goals.id',
  'strategic_goals.user_id',
  'strategic_goals.organization_id',
  'strategic_goals.title',
  'strategic_goals.description',
  'strategic_goals.start_date',
  'strategic_goals.due_date',
  'strategic_goals.status',
  'strategic_goals.created_at',
  'strategic_goals.updated_at',
] as const;

function selectGoals(db: Db) {
  return db
    .selectFrom('strategic_goals')
    .leftJoin('organizations', 'organizations.id', 'strategic_goals.organization_id')
    .select(GOAL_COLUMNS)
    .select('organizations.name as organization_name');
}

export type GoalRow = NonNullable<Awaited<ReturnType<typeof findGoal>>>;

const STATUS_ORDER = sql<number>`case strategic_goals.status when 'new' then 0 when 'in_progress' then 1 when 'done' then 2 else 3 end`;

type GoalsQuery = SelectQueryBuilder<
  Database,
  'strategic_goals',
  { id: string; k0: number; k1: string; k2: string }
>;

/**
 * The values of a list query (see {@link preparedQuery}): everything its SQL depends on is the
 * presence of a value, a boolean or a list's length.
 */
interface GoalPageParams extends BranchPageParams {
  status: string | null;
  /** The statuses left out when neither a status filter nor include_completed is given. */
  hiddenStatuses: string[] | null;
  organizationId: string | null;
  /** The organization filter names one of the caller's organizations: the list is its branch alone. */
  orgIsMine: boolean;
  byStatus: boolean;
  byCreated: boolean;
  /** The branches are merged in index order (SQLite, default sort), see {@link goalPageQuery}. */
  merged: boolean;
}

function pageParams(db: Db, o: GoalListOptions): GoalPageParams {
  const base = branchPageParams(db, o);
  return {
    ...base,
    status: o.status || null,
    hiddenStatuses: !o.status && !o.includeCompleted && o.completed.length ? [...o.completed] : null,
    organizationId: o.organizationId || null,
    orgIsMine: Boolean(o.organizationId) && base.orgIds.includes(o.organizationId as string),
    byStatus: o.sortBy === 'status',
    byCreated: o.sortBy === 'created_at',
    merged: o.sortBy === 'due_date' && base.sqlite,
  };
}

/**
 * One visibility branch: ids and sort keys (`k0` the status rank when sorting by status, `k1` the due
 * date, `k2` the creation time; no `k0` when merged) of the matching goals. With the default sort (due
 * date) the branch reads strategic_goals_user_list_idx / strategic_goals_org_list_idx in order; the
 * status filter is checked inside the index.
 */
function branch(db: Db, p: GoalPageParams, where: (q: GoalsQuery) => GoalsQuery) {
  const keys = db
    .selectFrom('strategic_goals')
    .select([
      'strategic_goals.id as id',
      'strategic_goals.due_date as k1',
      'strategic_goals.created_at as k2',
    ]);
  // A merged UNION sorts by every column it returns, so the merged page leaves out the constant k0
  // (SQLite would sort each branch by it); the page's readers only order by k0 when it is the status.
  let q = (
    p.merged ? keys : keys.select((p.byStatus ? STATUS_ORDER : sql<number>`0`).as('k0'))
  ) as GoalsQuery;
  q = where(q);
  if (p.status) q = q.where('strategic_goals.status', '=', p.status);
  else if (p.hiddenStatuses) q = q.where('strategic_goals.status', 'not in', p.hiddenStatuses);
  const pattern = p.pattern;
  if (pattern) {
    q = q.where((eb) =>
      eb.or([lowerLike('strategic_goals.title', pattern), lowerLike('strategic_goals.description', pattern)]),
    );
  }
  return q;
}

/** A branch in list order, at most `n` rows (the form that is not merged). */
function limitedBranch(q: GoalsQuery, p: GoalPageParams) {
  if (p.byCreated) {
    q = q.orderBy('strategic_goals.created_at', 'desc').orderBy('strategic_goals.id', 'desc');
  } else {
    if (p.byStatus) q = q.orderBy(STATUS_ORDER);
    q = q
      .orderBy('strategic_goals.due_date')
      .orderBy('strategic_goals.created_at', 'desc')
      .orderBy('strategic_goals.id');
  }
  return q.limit(p.n);
}

/**
 * The goal policy's visibility branches (my own goals, my organizations' goals), the organizations'
 * one split into a branch per organization. Filtered to one of my organizations, everything visible
 * in it is that organization's branch alone; filtered to another, only my own goals filed under it.
 */
function branchesOf(db: Db, p: GoalPageParams): GoalsQuery[] {
  const org = p.organizationId;
  const ofOrg = (id: string) => goalBranchPredicate({ via: 'strategic_goals.organization_id', orgIds: [id] });
  if (org !== null && p.orgIsMine) return [branch(db, p, (q) => q.where(ofOrg(org)))];
  const viewer = { id: p.userId, orgIds: org !== null ? [] : p.orgIds };
  return goalVisibilityBranches(viewer).flatMap((b) =>
    b.via === 'strategic_goals.user_id'
      ? [
          branch(db, p, (q) =>
            org !== null
              ? q.where(goalBranchPredicate(b)).where('strategic_goals.organization_id', '=', org)
              : q.where(goalBranchPredicate(b)),
          ),
        ]
      : b.orgIds.map((id) => branch(db, p, (q) => q.where(ofOrg(id)))),
  );
}

/**
 * Visible: the caller's own goals and their organizations' goals. Filtered to one of the caller's
 * organizations, the list is that organization's branch alone. With the default sort on SQLite the
 * branches form one compound SELECT (UNION, which also drops my goal filed under my organization)
 * ordered like the list: SQLite merges the branches as each reads its index in order and stops once
 * the page is full, with no sort (`k0` is 0 in every row of this sort, so it is left out of the order).
 * Otherwise (PostgreSQL, which does not merge a UNION in order, or a sort no index holds) each branch
 * gives at most skip + limit rows in list order, which is enough for any row of the page; the union is
 * deduplicated, sorted and cut.
 */
export function goalPageQuery(db: Db, p: GoalPageParams) {
  const parts = branchesOf(db, p);
  if (p.merged) {
    const union = parts.slice(1).reduce((all, b) => all.union(b), parts[0]);
    return union.orderBy('k1').orderBy('k2', 'desc').orderBy('id').limit(p.limit).offset(p.skip);
  }
  const branches = parts.map((b, i) => db.selectFrom(limitedBranch(b, p).as(`b${i}`)).selectAll());
  const union = branches.slice(1).reduce((all, b) => all.unionAll(b), branches[0]);
  const q = db.selectFrom(union.as('u')).select(['u.id', 'u.k0', 'u.k1', 'u.k2']).distinct();
  const ordered = p.byCreated
    ? q.orderBy('u.k2', 'desc').orderBy('u.id', 'desc')
    : q.orderBy('u.k0').orderBy('u.k1').orderBy('u.k2', 'desc').orderBy('u.id');
  return ordered.offset(p.skip).limit(p.limit);
}

function pageWithGoals(db: Db, p: GoalPageParams) {
  const q = db
    .selectFrom(goalPageQuery(db, p).as('page'))
    .innerJoin('strategic_goals', 'strategic_goals.id', 'page.id')
    .leftJoin('organizations', 'organizations.id', 'strategic_goals.organization_id')
    .select(GOAL_COLUMNS)
    .select('organizations.name as organization_name');
  return inPageOrder(q, p);
}

/** A page's rows in the list's order (the page's sort keys). */
// biome-ignore lint/suspicious/noExplicitAny: the two page queries differ in their joins and columns.
function inPageOrder<Q extends SelectQueryBuilder<any, any, any>>(q: Q, p: GoalPageParams): Q {
  if (p.byCreated) return q.orderBy('page.k2', 'desc').orderBy('page.id', 'desc') as Q;
  // k0 is 0 in every row unless sorting by status: the merged page is then read in its own order.
  return q
    .$if(p.byStatus, (w) => w.orderBy('page.k0'))
    .orderBy('page.k1')
    .orderBy('page.k2', 'desc')
    .orderBy('page.id') as Q;
}

/**
 * One page as stored list entries (strategic_goals.list_json with the days it holds for, NULL where
 * forgotten) with what the caller's rights are decided from: the owner and the organization.
 */
function pageEntries(db: Db, p: GoalPageParams) {
  const q = db
    .selectFrom(goalPageQuery(db, p).as('page'))
    .innerJoin('strategic_goals', 'strategic_goals.id', 'page.id')
    .select([
      'strategic_goals.id',
      'strategic_goals.list_json',
      'strategic_goals.list_from',
      'strategic_goals.list_until',
      'strategic_goals.user_id',
      'strategic_goals.organization_id',
    ]);
  return inPageOrder(q, p);
}

const entryPage = preparedQuery(pageEntries, { offThread: true });

export interface GoalListEntry {
  id: string;
  list_json: string | null;
  list_from: string | null;
  list_until: string | null;
  user_id: string;
  organization_id: string | null;
}

/** A page of goals as their stored list entries (see {@link pageEntries}). */
export function listGoalEntries(db: Db, o: GoalListOptions): Promise<GoalListEntry[]> {
  return entryPage(db, pageParams(db, o)) as Promise<GoalListEntry[]>;
}

/** These goals with their organization's name, in no particular order (entries to render). */
export function findGoals(db: Db, ids: readonly string[]): Promise<GoalRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return selectGoals(db)
    .where('strategic_goals.id', 'in', [...ids])
    .execute();
}

/** Stores rendered list entries (derived columns only: see tracking-dialect.ts). */
export async function storeListEntry(
  db: Db,
  id: string,
  entry: { list_json: string; list_from: string; list_until: string | null },
): Promise<void> {
  await db.updateTable('strategic_goals').set(entry).where('id', '=', id).execute();
}

/**
 * Up to `limit` goals whose list entry the database forgot (strategic_goals_list_json_missing_idx) or
 * a new day outdated (strategic_goals_list_until_idx).
 */
export async function goalsWithoutListEntry(db: Db, limit: number, today: string): Promise<string[]> {
  const forgotten = await db
    .selectFrom('strategic_goals')
    .select('id')
    .where('list_json', 'is', null)
    .limit(limit)
    .execute();
  if (forgotten.length >= limit) return forgotten.map((r) => r.id);
  const outdated = await db
    .selectFrom('strategic_goals')
    .select('id')
    .where('list_until', 'is not', null)
    .where('list_until', '<=', today)
    .limit(limit - forgotten.length)
    .execute();
  return [...forgotten, ...outdated].map((r) => r.id);
}

/**
 * A page as rows, built plainly for these options: the query-plan tests read it, and the list-entry
 * tests present its rows afresh to compare a page of stored entries with.
 */
export const listGoalsQuery = (db: Db, o: GoalListOptions) => pageWithGoals(db, pageParams(db, o));

export function findGoal(db: Db, id: string) {
  return selectGoals(db).where('strategic_goals.id', '=', id).executeTakeFirst();
}

/** The KPIs of a page of goals, as built for these values (the query-plan tests read it). */
export const listKpisQuery = (db: Db, p: { ids: string[]; max: number }) =>
  db
    .selectFrom('goal_kpis')
    .selectAll()
    .where('goal_id', 'in', p.ids)
    .orderBy('goal_id')
    .orderBy('position')
    .limit(p.max);

const kpisQuery = preparedQuery(listKpisQuery);

/** The KPIs of these goals in their saved order (at most `perGoal` each; read for every page: prepared). */
export function listKpis(db: Db, goalIds: readonly string[], perGoal: number): Promise<GoalKpisTable[]> {
  if (goalIds.length === 0) return Promise.resolve([] as GoalKpisTable[]);
  return kpisQuery(db, { ids: [...goalIds], max: goalIds.length * perGoal });
}

export async function insertGoal(db: Db, row: StrategicGoalsTable): Promise<void> {
  await db.insertInto('strategic_goals').values(row).execute();
}

export async function updateGoal(db: Db, id: string, set: Partial<StrategicGoalsTable>): Promise<void> {
  await db.updateTable('strategic_goals').set(set).where('id', '=', id).execute();
}

export async function deleteGoal(db: Db, id: string): Promise<void> {
  await db.deleteFrom('strategic_goals').where('id', '=', id).execute();
}

/**
 * Replaces the goal's KPI list (run inside the goal's transaction): KPIs left out are deleted, KPIs
 * that stay are updated in place (so their check-ins, which cascade from the KPI, stay), new ones added.
 */
export async function replaceKpis(db: Db, goalId: string, kpis: GoalKpisTable[]): Promise<void> {
  const existing = await db.selectFrom('goal_kpis').select('id').where('goal_id', '=', goalId).execute();
  const keep = new Set(kpis.map((k) => k.id));
  const gone = existing.map((k) => k.id).filter((id) => !keep.has(id));
  if (gone.length) await db.deleteFrom('goal_kpis').where('id', 'in', gone).execute();
  const have = new Set(existing.map((k) => k.id));
  for (const k of kpis.filter((k) => have.has(k.id))) {
    const { id, goal_id: _goal, ...set } = k;
    await db.updateTable('goal_kpis').set(set).where('id', '=', id).execute();
  }
  const added = kpis.filter((k) => !have.has(k.id));
  if (added.length) await db.insertInto('goal_kpis').values(added).execute();
}

export async function setKpiValue(db: Db, kpiId: string, value: number): Promise<void> {
  await db.updateTable('goal_kpis').set({ current_value: value }).where('id', '=', kpiId).execute();
}

/**
 * The open goals of one visibility branch (status not in `closed`), soonest due first, at most
 * `limit` (the owner and organization due-date indexes serve each branch).
 */
export function openGoalsOfBranch(
  db: Db,
  b: GoalVisibilityBranch,
  o: { closedStatuses: readonly string[]; limit: number },
): Promise<StrategicGoalsTable[]> {
  return db
    .selectFrom('strategic_goals')
    .select(GOAL_COLUMNS)
    .where('status', 'not in', [...o.closedStatuses])
    .where(goalBranchPredicate(b))
    .orderBy('due_date')
    .limit(o.limit)
    .execute();
}

/** Of these goals and KPIs, the ones the viewer may see (goals.policy), with their goal's id and title. */
export async function visibleGoalTitles(
  db: Db,
  viewer: ViewerScope,
  o: { goalIds: readonly string[]; kpiIds: readonly string[] },
): Promise<{
  goals: { id: string; title: string }[];
  kpis: { kpi_id: string; goal_id: string; title: string }[];
}> {
  const [goals, kpis] = await Promise.all([
    o.goalIds.length
      ? db
          .selectFrom('strategic_goals')
          .select(['id', 'title'])
          .where('id', 'in', [...o.goalIds])
          .where(visibleGoals(viewer))
          .execute()
      : [],
    o.kpiIds.length
      ? db
          .selectFrom('goal_kpis')
          .innerJoin('strategic_goals', 'strategic_goals.id', 'goal_kpis.goal_id')
          .select([
            'goal_kpis.id as kpi_id',
            'strategic_goals.id as goal_id',
            'strategic_goals.title as title',
          ])
          .where('goal_kpis.id', 'in', [...o.kpiIds])
          .where(visibleGoals(viewer))
          .execute()
      : [],
  ]);
  return { goals, kpis };
}
