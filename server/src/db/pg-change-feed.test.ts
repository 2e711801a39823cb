import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_DB, type TestApp, type TestUser } from '../../test/helpers.ts';
import { PgChangeFeed } from './pg-change-feed.ts';

/**
 * PostgreSQL's read cache learns other instances' commits from the change log (migration 0024). A
 * plain pg client stands in for another instance: its writes bypass this app's data layer entirely.
 */
describe.skipIf(TEST_DB !== 'postgres')('read cache on PostgreSQL', () => {
  let t: TestApp;
  let ceo: TestUser;
  let other: pg.Client;
  let url: string;

  beforeAll(async () => {
    t = await createTestApp();
    ceo = await t.createUser('ceo');
    url = t.config.db.kind === 'postgres' ? t.config.db.url : '';
    other = new pg.Client({ connectionString: url });
    await other.connect();
  });
  afterAll(async () => {
    await other.end();
    await t.close();
  });

  const list = () => t.req({ method: 'GET', url: '/api/tasks/', token: ceo.token });
  const titleOf = (res: { json(): unknown }, id: string) =>
    (res.json() as { id: string; title: string }[]).find((x) => x.id === id)?.title;
  const newTask = async (title: string) => {
    const res = await t.req({ method: 'POST', url: '/api/tasks/', token: ceo.token, body: { title } });
    expect(res.statusCode).toBe(201);
    return res.json().id as string;
  };

  it("another instance's commit is seen by the next request, its open transaction is not", async () => {
    const id = await newTask('Before');
    await list();
    expect((await list()).headers['x-cache']).toBe('hit');

    await other.query('begin');
    await other.query('update tasks set title = $1 where id = $2', ['Changed elsewhere', id]);
    // Not committed: nobody can read it yet, so the cached page is still the truth.
    const during = await list();
    expect(during.headers['x-cache']).toBe('hit');
    expect(titleOf(during, id)).toBe('Before');

    await other.query('commit');
    const after = await list();
    expect(after.headers['x-cache']).toBe('miss');
    expect(titleOf(after, id)).toBe('Changed elsewhere');
    expect((await list()).headers['x-cache']).toBe('hit');
  });

  it('a rolled-back write leaves the cached page in use', async () => {
    const id = await newTask('Kept');
    await list();
    await other.query('begin');
    await other.query('update tasks set title = $1 where id = $2', ['Never happened', id]);
    await other.query('rollback');
    const res = await list();
    expect(res.headers['x-cache']).toBe('hit');
    expect(titleOf(res, id)).toBe('Kept');
  });

  it("a cascade from another instance's delete counts for the child table", async () => {
    const feed = t.ctx.changes as PgChangeFeed;
    const doomed = await t.createUser('user');
    await t.req({ method: 'POST', url: '/api/tasks/', token: doomed.token, body: { title: 'Orphan' } });
    await feed.sync();
    const stamp = feed.stamp();
    await other.query('delete from users where id = $1', [doomed.id]);
    expect(feed.unchangedSince(stamp, ['tasks'])).toBe(true);
    await feed.sync();
    // users → tasks through ON DELETE CASCADE: the trigger on tasks fires for the cascaded delete.
    expect(feed.unchangedSince(stamp, ['tasks'])).toBe(false);
    expect(feed.unchangedSince(stamp, ['goal_kpis'])).toBe(true);
  });

  it('a table without the change-log trigger is never cached', async () => {
    const feed = t.ctx.changes as PgChangeFeed;
    await feed.sync();
    const stamp = feed.stamp();
    expect(feed.caches('tasks')).toBe(true);
    expect(feed.caches('run_events')).toBe(false);
    expect(feed.unchangedSince(stamp, ['tasks'])).toBe(true);
    expect(feed.unchangedSince(stamp, ['tasks', 'run_events'])).toBe(false);
  });

  it('after a long idle spell everything counts as changed, and old log rows are pruned', async () => {
    let now = 1_000_000;
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    const feed = new PgChangeFeed(pool, () => now);
    const prune = () => (feed as unknown as { prune(): Promise<void> }).prune();
    try {
      await feed.sync();
      const stamp = feed.stamp();
      await newTask('Logged');
      const logged = await other.query('select count(*)::int as n from read_changes');
      expect(logged.rows[0].n).toBeGreaterThan(0);

      now += 6 * 60_000;
      await feed.sync();
      expect(feed.unchangedSince(stamp, ['journals'])).toBe(false);

      // A prune remembers where the log stood; ten minutes later it removes what came before.
      await prune();
      now += 10 * 60_000;
      await prune();
      const left = await other.query('select count(*)::int as n from read_changes');
      expect(left.rows[0].n).toBe(0);
    } finally {
      feed.close();
      await pool.end();
    }
  });
});
