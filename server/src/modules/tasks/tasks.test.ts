import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, TEST_DB, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { expectListsFresh } from '../../../test/fresh-lists.ts';
import {
  expectIndexedPlan,
  expectMergedIndexBranches,
  sqlitePlan,
  sqlitePlanTree,
} from '../../../test/query-plan.ts';
import { listTasksQuery, urgentTasksQuery } from './tasks.repository.ts';

interface Task {
  id: string;
  title: string;
  description: string | null;
  priority: string;
  status: string;
  due_date: string | null;
  notes: string | null;
  assigned_to_user_id: string | null;
  assigned_to_user: { id: string; name: string; email: string } | null;
  created_by_user: { id: string; name: string; email: string } | null;
  shared_org_ids: string[];
  can_edit: boolean;
  can_delete: boolean;
  can_assign: boolean;
}

apiSuite('tasks', () => {
  let t: TestApp;
  let ceo: TestUser; // creates org A (org admin)
  let assignee: TestUser; // plain member of A
  let colleague: TestUser; // plain member of A
  let manager: TestUser; // manager of A
  let ceoMember: TestUser; // user_level ceo, plain member of A
  let outsider: TestUser; // org B only
  let waitlisted: TestUser; // waitlisted, invited into A
  let orgA: string;
  let orgB: string;
  beforeAll(async () => {
    t = await createTestApp();
    ceo = await t.createUser('ceo', { first_name: 'Olivia' });
    assignee = await t.createUser('user', { first_name: 'Ben' });
    colleague = await t.createUser('user');
    manager = await t.createUser('user');
    ceoMember = await t.createUser('ceo');
    outsider = await t.createUser('ceo');
    waitlisted = await t.createUser('waitlisted');
    orgA = await t.createOrg(ceo, 'Task Co');
    orgB = await t.createOrg(outsider, 'Other Co');
    await t.addToOrg(ceo, orgA, assignee, 'user');
    await t.addToOrg(ceo, orgA, colleague, 'user');
    await t.addToOrg(ceo, orgA, manager, 'manager');
    await t.addToOrg(ceo, orgA, ceoMember, 'user');
    await t.addToOrg(ceo, orgA, waitlisted, 'user');
  });
  afterAll(() => t.close());
  // After each case's writes, every list page equals its rows presented afresh (stored entries).
  afterEach(() =>
    expectListsFresh(t, [ceo, assignee, colleague, manager, ceoMember, outsider], {
      include_completed: 'true',
    }),
  );

  const create = (u: TestUser | undefined, body: Record<string, unknown>) =>
    t.req({ method: 'POST', url: '/api/tasks/', token: u?.token, body });
  const make = async (u: TestUser, body: Record<string, unknown> = {}): Promise<Task> => {
    const res = await create(u, { title: 'A task', ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const get = (u: TestUser | undefined, id: string) =>
    t.req({ method: 'GET', url: `/api/tasks/${id}`, token: u?.token });
  const list = async (u: TestUser, qs = ''): Promise<Task[]> => {
    const res = await t.req({ method: 'GET', url: `/api/tasks/${qs}`, token: u.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const stored = (id: string) =>
    t.ctx.db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirst();

  it('creates a task with the defaults, canonical priority, people and the creator’s flags', async () => {
    const res = await create(ceo, {
      title: '  Prepare board deck ',
      priority: 'high',
      due_date: '2026-12-01',
    });
    expect(res.statusCode).toBe(201);
    const task: Task = res.json();
    expect(task).toMatchObject({
      title: 'Prepare board deck',
      priority: 'High',
      status: 'To Do',
      due_date: '2026-12-01',
      description: null,
      notes: null,
      assigned_to_user_id: null,
      assigned_to_user: null,
      created_by_user: { id: ceo.id, name: 'Olivia Tester', email: ceo.email },
      shared_org_ids: [],
      can_edit: true,
      can_delete: true,
      can_assign: true,
    });
    expect((await make(ceo)).priority).toBe('Medium');
    const full = await make(ceo, {
      title: 'Full',
      description: 'Desc',
      notes: 'Some **notes**',
      status: 'Pending',
      priority: 'Urgent',
      assigned_to_user_id: assignee.id,
      shared_org_ids: [orgA, orgA],
    });
    expect(full).toMatchObject({
      status: 'Pending',
      priority: 'Urgent',
      notes: 'Some **notes**',
      assigned_to_user: { id: assignee.id, name: 'Ben Tester', email: assignee.email },
      shared_org_ids: [orgA],
    });
    expect((await get(ceo, full.id)).json()).toEqual(full);
  });

  it('validates input with the spec messages', async () => {
    for (const body of [{}, { title: '' }, { title: '   ' }]) {
      const res = await create(ceo, body);
      expect(res.statusCode).toBe(422);
      expect(res.json().detail[0]).toMatchObject({ loc: ['body', 'title'], msg: 'Title is required' });
    }
    const prio = await create(ceo, { title: 'x', priority: 'critical' });
    expect(prio.json().detail[0].msg).toBe('Priority must be Low, Medium, High or Urgent');
    expect((await create(ceo, { title: 'x', status: 'Blocked' })).statusCode).toBe(422);
    expect((await create(ceo, { title: 'x', due_date: '2026-13-01' })).statusCode).toBe(422);
    expect((await create(ceo, { title: 'x', created_by: outsider.id })).statusCode).toBe(422);
    const task = await make(ceo);
    const blank = await t.req({
      method: 'PUT',
      url: `/api/tasks/${task.id}`,
      token: ceo.token,
      body: { title: ' ' },
    });
    expect(blank.json().detail[0].msg).toBe('Title is required');
  });

  it('flags per caller: creator all; assignee edits; org manager edits and assigns; ceo member assigns', async () => {
    const task = await make(ceo, { assigned_to_user_id: assignee.id, shared_org_ids: [orgA] });
    const flags = async (u: TestUser) => {
      const r = await get(u, task.id);
      if (r.statusCode !== 200) return r.statusCode;
      const j: Task = r.json();
      return [j.can_edit, j.can_delete, j.can_assign];
    };
    expect(await flags(ceo)).toEqual([true, true, true]);
    expect(await flags(assignee)).toEqual([true, false, false]);
    expect(await flags(manager)).toEqual([true, false, true]);
    expect(await flags(ceoMember)).toEqual([false, false, true]);
    expect(await flags(colleague)).toEqual([false, false, false]);
    expect(await flags(outsider)).toBe(404);
    expect(await flags(waitlisted)).toBe(403);
    // the same flags in lists
    const inList = (await list(manager)).find((x) => x.id === task.id);
    expect(inList).toMatchObject({ can_edit: true, can_delete: false, can_assign: true });
  });

  it('permission matrix: crafted requests cannot go beyond the flags', async () => {
    type Codes = { edit: number; assign: number; share: number; del: number };
    const rows: [string, TestUser | undefined, Codes][] = [
      ['creator', ceo, { edit: 200, assign: 200, share: 200, del: 204 }],
      ['assignee', assignee, { edit: 200, assign: 403, share: 403, del: 403 }],
      ['org manager', manager, { edit: 200, assign: 200, share: 403, del: 403 }],
      ['ceo member', ceoMember, { edit: 403, assign: 200, share: 403, del: 403 }],
      ['org member', colleague, { edit: 403, assign: 403, share: 403, del: 403 }],
      ['outsider', outsider, { edit: 404, assign: 404, share: 404, del: 404 }],
      ['waitlisted', waitlisted, { edit: 403, assign: 403, share: 403, del: 403 }],
      ['anonymous', undefined, { edit: 401, assign: 401, share: 401, del: 401 }],
    ];
    for (const [who, u, codes] of rows) {
      const task = await make(ceo, {
        title: 'Original',
        assigned_to_user_id: assignee.id,
        shared_org_ids: [orgA],
      });
      const url = `/api/tasks/${task.id}`;
      const edit = await t.req({
        method: 'PUT',
        url,
        token: u?.token,
        body: { title: 'Changed', status: 'Done' },
      });
      expect(edit.statusCode, `edit as ${who}`).toBe(codes.edit);
      const assign = await t.req({
        method: 'PUT',
        url: `${url}/assign`,
        token: u?.token,
        body: { assigned_to_user_id: colleague.id },
      });
      expect(assign.statusCode, `assign as ${who}`).toBe(codes.assign);
      const share = await t.req({
        method: 'POST',
        url: `${url}/share/orgs`,
        token: u?.token,
        body: { ids: [] },
      });
      expect(share.statusCode, `share as ${who}`).toBe(codes.share);
      const row = await stored(task.id);
      expect(row?.title, who).toBe(codes.edit === 200 ? 'Changed' : 'Original');
      expect(row?.assigned_to_user_id, who).toBe(codes.assign === 200 ? colleague.id : assignee.id);
      const shares = await t.ctx.db
        .selectFrom('task_shares')
        .select('organization_id')
        .where('task_id', '=', task.id)
        .execute();
      expect(shares.length, who).toBe(codes.share === 200 ? 0 : 1);
      const del = await t.req({ method: 'DELETE', url, token: u?.token });
      expect(del.statusCode, `delete as ${who}`).toBe(codes.del);
      expect(await stored(task.id), who).toEqual(codes.del === 204 ? undefined : expect.anything());
    }
  });

  it('PUT changes only the fields sent; a new assignee through PUT needs can_assign', async () => {
    const task = await make(ceo, {
      title: 'T',
      description: 'D',
      notes: 'N',
      assigned_to_user_id: assignee.id,
    });
    const res = await t.req({
      method: 'PUT',
      url: `/api/tasks/${task.id}`,
      token: assignee.token,
      body: { status: 'In Progress' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'In Progress', title: 'T', description: 'D', notes: 'N' });
    const clear = await t.req({
      method: 'PUT',
      url: `/api/tasks/${task.id}`,
      token: ceo.token,
      body: { description: null, due_date: '2026-02-01', priority: 'low' },
    });
    expect(clear.json()).toMatchObject({ description: null, due_date: '2026-02-01', priority: 'Low' });
    const sameAssignee = await t.req({
      method: 'PUT',
      url: `/api/tasks/${task.id}`,
      token: assignee.token,
      body: { assigned_to_user_id: assignee.id, notes: 'mine' },
    });
    expect(sameAssignee.statusCode).toBe(200);
    const steal = await t.req({
      method: 'PUT',
      url: `/api/tasks/${task.id}`,
      token: assignee.token,
      body: { assigned_to_user_id: colleague.id },
    });
    expect(steal.statusCode).toBe(403);
    const viaPut = await t.req({
      method: 'PUT',
      url: `/api/tasks/${task.id}`,
      token: ceo.token,
      body: { assigned_to_user_id: colleague.id },
    });
    expect(viaPut.json().assigned_to_user_id).toBe(colleague.id);
  });

  it('assignees must be the caller or an approved member of one of the caller’s organizations', async () => {
    const task = await make(ceo);
    const assign = (u: TestUser, to: string | null) =>
      t.req({
        method: 'PUT',
        url: `/api/tasks/${task.id}/assign`,
        token: u.token,
        body: { assigned_to_user_id: to },
      });
    for (const to of [outsider.id, waitlisted.id, 'no-such-user']) {
      const res = await assign(ceo, to);
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toBe('The assignee must be you or a member of one of your organizations.');
    }
    expect((await create(ceo, { title: 'x', assigned_to_user_id: outsider.id })).statusCode).toBe(400);
    expect((await assign(ceo, ceo.id)).json().assigned_to_user_id).toBe(ceo.id);
    const ok = await assign(ceo, assignee.id);
    expect(ok.json().assigned_to_user).toMatchObject({ id: assignee.id, email: assignee.email });
    expect((await get(assignee, task.id)).statusCode).toBe(200);
    const unassigned = await assign(ceo, null);
    expect(unassigned.json()).toMatchObject({ assigned_to_user_id: null, assigned_to_user: null });
    // the former assignee no longer sees a task that is not shared with them
    expect((await get(assignee, task.id)).statusCode).toBe(404);
    // a user without organizations may only assign to themselves
    const loner = await t.createUser('user');
    const own = await make(loner, { assigned_to_user_id: loner.id });
    expect(own.assigned_to_user_id).toBe(loner.id);
    expect((await create(loner, { title: 'x', assigned_to_user_id: ceo.id })).statusCode).toBe(400);
  });

  it('shares with the creator’s organizations only; the set is replaced; GET …/shares names them', async () => {
    const task = await make(ceo);
    expect((await get(colleague, task.id)).statusCode).toBe(404);
    const share = (ids: string[]) =>
      t.req({ method: 'POST', url: `/api/tasks/${task.id}/share/orgs`, token: ceo.token, body: { ids } });
    const foreign = await share([orgA, orgB]);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().detail).toBe('You can only share with organizations you belong to.');
    const orgC = await t.createOrg(ceo, 'Another Co');
    const res = await share([orgC, orgA]);
    expect(res.statusCode).toBe(200);
    expect([...res.json().shared_org_ids].sort()).toEqual([orgA, orgC].sort());
    expect((await get(colleague, task.id)).statusCode).toBe(200);
    const names = await t.req({ method: 'GET', url: `/api/tasks/${task.id}/shares`, token: colleague.token });
    expect(names.json()).toEqual([
      { id: orgC, name: 'Another Co' },
      { id: orgA, name: 'Task Co' },
    ]);
    expect((await share([orgC])).json().shared_org_ids).toEqual([orgC]);
    expect((await get(colleague, task.id)).statusCode).toBe(404);
    const outsiderShares = await t.req({
      method: 'GET',
      url: `/api/tasks/${task.id}/shares`,
      token: outsider.token,
    });
    expect(outsiderShares.statusCode).toBe(404);
    expect((await share([])).json().shared_org_ids).toEqual([]);
  });

  it('lists visible tasks with search, filters, a stable order and pages', async () => {
    const u = await t.createUser('ceo');
    const org = await t.createOrg(u, 'List Co');
    const peer = await t.createUser('user');
    await t.addToOrg(u, org, peer);
    const tasks = {
      soon: await make(u, { title: 'Call investors', due_date: '2026-03-01', priority: 'high' }),
      later: await make(u, { title: 'Write memo', description: 'About INVESTORS', due_date: '2026-04-01' }),
      none1: await make(u, { title: 'No date old' }),
      none2: await make(u, { title: 'No date new', priority: 'low' }),
      done: await make(u, { title: 'Finished', status: 'Done', due_date: '2026-01-01' }),
      peerShared: await make(peer, { title: 'Peer shared', due_date: '2026-03-15', shared_org_ids: [org] }),
      peerPrivate: await make(peer, { title: 'Peer private', due_date: '2026-03-02' }),
      assignedToU: await make(peer, { title: 'For u', assigned_to_user_id: u.id, due_date: '2026-05-01' }),
    };
    await t.ctx.db
      .updateTable('tasks')
      .set({ created_at: '2026-01-01T00:00:00.000Z' })
      .where('id', '=', tasks.none1.id)
      .execute();
    await t.ctx.db
      .updateTable('tasks')
      .set({ created_at: '2026-01-02T00:00:00.000Z' })
      .where('id', '=', tasks.none2.id)
      .execute();
    const names = (rows: Task[]) =>
      rows.map((r) => Object.keys(tasks).find((k) => tasks[k as keyof typeof tasks].id === r.id));
    expect(names(await list(u))).toEqual(['soon', 'peerShared', 'later', 'assignedToU', 'none2', 'none1']);
    expect(names(await list(u, '?include_completed=true'))).toEqual([
      'done',
      'soon',
      'peerShared',
      'later',
      'assignedToU',
      'none2',
      'none1',
    ]);
    expect(names(await list(u, '?status=Done'))).toEqual(['done']);
    expect(names(await list(u, `?status=${encodeURIComponent('To Do')}`))).toEqual([
      'soon',
      'peerShared',
      'later',
      'assignedToU',
      'none2',
      'none1',
    ]);
    expect(names(await list(u, '?priority=low'))).toEqual(['none2']);
    expect(names(await list(u, '?priority=High'))).toEqual(['soon']);
    expect(names(await list(u, '?search=investors'))).toEqual(['soon', 'later']);
    expect(names(await list(u, `?assignedTo=${u.id}`))).toEqual(['assignedToU']);
    // the assignee filter never reaches beyond what the caller may see
    expect(names(await list(u, `?assignedTo=${peer.id}`))).toEqual([]);
    expect(names(await list(u, '?skip=2&limit=3'))).toEqual(['later', 'assignedToU', 'none2']);
    expect(names(await list(peer))).toEqual(['peerPrivate', 'peerShared', 'assignedToU']);
    expect((await t.req({ method: 'GET', url: '/api/tasks/?limit=201', token: u.token })).statusCode).toBe(
      422,
    );
    expect(
      (await t.req({ method: 'GET', url: '/api/tasks/?priority=asap', token: u.token })).statusCode,
    ).toBe(422);
    expect((await t.req({ method: 'GET', url: '/api/tasks/', token: waitlisted.token })).statusCode).toBe(
      403,
    );
    expect((await t.req({ method: 'GET', url: '/api/tasks/' })).statusCode).toBe(401);
  });

  it('merges the visibility branches: each task once, share copies follow edits, pages agree', async () => {
    const u = await t.createUser('user');
    const peer = await t.createUser('ceo');
    const org1 = await t.createOrg(peer, 'Branch One');
    const org2 = await t.createOrg(peer, 'Branch Two');
    await t.addToOrg(peer, org1, u);
    await t.addToOrg(peer, org2, u);
    // visible to u through every branch at once: creator, assignee and two shared organizations
    const everywhere = await make(u, {
      title: 'Everywhere',
      due_date: '2026-06-01',
      assigned_to_user_id: u.id,
      shared_org_ids: [org1, org2],
    });
    const viaShare = await make(peer, { title: 'Via share', due_date: '2026-06-02', shared_org_ids: [org2] });
    for (let i = 0; i < 6; i++) {
      await make(peer, { title: `Shared ${i}`, due_date: `2026-07-0${i + 1}`, shared_org_ids: [org1] });
      await make(u, { title: `Own ${i}`, due_date: i % 2 ? `2026-06-1${i}` : null });
    }
    const all = await list(u);
    const ids = all.map((x) => x.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(all.filter((x) => x.id === everywhere.id)).toHaveLength(1);
    expect(all.length).toBe(14);
    // every page equals the same slice of the whole list
    for (const [skip, limit] of [
      [0, 1],
      [1, 3],
      [4, 5],
      [9, 5],
      [13, 4],
    ]) {
      expect((await list(u, `?skip=${skip}&limit=${limit}`)).map((x) => x.id)).toEqual(
        ids.slice(skip, skip + limit),
      );
    }
    // the copies on the share rows follow the task: a new due date moves it, Done hides it
    const put = (id: string, body: Record<string, unknown>) =>
      t.req({ method: 'PUT', url: `/api/tasks/${id}`, token: peer.token, body });
    expect((await put(viaShare.id, { due_date: '2027-01-01' })).statusCode).toBe(200);
    const moved = await list(u);
    expect(moved.findIndex((x) => x.id === viaShare.id)).toBe(
      moved.filter((x) => x.due_date !== null).length - 1,
    );
    expect((await list(u, '?priority=Urgent')).map((x) => x.id)).toEqual([]);
    expect((await put(viaShare.id, { priority: 'Urgent' })).statusCode).toBe(200);
    expect((await list(u, '?priority=Urgent')).map((x) => x.id)).toEqual([viaShare.id]);
    expect((await put(viaShare.id, { status: 'Done' })).statusCode).toBe(200);
    expect((await list(u)).map((x) => x.id)).not.toContain(viaShare.id);
    expect((await list(u, '?status=Done')).map((x) => x.id)).toEqual([viaShare.id]);
    const copies = await t.ctx.db
      .selectFrom('task_shares')
      .select(['task_due_date', 'task_status', 'task_priority'])
      .where('task_id', '=', viaShare.id)
      .execute();
    expect(copies).toEqual([{ task_due_date: '2027-01-01', task_status: 'Done', task_priority: 'Urgent' }]);
    // re-sharing writes the copies of the new share rows too
    const reshare = await t.req({
      method: 'POST',
      url: `/api/tasks/${viaShare.id}/share/orgs`,
      token: peer.token,
      body: { ids: [org1] },
    });
    expect(reshare.statusCode).toBe(200);
    expect(
      await t.ctx.db
        .selectFrom('task_shares')
        .select(['organization_id', 'task_due_date', 'task_status', 'task_priority'])
        .where('task_id', '=', viaShare.id)
        .execute(),
    ).toEqual([
      { organization_id: org1, task_due_date: '2027-01-01', task_status: 'Done', task_priority: 'Urgent' },
    ]);
    // an assignee filter still sees shared tasks of that person
    const forPeer = await make(u, { title: 'For peer', assigned_to_user_id: peer.id });
    const peerShared = await make(peer, {
      title: 'Peer own shared',
      assigned_to_user_id: peer.id,
      shared_org_ids: [org1],
    });
    await make(peer, { title: 'Peer private', assigned_to_user_id: peer.id });
    expect((await list(u, `?assignedTo=${peer.id}`)).map((x) => x.title)).toEqual([
      peerShared.title,
      forPeer.title,
    ]);
  });

  it('pages 100 by default', async () => {
    const u = await t.createUser('user');
    for (let i = 0; i < 102; i++) await make(u, { title: `t${i}` });
    expect((await list(u)).length).toBe(100);
    expect((await list(u, '?skip=100')).length).toBe(2);
  });

  it('urgent tasks: open High tasks only (not Urgent, Done or Cancelled), by due date with none last, at most 3', async () => {
    const u = await t.createUser('ceo');
    const org = await t.createOrg(u, 'Urgent Co');
    const peer = await t.createUser('user');
    await t.addToOrg(u, org, peer);
    const tasks = {
      highSoon: await make(u, { title: 'h1', priority: 'high', due_date: '2026-02-01' }),
      highNone: await make(u, { title: 'h2', priority: 'High' }),
      highLate: await make(u, { title: 'h3', priority: 'High', due_date: '2026-09-01' }),
      highShared: await make(peer, {
        title: 'h4',
        priority: 'High',
        due_date: '2026-03-01',
        shared_org_ids: [org],
      }),
      highDone: await make(u, { title: 'h5', priority: 'High', status: 'Done' }),
      highCancelled: await make(u, { title: 'h6', priority: 'High', status: 'Cancelled' }),
      urgent: await make(u, { title: 'u1', priority: 'Urgent', due_date: '2026-01-01' }),
      medium: await make(u, { title: 'm', priority: 'Medium', due_date: '2026-01-01' }),
      peerPrivate: await make(peer, { title: 'p', priority: 'High' }),
    };
    const names = (rows: Task[]) =>
      rows.map((r) => Object.keys(tasks).find((k) => tasks[k as keyof typeof tasks].id === r.id));
    const urgent = async (qs = '') => {
      const res = await t.req({ method: 'GET', url: `/api/tasks/urgent${qs}`, token: u.token });
      expect(res.statusCode, res.body).toBe(200);
      return names(res.json());
    };
    expect(await urgent()).toEqual(['highSoon', 'highShared', 'highLate']);
    expect(await urgent('?limit=10')).toEqual(['highSoon', 'highShared', 'highLate', 'highNone']);
    expect(
      (await t.req({ method: 'GET', url: '/api/tasks/urgent?limit=0', token: u.token })).statusCode,
    ).toBe(422);
    expect(
      (await t.req({ method: 'GET', url: '/api/tasks/urgent', token: waitlisted.token })).statusCode,
    ).toBe(403);
  });

  // PostgreSQL's planner may prefer a sequential scan on tiny tables, so the plan is checked on SQLite.
  it.skipIf(TEST_DB === 'postgres')('the list and urgent queries are served by indexes', async () => {
    const base = {
      userId: ceo.id,
      orgIds: [orgA],
      includeCompleted: false,
      completedStatus: 'Done',
      skip: 0,
      limit: 50,
    };
    // Each visibility branch reads its index in list order; SQLite merges them and stops at the page.
    for (const [opts, branches] of [
      [base, 3],
      [{ ...base, orgIds: [] }, 2],
      [{ ...base, orgIds: [orgA, orgB], status: 'Done', priority: 'High' }, 4],
      [{ ...base, search: 'x', includeCompleted: true, skip: 100 }, 3],
      // an assignee filter reads that person's tasks only
      [{ ...base, search: 'x', priority: 'High', assignedTo: assignee.id }, 1],
    ] as const) {
      const tree = await sqlitePlanTree(t.ctx.db, listTasksQuery(t.ctx.db, opts));
      expectMergedIndexBranches(tree, branches, ['tasks', 'task_shares']);
      expectIndexedPlan(await sqlitePlan(t.ctx.db, listTasksQuery(t.ctx.db, opts)), 'tasks');
    }
    const urgent = urgentTasksQuery(t.ctx.db, {
      userId: ceo.id,
      orgIds: [orgA, orgB],
      priorities: ['High'],
      closedStatuses: ['Done', 'Cancelled'],
      limit: 3,
    });
    expectIndexedPlan(await sqlitePlan(t.ctx.db, urgent), 'tasks');
  });
});
