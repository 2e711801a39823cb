import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../test/helpers.ts';
import type { Db } from './index.ts';
import { preparedQuery } from './prepared-query.ts';

apiSuite('preparedQuery', () => {
  let t: TestApp;
  let a: TestUser;
  let b: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createUser('user', { email: 'prep-a@example.com', first_name: 'Ann' });
    b = await t.createUser('ceo', { email: 'prep-b@example.com', first_name: 'Bob' });
  });
  afterAll(() => t.close());

  it('builds once per shape and runs each call with its own values', async () => {
    let builds = 0;
    const byIds = preparedQuery(
      (db: Db, p: { ids: string[]; level: string | null; newestFirst: boolean }) => {
        builds++;
        let q = db.selectFrom('users').select(['id', 'first_name']).where('id', 'in', p.ids);
        if (p.level) q = q.where('user_level', '=', p.level);
        return q.orderBy('email', p.newestFirst ? 'desc' : 'asc');
      },
    );
    const names = async (p: Parameters<typeof byIds>[1]) =>
      (await byIds(t.ctx.db, p)).map((r) => r.first_name);
    expect(await names({ ids: [a.id, b.id], level: null, newestFirst: false })).toEqual(['Ann', 'Bob']);
    expect(builds).toBe(1);
    expect(await names({ ids: [b.id, a.id], level: null, newestFirst: false })).toEqual(['Ann', 'Bob']);
    expect(builds).toBe(1); // the same shape: its SQL is reused
    // Another shape: a filter switched on, a boolean flipped, a list of another length.
    expect(await names({ ids: [a.id, b.id], level: 'ceo', newestFirst: false })).toEqual(['Bob']);
    expect(await names({ ids: [a.id, b.id], level: null, newestFirst: true })).toEqual(['Bob', 'Ann']);
    expect(await names({ ids: [a.id], level: null, newestFirst: true })).toEqual(['Ann']);
    expect(await names({ ids: [b.id], level: 'user', newestFirst: true })).toEqual([]);
    expect(builds).toBe(5);
  });

  it('refuses a value inspected while building (it would be baked into the SQL)', async () => {
    const bad = preparedQuery((db: Db, p: { email: string }) =>
      db.selectFrom('users').select('id').where('email', '=', p.email.toLowerCase()),
    );
    await expect(bad(t.ctx.db, { email: 'PREP-A@example.com' })).rejects.toThrow();
    const templated = preparedQuery((db: Db, p: { name: string }) =>
      db.selectFrom('users').select('id').where('first_name', 'like', `${p.name}%`),
    );
    await expect(templated(t.ctx.db, { name: 'An' })).rejects.toThrow(/was used in JavaScript/);
  });

  it('a shape that does not determine the SQL reuses the first build (pass such a condition as a boolean)', async () => {
    // Whether the two values are equal changes the SQL, but the shape does not say so: the second call
    // runs the first call's SQL. (prepared-queries.test.ts compares the app's queries with fresh builds.)
    const q = preparedQuery((db: Db, p: { x: string; y: string }) =>
      db
        .selectFrom('users')
        .select('id')
        .$if(p.x === p.y, (w) => w.where('id', '=', p.x)),
    );
    const all = (await q(t.ctx.db, { x: a.id, y: b.id })).length;
    expect(all).toBeGreaterThanOrEqual(2);
    expect((await q(t.ctx.db, { x: a.id, y: a.id })).length).toBe(all);
    // The fix: pass what the SQL depends on as a boolean (booleans are part of the shape).
    const fixed = preparedQuery((db: Db, p: { x: string; same: boolean }) =>
      db
        .selectFrom('users')
        .select('id')
        .$if(p.same, (w) => w.where('id', '=', p.x)),
    );
    expect((await fixed(t.ctx.db, { x: a.id, same: false })).length).toBe(all);
    expect((await fixed(t.ctx.db, { x: a.id, same: true })).map((r) => r.id)).toEqual([a.id]);
  });
});
