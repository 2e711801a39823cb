import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { renderedAgain as renderedAgainIn, storedEntry } from '../../../test/list-entries.ts';
import { apiSuite, createTestApp, TEST_DB, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { expectListsFresh } from '../../../test/fresh-lists.ts';
import { viewerOf } from '../../platform/viewer.ts';
import { rendererOf } from './tasks.list-entry.ts';
import { rightsNeedShares, taskRights } from './tasks.policy.ts';

interface Task {
  id: string;
  title: string;
  goal_id: string | null;
  shared_org_ids: string[];
  assigned_to_user: { id: string; name: string; email: string } | null;
  created_by_user: { id: string; name: string; email: string } | null;
  can_edit: boolean;
  can_delete: boolean;
  can_assign: boolean;
}

/**
 * Stored task list entries (tasks.list_json, migration 0026): written with the task, forgotten by the
 * database when anything they show changes (whoever changes it), rendered again in the background,
 * and never shown stale.
 */
apiSuite('task list entries', () => {
  let t: TestApp;
  let admin: TestUser;
  let ceo: TestUser;
  let member: TestUser;
  let org: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.createUser('admin');
    ceo = await t.createUser('ceo');
    member = await t.createUser('user');
    org = await t.createOrg(ceo, 'Entries Co');
    await t.addToOrg(ceo, org, member, 'user');
  });
  afterAll(() => t.close());
  // After each case's writes, every page equals its rows presented afresh (a stale entry would differ).
  afterEach(() => expectListsFresh(t, [admin, ceo, member], { include_completed: 'true' }));

  const stored = (id: string) => storedEntry(t.ctx.db, 'tasks', id);
  const list = async (u: TestUser): Promise<Task[]> => {
    const res = await t.req({ method: 'GET', url: '/api/tasks/?include_completed=true', token: u.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    return res.json();
  };
  const inList = async (u: TestUser, id: string) => {
    const found = (await list(u)).find((x) => x.id === id);
    expect(found, `task ${id} in the list`).toBeDefined();
    return found as Task;
  };
  const make = async (u: TestUser, body: Record<string, unknown>): Promise<Task> => {
    const res = await t.req({ method: 'POST', url: '/api/tasks/', token: u.token, body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  /** The background renderer stores the entry again after a list met it forgotten. */
  const renderedAgain = (id: string) => renderedAgainIn(t.ctx.db, 'tasks', id);

  it('stores the entry with the task and sends it with each caller’s rights', async () => {
    const task = await make(ceo, {
      title: 'Prepare the board pack',
      assigned_to_user_id: member.id,
      shared_org_ids: [org],
    });
    const entry = JSON.parse((await stored(task.id)) as string);
    const { can_edit: _e, can_delete: _d, can_assign: _a, ...fields } = task;
    expect(entry).toEqual(fields);
    expect(entry).not.toHaveProperty('can_edit');

    const asCreator = await inList(ceo, task.id);
    expect([asCreator.can_edit, asCreator.can_delete, asCreator.can_assign]).toEqual([true, true, true]);
    const asAssignee = await inList(member, task.id);
    expect([asAssignee.can_edit, asAssignee.can_delete, asAssignee.can_assign]).toEqual([true, false, false]);
    expect(asAssignee).toEqual({ ...fields, can_edit: true, can_delete: false, can_assign: false });
  });

  it('renders the entry again in the same write when the task changes', async () => {
    const task = await make(ceo, { title: 'Old title' });
    const res = await t.req({
      method: 'PUT',
      url: `/api/tasks/${task.id}`,
      token: ceo.token,
      body: { title: 'New title' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(JSON.parse((await stored(task.id)) as string).title).toBe('New title');
    expect((await inList(ceo, task.id)).title).toBe('New title');
  });

  it('forgets the entry when the assignee renames themself; the list shows the new name at once', async () => {
    const task = await make(ceo, {
      title: 'Rename me',
      assigned_to_user_id: member.id,
      shared_org_ids: [org],
    });
    const res = await t.req({
      method: 'PATCH',
      url: '/api/users/me',
      token: member.token,
      body: { first_name: 'Renamed', last_name: 'Person' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await stored(task.id)).toBeNull();
    expect((await inList(ceo, task.id)).assigned_to_user?.name).toBe('Renamed Person');
    expect((await renderedAgain(task.id)).assigned_to_user.name).toBe('Renamed Person');
  });

  it('forgets the entry when its goal or organization is deleted (foreign key actions)', async () => {
    const goal = await t.req({
      method: 'POST',
      url: '/api/strategic-goals/',
      token: ceo.token,
      body: { title: 'G', due_date: '2027-01-01', organization_id: null },
    });
    expect(goal.statusCode, goal.body).toBe(201);
    const other = await t.createOrg(ceo, 'Short-lived Co');
    const task = await make(ceo, { title: 'Linked', goal_id: goal.json().id, shared_org_ids: [other] });
    expect(task.goal_id).toBe(goal.json().id);

    const gone = await t.req({
      method: 'DELETE',
      url: `/api/strategic-goals/${goal.json().id}`,
      token: ceo.token,
    });
    expect(gone.statusCode, gone.body).toBe(204);
    expect(await stored(task.id)).toBeNull();
    expect((await inList(ceo, task.id)).goal_id).toBeNull();

    await renderedAgain(task.id);
    const orgGone = await t.req({ method: 'DELETE', url: `/api/organizations/${other}`, token: ceo.token });
    expect(orgGone.statusCode, orgGone.body).toBe(204);
    expect(await stored(task.id)).toBeNull();
    expect((await inList(ceo, task.id)).shared_org_ids).toEqual([]);
  });

  it('forgets the entry when its assignee is deleted', async () => {
    const leaving = await t.createUser('user');
    await t.addToOrg(ceo, org, leaving, 'user');
    const task = await make(ceo, { title: 'Handover', assigned_to_user_id: leaving.id });
    expect(task.assigned_to_user?.id).toBe(leaving.id);
    const res = await t.req({ method: 'DELETE', url: `/api/users/${leaving.id}`, token: admin.token });
    expect(res.statusCode, res.body).toBe(204);
    const listed = await inList(ceo, task.id);
    expect(listed.assigned_to_user).toBeNull();
    expect((await renderedAgain(task.id)).assigned_to_user_id).toBeNull();
  });

  it('storing an entry again leaves cached pages in use (it changes nothing anyone is shown)', async () => {
    const task = await make(ceo, { title: 'Cached page' });
    const get = () => t.req({ method: 'GET', url: '/api/tasks/?limit=7', token: ceo.token });
    await get();
    expect((await get()).headers['x-cache']).toBe('hit');
    await t.ctx.db.updateTable('tasks').set({ list_json: null }).where('id', '=', task.id).execute();
    expect(await rendererOf(t.ctx).catchUp()).toBe(1);
    const again = await get();
    expect(again.headers['x-cache']).toBe('hit');
    expect(again.json().map((x: Task) => x.id)).toContain(task.id);
    // A change to what the page shows still counts.
    await t.req({
      method: 'PUT',
      url: `/api/tasks/${task.id}`,
      token: ceo.token,
      body: { title: 'Renamed' },
    });
    const after = await get();
    expect(after.headers['x-cache']).toBe('miss');
    expect(after.json().find((x: Task) => x.id === task.id).title).toBe('Renamed');
  });

  it.runIf(TEST_DB === 'postgres')(
    "PostgreSQL's change log covers every column of tasks and contacts but the stored entry",
    async () => {
      for (const table of ['tasks', 'contacts']) {
        const all = await sql<{ name: string }>`select column_name as name from information_schema.columns
          where table_schema = current_schema() and table_name = ${table}`.execute(t.ctx.db);
        const logged = await sql<{ name: string }>`select a.attname as name from pg_trigger g
          join pg_attribute a on a.attrelid = g.tgrelid and a.attnum = any (g.tgattr)
          where g.tgrelid = ${table}::regclass and g.tgname = 'read_changes_log'`.execute(t.ctx.db);
        const expected = all.rows.map((r) => r.name).filter((n) => n !== 'list_json');
        expect(logged.rows.map((r) => r.name).sort(), table).toEqual(expected.sort());
      }
    },
  );

  describe('entries written without one (another tool, an older server)', () => {
    it('are rendered from the rows for the list and stored by the catch-up', async () => {
      const a = await make(ceo, { title: 'Imported A', shared_org_ids: [org] });
      const b = await make(ceo, { title: 'Imported B' });
      await t.ctx.db.updateTable('tasks').set({ list_json: null }).where('id', 'in', [a.id, b.id]).execute();
      // The renderer is idle until a list meets a forgotten entry; the catch-up is what start-up runs.
      expect(await rendererOf(t.ctx).catchUp()).toBeGreaterThanOrEqual(2);
      expect(JSON.parse((await stored(a.id)) as string).shared_org_ids).toEqual([org]);
      expect(JSON.parse((await stored(b.id)) as string).title).toBe('Imported B');

      await t.ctx.db.updateTable('tasks').set({ list_json: null }).where('id', '=', a.id).execute();
      expect((await inList(member, a.id)).title).toBe('Imported A');
      expect((await renderedAgain(a.id)).title).toBe('Imported A');
    });
  });
});

describe('rights without share rows', () => {
  it('are the same as with them for every viewer rightsNeedShares leaves out', () => {
    const levels = ['user', 'manager', 'admin'] as const;
    const userLevels = ['user', 'ceo', 'admin', null];
    const tasks = [
      { created_by: 'me', assigned_to_user_id: null },
      { created_by: 'other', assigned_to_user_id: 'me' },
      { created_by: 'other', assigned_to_user_id: null },
    ];
    let checked = 0;
    for (const userLevel of userLevels)
      for (const a of [...levels, null])
        for (const b of [...levels, null]) {
          const memberships = new Map<string, string>();
          if (a) memberships.set('org-a', a);
          if (b) memberships.set('org-b', b);
          const viewer = viewerOf({ id: 'me', user_level: userLevel }, memberships);
          if (rightsNeedShares(viewer)) continue;
          for (const task of tasks)
            for (const shared of [[], ['org-a'], ['org-b'], ['org-a', 'org-b'], ['org-c']]) {
              const { visible: _v, ...withShares } = taskRights(task, shared, viewer);
              const { visible: _w, ...without } = taskRights(task, [], viewer);
              expect(without, JSON.stringify({ userLevel, a, b, task, shared })).toEqual(withShares);
              checked++;
            }
        }
    expect(checked).toBeGreaterThan(50);
  });
});
