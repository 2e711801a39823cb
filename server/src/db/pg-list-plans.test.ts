import { randomUUID } from 'node:crypto';
import { type Compilable, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, TEST_DB, type TestApp, type TestUser } from '../../test/helpers.ts';
import { expectIndexedPlan, sqlitePlan } from '../../test/query-plan.ts';
import { listKpisQuery } from '../modules/goals/goals.repository.ts';
import { listTasksQuery } from '../modules/tasks/tasks.repository.ts';

/**
 * Migration 0025 (issue #18): on PostgreSQL the list pages plan with random_page_cost 1.1, so the KPIs
 * of a page of goals are read through goal_kpis_goal_idx (with the default 4.0 the planner scanned
 * the whole table), and a rare word in the tasks `search` is found through the trigram indexes
 * instead of walking every visible task. The search keeps its exact substring semantics on both
 * engines. Enough rows that PostgreSQL's choices are the ones of a real workspace.
 */
apiSuite('list plans (0025)', () => {
  let t: TestApp;
  let owner: TestUser;
  let other: TestUser;
  let orgId: string;
  const GOALS = 4000;
  const TASKS = 16_000;
  const goalIds: string[] = [];
  /** The tasks shared with the owner's organization (the ones the searches may return). */
  const tasks: { id: string; title: string; description: string | null }[] = [];

  /** Titles and descriptions the searches below look for, among routine ones. */
  function taskText(i: number): { title: string; description: string | null } {
    if (i % 1000 === 7) return { title: `Pay the Zephyr invoice 50% now (${i})`, description: null };
    if (i === 42) return { title: 'under_score and back\\slash', description: 'odd one' };
    if (i % 500 === 3) return { title: `Routine item ${i}`, description: 'mentions ZEPHYR quietly' };
    return { title: `Routine item ${i}`, description: i % 3 ? null : 'routine work' };
  }

  /**
   * As in a busy workspace, the caller sees most tasks through an organization (a colleague created
   * them and shared two in three, the rows above among them).
   */
  const shared = (i: number) => i % 3 !== 1 || i % 1000 === 7 || i === 42 || i % 500 === 3;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.createUser('ceo');
    other = await t.createUser('ceo');
    orgId = await t.createOrg(owner);
    const now = new Date().toISOString();
    const goals = Array.from({ length: GOALS }, (_, i) => ({
      id: randomUUID(),
      user_id: owner.id,
      organization_id: null,
      title: `Goal ${i}`,
      description: null,
      due_date: '2027-01-01',
      status: 'new',
      created_at: now,
      updated_at: now,
    }));
    for (let i = 0; i < goals.length; i += 500) {
      await t.ctx.db
        .insertInto('strategic_goals')
        .values(goals.slice(i, i + 500))
        .execute();
    }
    goalIds.push(...goals.map((g) => g.id));
    const kpis = goals.flatMap((g) =>
      [0, 1].map((position) => ({
        id: randomUUID(),
        goal_id: g.id,
        position,
        name: `KPI ${position}`,
        current_value: 1,
        target_value: 10,
        unit: '%',
        direction: 'higher_is_better',
      })),
    );
    for (let i = 0; i < kpis.length; i += 1000) {
      await t.ctx.db
        .insertInto('goal_kpis')
        .values(kpis.slice(i, i + 1000))
        .execute();
    }
    const rows = Array.from({ length: TASKS }, (_, i) => ({
      id: randomUUID(),
      ...taskText(i),
      priority: 'Medium',
      status: 'To Do',
      due_date: null,
      notes: null,
      assigned_to_user_id: null,
      created_by: other.id,
      created_at: new Date(Date.parse(now) - i * 1000).toISOString(),
      updated_at: now,
    }));
    for (let i = 0; i < rows.length; i += 500) {
      await t.ctx.db
        .insertInto('tasks')
        .values(rows.slice(i, i + 500))
        .execute();
    }
    const visible = rows.filter((_, i) => shared(i));
    const shares = visible.map((r) => ({
      task_id: r.id,
      organization_id: orgId,
      created_at: now,
      task_due_date: r.due_date,
      task_created_at: r.created_at,
      task_status: r.status,
      task_priority: r.priority,
    }));
    for (let i = 0; i < shares.length; i += 500) {
      await t.ctx.db
        .insertInto('task_shares')
        .values(shares.slice(i, i + 500))
        .execute();
    }
    tasks.push(...visible);
    await sql`analyze`.execute(t.ctx.db);
  });
  afterAll(async () => t?.close());

  /** PostgreSQL's plan on a connection of its own: it gets the database's settings as they are now. */
  async function pgPlanNodes(
    query: Compilable,
  ): Promise<{ type: string; relation?: string; index?: string }[]> {
    if (t.config.db.kind !== 'postgres') throw new Error('PostgreSQL only');
    const client = new pg.Client({ connectionString: t.config.db.url });
    await client.connect();
    try {
      const c = query.compile();
      const res = await client.query(`explain (format json) ${c.sql}`, [...c.parameters]);
      const nodes: { type: string; relation?: string; index?: string }[] = [];
      const walk = (n: Record<string, unknown>) => {
        nodes.push({
          type: n['Node Type'] as string,
          relation: n['Relation Name'] as string | undefined,
          index: n['Index Name'] as string | undefined,
        });
        for (const child of (n.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
      };
      walk(res.rows[0]['QUERY PLAN'][0].Plan);
      return nodes;
    } finally {
      await client.end();
    }
  }

  it('reads the KPIs of a page of goals through goal_kpis_goal_idx', async () => {
    const query = listKpisQuery(t.ctx.db, { ids: goalIds.slice(100, 150), max: 150 });
    if (TEST_DB === 'postgres') {
      const nodes = await pgPlanNodes(query);
      const scans = nodes.filter((n) => n.type === 'Seq Scan').map((n) => n.relation);
      expect(scans, JSON.stringify(nodes)).not.toContain('goal_kpis');
      expect(nodes.map((n) => n.index)).toContain('goal_kpis_goal_idx');
    } else {
      expectIndexedPlan(await sqlitePlan(t.ctx.db, query), 'goal_kpis');
    }
    const rows = await query.execute();
    expect(rows).toHaveLength(100);
  });

  it('finds a rare search word through an index (on PostgreSQL the trigram indexes)', async () => {
    const query = listTasksQuery(t.ctx.db, {
      userId: owner.id,
      orgIds: [orgId],
      search: 'zephyr',
      includeCompleted: false,
      completedStatus: 'Done',
      skip: 0,
      limit: 50,
    });
    if (TEST_DB === 'postgres') {
      const indexes = (await pgPlanNodes(query)).map((n) => n.index).filter(Boolean);
      expect(indexes).toContain('tasks_title_trgm_idx');
      expect(indexes).toContain('tasks_description_trgm_idx');
    } else {
      // SQLite walks each visibility branch's index in list order (0003) and needs no other index.
      expectIndexedPlan(await sqlitePlan(t.ctx.db, query), 'tasks');
    }
  });

  it('search keeps its case-insensitive substring semantics (%, _ and \\ are plain text)', async () => {
    for (const search of [
      'zephyr',
      'ZEPHYR INVOICE',
      '50%',
      'under_score',
      'r_s',
      'back\\slash',
      'item 29',
    ]) {
      const res = await t.req({
        method: 'GET',
        url: `/api/tasks/?limit=200&search=${encodeURIComponent(search)}`,
        token: owner.token,
      });
      expect(res.statusCode, res.body).toBe(200);
      const got = (res.json() as { id: string }[]).map((x) => x.id).sort();
      const s = search.toLowerCase();
      const expected = tasks
        .filter((x) => x.title.toLowerCase().includes(s) || x.description?.toLowerCase().includes(s))
        .map((x) => x.id)
        .sort();
      expect(expected.length, search).toBeGreaterThan(0);
      expect(got, search).toEqual(expected);
    }
  });
});
