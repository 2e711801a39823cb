import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_DB, type TestApp, type TestUser } from '../../test/helpers.ts';
import type { ChangeTracker } from './change-tracker.ts';
import { cascadeReach } from './change-tracker.ts';

// SQLite's tracker (PostgreSQL's change feed: pg-change-feed.test.ts).
describe.skipIf(TEST_DB !== 'sqlite')('change tracker (SQLite)', () => {
  let t: TestApp;
  let changes: ChangeTracker;
  let file: string;
  let ceo: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    changes = t.ctx.changes as ChangeTracker;
    file = t.config.db.kind === 'sqlite' ? t.config.db.file : '';
    ceo = await t.createUser('ceo');
  });
  afterAll(() => t.close());

  const newTask = async (title: string) => {
    const res = await t.req({ method: 'POST', url: '/api/tasks/', token: ceo.token, body: { title } });
    expect(res.statusCode).toBe(201);
    return res.json().id as string;
  };

  it('a write through the data layer marks its table, and only tables it can reach', async () => {
    const stamp = changes.stamp();
    await t.ctx.db.updateTable('journals').set({ content: 'x' }).where('id', '=', 'none').execute();
    expect(changes.unchangedSince(stamp, ['journals'])).toBe(false);
    expect(changes.unchangedSince(stamp, ['tasks', 'contacts'])).toBe(true);
  });

  it('reads mark nothing', async () => {
    const stamp = changes.stamp();
    await t.ctx.db.selectFrom('tasks').selectAll().execute();
    await sql`select count(*) from journals`.execute(t.ctx.db);
    expect(changes.unchangedSince(stamp, ['tasks', 'journals'])).toBe(true);
  });

  it('a raw write marks the table it names; one it cannot read marks everything', async () => {
    let stamp = changes.stamp();
    await sql`update tasks set notes = notes where id = 'none'`.execute(t.ctx.db);
    expect(changes.unchangedSince(stamp, ['tasks'])).toBe(false);
    expect(changes.unchangedSince(stamp, ['journals'])).toBe(true);
    stamp = changes.stamp();
    await sql`create temp table scratch (x)`.execute(t.ctx.db);
    expect(changes.unchangedSince(stamp, ['journals'])).toBe(false);
  });

  it('deleting a user marks the tables its foreign keys cascade into', async () => {
    const reach = cascadeReach(new SQLite(file, { readonly: true }));
    expect(reach.get('users')).toEqual(
      expect.arrayContaining(['tasks', 'journals', 'sessions', 'task_shares']),
    );
    expect(reach.get('organizations')).toEqual(
      expect.arrayContaining(['organization_members', 'task_shares']),
    );
    // tasks → task_shares through a foreign key, → search_documents through the search triggers.
    expect(reach.get('tasks')).toEqual(expect.arrayContaining(['task_shares', 'search_documents']));

    const doomed = await t.createUser('user');
    const stamp = changes.stamp();
    await t.ctx.db.deleteFrom('users').where('id', '=', doomed.id).execute();
    expect(changes.unchangedSince(stamp, ['task_shares'])).toBe(false);
    expect(changes.unchangedSince(stamp, ['journals'])).toBe(false);
  });

  it('a transaction marks its tables again when it commits, so a read during it is not kept', async () => {
    let duringStamp = 0;
    await t.ctx.db.transaction().execute(async (trx) => {
      await trx.updateTable('contacts').set({ name: 'x' }).where('id', '=', 'none').execute();
      duringStamp = changes.stamp();
      expect(changes.unchangedSince(duringStamp, ['contacts'])).toBe(true);
    });
    expect(changes.unchangedSince(duringStamp, ['contacts'])).toBe(false);
  });

  it("another connection's commit to the file marks everything, so a cached page is read again", async () => {
    const id = await newTask('Seen by the server');
    const list = () => t.req({ method: 'GET', url: '/api/tasks/', token: ceo.token });
    await list();
    expect((await list()).headers['x-cache']).toBe('hit');
    const stamp = changes.stamp();
    const other = new SQLite(file);
    other.prepare('update tasks set title = ? where id = ?').run('Changed elsewhere', id);
    other.close();
    // Other connections are looked for once per event-loop turn.
    await new Promise((r) => setImmediate(r));
    expect(changes.unchangedSince(stamp, ['organizations'])).toBe(false);
    const res = await list();
    expect(res.headers['x-cache']).toBe('miss');
    expect(res.json().find((x: { id: string }) => x.id === id).title).toBe('Changed elsewhere');
  });
});
