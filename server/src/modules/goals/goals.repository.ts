import { type ExpressionBuilder, sql } from 'kysely';
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

/** Visible: the caller's own goals and their organizations' goals (strategic_goals_user_idx / _org_idx). */
function visibleTo(
  eb: ExpressionBuilder<Database, 'strategic_goals'>,
  userId: string,
  orgIds: readonly string[],
) {
  const own = eb('strategic_goals.user_id', '=', userId);
  return orgIds.length ? eb.or([own, eb('strategic_goals.organization_id', 'in', orgIds)]) : own;
}

const STATUS_ORDER = sql<number>`case strategic_goals.status when 'new' then 0 when 'in_progress' then 1 when 'done' then 2 else 3 end`;

export function listGoalsQuery(db: Db, o: GoalListOptions) {
  let q = selectGoals(db).where((eb) => visibleTo(eb, o.userId, o.orgIds));
  if (o.organizationId) q = q.where('strategic_goals.organization_id', '=', o.organizationId);
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
  return q.offset(o.skip).limit(o.limit);
}

export function listGoals(db: Db, o: GoalListOptions) {
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
