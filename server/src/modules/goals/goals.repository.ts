import { type SelectQueryBuilder, sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import { containsPattern, lowerLike } from '../../db/search.ts';
import type { Database, GoalKpisTable, StrategicGoalsTable } from '../../db/types.ts';

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

function selectGoals(db: Db) {
  return db
    .selectFrom('strategic_goals')
    .leftJoin('organizations', 'organizations.id', 'strategic_goals.organization_id')
    .selectAll('strategic_goals')
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
 * One visibility branch: ids and sort keys (`k0` the status rank when sorting by status, `k1` the due
 * date, `k2` the creation time) of at most `n` goals in list order. With the default sort (due date)
 * the branch reads strategic_goals_user_list_idx / strategic_goals_org_list_idx in order and stops
 * after `n` matches; the status filter is checked inside the index.
 */
function branch(db: Db, o: GoalListOptions, where: (q: GoalsQuery) => GoalsQuery, n: number) {
  let q: GoalsQuery = db
    .selectFrom('strategic_goals')
    .select([
      'strategic_goals.id as id',
      (o.sortBy === 'status' ? STATUS_ORDER : sql<number>`0`).as('k0'),
      'strategic_goals.due_date as k1',
      'strategic_goals.created_at as k2',
    ]);
  q = where(q);
  if (o.status) q = q.where('strategic_goals.status', '=', o.status);
  else if (!o.includeCompleted && o.completed.length)
    q = q.where('strategic_goals.status', 'not in', [...o.completed]);
  const pattern = containsPattern(o.search);
  if (pattern) {
    q = q.where((eb) =>
      eb.or([lowerLike('strategic_goals.title', pattern), lowerLike('strategic_goals.description', pattern)]),
    );
  }
  if (o.sortBy === 'created_at') {
    q = q.orderBy('strategic_goals.created_at', 'desc').orderBy('strategic_goals.id', 'desc');
  } else {
    if (o.sortBy === 'status') q = q.orderBy(STATUS_ORDER);
    q = q
      .orderBy('strategic_goals.due_date')
      .orderBy('strategic_goals.created_at', 'desc')
      .orderBy('strategic_goals.id');
  }
  return q.limit(n);
}

/**
 * Visible: the caller's own goals and their organizations' goals. Each branch (own; each organization)
 * gives at most skip + limit rows in list order, which is enough for any row of the page; the union is
 * deduplicated (my goal filed under my organization comes twice), sorted and cut. Filtered to one of
 * the caller's organizations, the list is that organization's branch alone.
 */
export function goalPageQuery(db: Db, o: GoalListOptions) {
  const n = o.skip + o.limit;
  const orgIds = [...new Set(o.orgIds)];
  const org = o.organizationId;
  const parts =
    org && orgIds.includes(org)
      ? [branch(db, o, (q) => q.where('strategic_goals.organization_id', '=', org), n)]
      : [
          branch(
            db,
            o,
            (q) =>
              org
                ? q
                    .where('strategic_goals.user_id', '=', o.userId)
                    .where('strategic_goals.organization_id', '=', org)
                : q.where('strategic_goals.user_id', '=', o.userId),
            n,
          ),
          ...(org ? [] : orgIds).map((id) =>
            branch(db, o, (q) => q.where('strategic_goals.organization_id', '=', id), n),
          ),
        ];
  const branches = parts.map((b, i) => db.selectFrom(b.as(`b${i}`)).selectAll());
  const union = branches.slice(1).reduce((all, b) => all.unionAll(b), branches[0]);
  const q = db.selectFrom(union.as('u')).select(['u.id', 'u.k0', 'u.k1', 'u.k2']).distinct();
  const ordered =
    o.sortBy === 'created_at'
      ? q.orderBy('u.k2', 'desc').orderBy('u.id', 'desc')
      : q.orderBy('u.k0').orderBy('u.k1').orderBy('u.k2', 'desc').orderBy('u.id');
  return ordered.offset(o.skip).limit(o.limit);
}

export function listGoalsQuery(db: Db, o: GoalListOptions) {
  const q = db
    .selectFrom(goalPageQuery(db, o).as('page'))
    .innerJoin('strategic_goals', 'strategic_goals.id', 'page.id')
    .leftJoin('organizations', 'organizations.id', 'strategic_goals.organization_id')
    .selectAll('strategic_goals')
    .select('organizations.name as organization_name');
  return o.sortBy === 'created_at'
    ? q.orderBy('page.k2', 'desc').orderBy('page.id', 'desc')
    : q.orderBy('page.k0').orderBy('page.k1').orderBy('page.k2', 'desc').orderBy('page.id');
}

export function listGoals(db: Db, o: GoalListOptions): Promise<GoalRow[]> {
  return listGoalsQuery(db, o).execute();
}

export function findGoal(db: Db, id: string) {
  return selectGoals(db).where('strategic_goals.id', '=', id).executeTakeFirst();
}

/** The KPIs of these goals in their saved order (at most `perGoal` each). */
export function listKpis(db: Db, goalIds: readonly string[], perGoal: number) {
  if (goalIds.length === 0) return Promise.resolve([] as GoalKpisTable[]);
  return db
    .selectFrom('goal_kpis')
    .selectAll()
    .where('goal_id', 'in', [...goalIds])
    .orderBy('goal_id')
    .orderBy('position')
    .limit(goalIds.length * perGoal)
    .execute();
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

/** Replaces the goal's KPI list (run inside the goal's transaction). */
export async function replaceKpis(db: Db, goalId: string, kpis: GoalKpisTable[]): Promise<void> {
  await db.deleteFrom('goal_kpis').where('goal_id', '=', goalId).execute();
  if (kpis.length) await db.insertInto('goal_kpis').values(kpis).execute();
}
