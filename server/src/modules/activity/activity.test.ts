import { ACTIVITY_ALREADY_UNDONE, ACTIVITY_NOT_UNDOABLE } from '@cc/contract';
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSuite, createTestApp, TEST_DB, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { expectIndexedPlan, sqlitePlan } from '../../../test/query-plan.ts';
import { aiCreatedTask, listActivity, rowsOf } from './activity-test-kit.ts';
import { recordActivity, withoutSecrets } from './activity.ledger.ts';
import { listEntriesQuery } from './activity.repository.ts';

apiSuite('activity ledger', () => {
  let t: TestApp;
  let ceo: TestUser;
  let other: TestUser;
  let admin: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    ceo = await t.createUser('ceo');
    other = await t.createUser('ceo');
    admin = await t.createUser('admin');
  });
  afterAll(() => t.close());

  const undo = (u: TestUser, id: string) =>
    t.req({ method: 'POST', url: `/api/activity/${id}/undo`, token: u.token });
  const entryFor = async (u: TestUser, taskId: string) => {
    const { items } = await listActivity(t, u, '?action=task.created');
    const e = items.find((i) => i.entity_id === taskId);
    if (!e) throw new Error(`no entry for task ${taskId}`);
    return e;
  };
  const taskStatus = async (u: TestUser, id: string) =>
    (await t.req({ method: 'GET', url: `/api/tasks/${id}`, token: u.token })).statusCode;

  describe('accepting a task suggestion', () => {
    it('writes one undoable task.created entry, via ai, with the task as created', async () => {
      const before = (await rowsOf(t, 'task.created')).length;
      const task = await aiCreatedTask(t, ceo, 'Call the EU distributors');
      const rows = (await rowsOf(t, 'task.created')).slice(before);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        actor_user_id: ceo.id,
        via: 'ai',
        entity_type: 'task',
        entity_id: task.id,
        undoable: 1,
      });
      const e = await entryFor(ceo, task.id);
      expect(e.summary).toContain('Call the EU distributors');
      expect(e.after).toMatchObject({ title: 'Call the EU distributors', updated_at: task.updated_at });
      expect(e).toMatchObject({
        undoable: true,
        undone: false,
        can_undo: true,
        actor_name: expect.any(String),
      });
    });
  });

  describe('undo', () => {
    it('deletes the AI-created task, records the undo, and refuses a second undo', async () => {
      const task = await aiCreatedTask(t, ceo);
      const e = await entryFor(ceo, task.id);
      const res = await undo(ceo, e.id);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        action: 'activity.undone',
        entity_id: task.id,
        actor_user_id: ceo.id,
      });
      expect(await taskStatus(ceo, task.id)).toBe(404);
      const after = await entryFor(ceo, task.id);
      expect(after).toMatchObject({ undone: true, can_undo: false });
      const again = await undo(ceo, e.id);
      expect(again.statusCode).toBe(409);
      expect(again.json().detail).toBe(ACTIVITY_ALREADY_UNDONE);
      expect((await rowsOf(t, 'activity.undone')).filter((r) => r.undo_of === e.id)).toHaveLength(1);
    });

    it('lets one of two simultaneous undos land; the other is a 409', async () => {
      const task = await aiCreatedTask(t, ceo);
      const e = await entryFor(ceo, task.id);
      const both = await Promise.all([undo(ceo, e.id), undo(ceo, e.id)]);
      expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      expect(both.find((r) => r.statusCode === 409)?.json().detail).toBe(ACTIVITY_ALREADY_UNDONE);
      expect((await rowsOf(t, 'activity.undone')).filter((r) => r.undo_of === e.id)).toHaveLength(1);
    });

    it('is a 409 naming what changed when the task was edited since, and leaves it alone', async () => {
      const task = await aiCreatedTask(t, ceo);
      const edit = await t.req({
        method: 'PUT',
        url: `/api/tasks/${task.id}`,
        token: ceo.token,
        body: { title: 'Renamed by a person', priority: 'Low' },
      });
      expect(edit.statusCode, edit.body).toBe(200);
      const e = await entryFor(ceo, task.id);
      const res = await undo(ceo, e.id);
      expect(res.statusCode).toBe(409);
      expect(res.json().detail).toMatch(/task was changed since \(title, priority\)/);
      expect(await taskStatus(ceo, task.id)).toBe(200);
      expect((await entryFor(ceo, task.id)).undone).toBe(false);
    });

    it('is a 409 when the task was deleted since', async () => {
      const task = await aiCreatedTask(t, ceo);
      expect(
        (await t.req({ method: 'DELETE', url: `/api/tasks/${task.id}`, token: ceo.token })).statusCode,
      ).toBe(204);
      const res = await undo(ceo, (await entryFor(ceo, task.id)).id);
      expect(res.statusCode).toBe(409);
      expect(res.json().detail).toMatch(/deleted since/);
    });

    it("is a 404 for another user's entry; a platform admin may undo it", async () => {
      const task = await aiCreatedTask(t, ceo);
      const e = await entryFor(ceo, task.id);
      expect((await undo(other, e.id)).statusCode).toBe(404);
      expect((await undo(other, 'no-such-entry')).statusCode).toBe(404);
      expect(await taskStatus(ceo, task.id)).toBe(200);
      const res = await undo(admin, e.id);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().actor_user_id).toBe(admin.id);
      expect(await taskStatus(ceo, task.id)).toBe(404);
    });

    it('is a 409 for an entry that is not undoable', async () => {
      const id = await recordActivity(t.ctx.db, {
        actorUserId: ceo.id,
        via: 'api',
        action: 'auth.sign_in',
        entityType: 'user',
        entityId: ceo.id,
        summary: 'Signed in',
      });
      const res = await undo(ceo, id);
      expect(res.statusCode).toBe(409);
      expect(res.json().detail).toBe(ACTIVITY_NOT_UNDOABLE);
    });
  });

  describe('the list', () => {
    let lister: TestUser;
    /** After the lister's own sign-in: `since` leaves it out, so only the five entries below count. */
    let start = '';
    beforeAll(async () => {
      lister = await t.createUser('user');
      await new Promise((r) => setTimeout(r, 5));
      start = new Date().toISOString();
      for (let i = 0; i < 5; i++) {
        await recordActivity(t.ctx.db, {
          actorUserId: lister.id,
          via: 'api',
          action: i % 2 ? 'note.updated' : 'note.created',
          entityType: i === 4 ? 'advice' : 'note',
          entityId: `n${i}`,
          summary: `entry ${i}`,
        });
      }
    });

    it("shows a user only their own entries, newest first; the admin everyone's, with an actor filter", async () => {
      const mine = await listActivity(t, lister, '?action=note.created');
      expect(mine.items.map((i) => i.summary)).toEqual(['entry 4', 'entry 2', 'entry 0']);
      expect((await listActivity(t, other, '?action=note.created')).items).toEqual([]);
      const forbidden = await t.req({
        method: 'GET',
        url: `/api/activity/?actor=${lister.id}`,
        token: other.token,
      });
      expect(forbidden.statusCode).toBe(403);
      const all = await listActivity(t, admin, '?limit=200');
      const actors = new Set(all.items.map((i) => i.actor_user_id));
      for (const id of [lister.id, ceo.id, other.id, admin.id]) expect(actors.has(id)).toBe(true);
      const theirs = await listActivity(t, admin, `?actor=${lister.id}&since=${start}`);
      expect(theirs.items.map((i) => i.summary)).toEqual([
        'entry 4',
        'entry 3',
        'entry 2',
        'entry 1',
        'entry 0',
      ]);
    });

    it('filters by entity type, action and time', async () => {
      expect((await listActivity(t, lister, '?entity_type=advice')).items.map((i) => i.summary)).toEqual([
        'entry 4',
      ]);
      expect((await listActivity(t, lister, '?action=note.updated')).items.map((i) => i.summary)).toEqual([
        'entry 3',
        'entry 1',
      ]);
      const today = new Date().toISOString().slice(0, 10);
      expect((await listActivity(t, lister, `?since=${today}&until=${today}`)).items).toHaveLength(6);
      expect((await listActivity(t, lister, `?since=${start}`)).items).toHaveLength(5);
      expect((await listActivity(t, lister, '?until=2000-01-01')).items).toHaveLength(0);
      expect((await listActivity(t, lister, '?since=2999-01-01T00:00:00Z')).items).toHaveLength(0);
      const bad = await t.req({
        method: 'GET',
        url: '/api/activity/?since=2026-02-31x',
        token: lister.token,
      });
      expect(bad.statusCode).toBe(422);
    });

    it('reads a page through an index, in order, never sorting the ledger', async () => {
      const own = listEntriesQuery(t.ctx.db, { actor: lister.id, before: 99, limit: 51 });
      const byAction = listEntriesQuery(t.ctx.db, { actor: null, action: 'x', limit: 51 });
      const everyone = listEntriesQuery(t.ctx.db, { actor: null, limit: 51 });
      if (TEST_DB === 'sqlite') {
        const plans = await Promise.all([own, byAction, everyone].map((q) => sqlitePlan(t.ctx.db, q)));
        expectIndexedPlan(plans[0], 'a');
        expect(plans[0].join('\n')).toContain('activity_actor_seq');
        expectIndexedPlan(plans[1], 'a');
        for (const plan of plans) expect(plan.join('\n')).not.toMatch(/TEMP B-TREE/);
        // The undo join is a lookup by key, not a scan.
        expect(plans[0].join('\n')).toMatch(/SEARCH u USING INDEX/);
      } else {
        // A table this small is cheapest to scan: with scans priced out, the plan shows the index it has.
        const plans = await t.ctx.db.transaction().execute(async (trx) => {
          await sql`set local enable_seqscan = off`.execute(trx);
          const out: string[] = [];
          for (const q of [own, byAction, everyone]) {
            const c = q.compile();
            const res = await trx.executeQuery<{ 'QUERY PLAN': string }>(
              CompiledQuery.raw(`explain ${c.sql}`, [...c.parameters]),
            );
            out.push(res.rows.map((r) => r['QUERY PLAN']).join('\n'));
          }
          return out;
        });
        expect(plans[0]).toMatch(/activity_actor_seq/);
        expect(plans[1]).toMatch(/activity_action_seq/);
        for (const plan of plans) expect(plan).not.toMatch(/Seq Scan on activity|\bSort\b/);
      }
    });

    it('pages with a cursor, without gaps or repeats', async () => {
      const p1 = await listActivity(t, lister, `?limit=2&since=${start}`);
      expect(p1.items.map((i) => i.summary)).toEqual(['entry 4', 'entry 3']);
      expect(p1.next_cursor).not.toBeNull();
      const p2 = await listActivity(t, lister, `?limit=2&since=${start}&cursor=${p1.next_cursor}`);
      expect(p2.items.map((i) => i.summary)).toEqual(['entry 2', 'entry 1']);
      const p3 = await listActivity(t, lister, `?limit=2&since=${start}&cursor=${p2.next_cursor}`);
      expect(p3.items.map((i) => i.summary)).toEqual(['entry 0']);
      expect(p3.next_cursor).toBeNull();
    });
  });

  describe('the "AI changes" filter (source)', () => {
    it("source=ai keeps the AI's and runs' entries; source=people keeps the web app's and API clients'", async () => {
      const u = await t.createUser('user');
      for (const via of ['ai', 'run:r-1', 'ui', 'api'] as const) {
        await recordActivity(t.ctx.db, {
          actorUserId: u.id,
          via,
          action: 'note.created',
          entityType: 'note',
          entityId: `n-${via}`,
          summary: `by ${via}`,
        });
      }
      const vias = async (q: string) =>
        (await listActivity(t, u, q)).items.filter((i) => i.action === 'note.created').map((i) => i.via);
      expect(await vias('?source=ai')).toEqual(['run:r-1', 'ai']);
      expect(await vias('?source=people')).toEqual(['api', 'ui']);
      expect((await vias('')).length).toBe(4);
      const bad = await t.req({ method: 'GET', url: '/api/activity/?source=robots', token: u.token });
      expect(bad.statusCode).toBe(422);
    });
  });

  describe('export', () => {
    it('streams CSV and JSON lines to a platform admin, with the filters', async () => {
      const csv = await t.req({
        method: 'GET',
        url: '/api/activity/export?format=csv&action=task.created',
        token: admin.token,
      });
      expect(csv.statusCode).toBe(200);
      expect(csv.headers['content-type']).toMatch(/^text\/csv/);
      expect(csv.headers['content-disposition']).toBe('attachment; filename="activity.csv"');
      const lines = csv.body.trim().split('\r\n');
      expect(lines[0]).toBe(
        'id,ts,actor_user_id,actor_name,via,action,entity_type,entity_id,summary,before,after,undoable,undone',
      );
      const created = await rowsOf(t, 'task.created');
      expect(lines).toHaveLength(created.length + 1);
      expect(lines.slice(1).every((l) => l.includes(',task.created,task,'))).toBe(true);

      const jsonl = await t.req({
        method: 'GET',
        url: '/api/activity/export?format=jsonl',
        token: admin.token,
      });
      expect(jsonl.statusCode).toBe(200);
      expect(jsonl.headers['content-type']).toMatch(/^application\/x-ndjson/);
      const entries = jsonl.body
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      const total = await t.ctx.db
        .selectFrom('activity')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect(entries).toHaveLength(Number(total.n));
      expect(entries[0]).not.toHaveProperty('can_undo');
      expect(entries.some((e) => e.action === 'activity.undone')).toBe(true);
    });

    it('is refused to everyone else', async () => {
      const res = await t.req({ method: 'GET', url: '/api/activity/export?format=csv', token: ceo.token });
      expect(res.statusCode).toBe(403);
      expect(res.json().detail).toBeDefined();
      expect(
        (await t.req({ method: 'GET', url: '/api/activity/export?format=xml', token: admin.token }))
          .statusCode,
      ).toBe(422);
    });
  });

  describe('append-only', () => {
    it('refuses UPDATE and DELETE through the database layer', async () => {
      const [row] = await rowsOf(t, 'task.created');
      await expect(
        t.ctx.db.updateTable('activity').set({ summary: 'rewritten' }).where('id', '=', row.id).execute(),
      ).rejects.toThrow(/append-only/);
      await expect(t.ctx.db.deleteFrom('activity').where('id', '=', row.id).execute()).rejects.toThrow(
        /append-only/,
      );
      await expect(sql`delete from activity`.execute(t.ctx.db)).rejects.toThrow(/append-only/);
      const still = await t.ctx.db
        .selectFrom('activity')
        .selectAll()
        .where('id', '=', row.id)
        .executeTakeFirst();
      expect(still?.summary).toBe(row.summary);
    });

    it("keeps a deleted user's entries with their id", async () => {
      const gone = await t.createUser('user');
      await recordActivity(t.ctx.db, {
        actorUserId: gone.id,
        via: 'api',
        action: 'note.created',
        entityType: 'note',
        summary: 'before deletion',
      });
      const del = await t.req({ method: 'DELETE', url: `/api/users/${gone.id}`, token: admin.token });
      expect(del.statusCode, del.body).toBe(204);
      const theirs = await listActivity(t, admin, `?actor=${gone.id}`);
      expect(theirs.items.map((i) => i.summary)).toContain('before deletion');
      expect(theirs.items[0].actor_name).toBeNull();
    });

    it('never stores secrets in before/after', () => {
      expect(
        withoutSecrets({ email: 'a@b.c', password_hash: 'x', nested: { api_key: 'k', token: 't', ok: 1 } }),
      ).toEqual({ email: 'a@b.c', nested: { ok: 1 } });
    });
  });
});
