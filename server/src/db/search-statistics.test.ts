import { randomUUID } from 'node:crypto';
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, TEST_DB, type TestApp } from '../../test/helpers.ts';
import { expectIndexedPlan, sqlitePlan } from '../../test/query-plan.ts';
import { listTasksQuery } from '../modules/tasks/tasks.repository.ts';

/**
 * Migration 0022: the planner knows how often the tasks `search` filter matches. 2,000 tasks, half
 * of them with the search word in the title: PostgreSQL must expect about half of them (without the
 * expression statistics it guessed a handful and scanned every task for a search page, issue #18).
 * SQLite needs no statistics: its search page reads the branches in index order.
 */
apiSuite('search statistics (0022)', () => {
  let t: TestApp;
  let creator: string;
  const TASKS = 2000;

  beforeAll(async () => {
    t = await createTestApp();
    creator = (await t.createUser('ceo')).id;
    const now = new Date().toISOString();
    const rows = Array.from({ length: TASKS }, (_, i) => ({
      id: randomUUID(),
      title: i % 2 ? `Review the Budget ${i}` : `Plan the offsite ${i}`,
      description: i % 4 === 0 ? 'agenda and travel' : null,
      priority: 'Medium',
      status: 'To Do',
      due_date: null,
      notes: null,
      assigned_to_user_id: null,
      created_by: creator,
      created_at: now,
      updated_at: now,
    }));
    for (let i = 0; i < rows.length; i += 200) {
      await t.ctx.db
        .insertInto('tasks')
        .values(rows.slice(i, i + 200))
        .execute();
    }
    await sql`analyze`.execute(t.ctx.db);
  });
  afterAll(async () => t?.close());

  it('the planner expects the share of tasks a search matches', async () => {
    if (TEST_DB === 'postgres') {
      const plan = await t.ctx.db.executeQuery<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(
        CompiledQuery.raw(
          "explain (format json) select id from tasks where lower(title) like '%budget%' or lower(description) like '%budget%'",
        ),
      );
      const expected = plan.rows[0]['QUERY PLAN'][0].Plan['Plan Rows'];
      expect(expected).toBeGreaterThan(TASKS * 0.3);
      expect(expected).toBeLessThan(TASKS * 0.7);
    } else {
      const query = listTasksQuery(t.ctx.db, {
        userId: creator,
        orgIds: [],
        search: 'budget',
        includeCompleted: false,
        completedStatus: 'Done',
        skip: 0,
        limit: 50,
      });
      expectIndexedPlan(await sqlitePlan(t.ctx.db, query), 'tasks');
    }
  });
});
