import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSuite, createTestApp, TEST_DB, type TestApp, type TestUser } from '../../test/helpers.ts';

// A database that cannot be reached is an outage, not a bug: 503 with Retry-After, never 500, and the
// process carries on (docs/operations.md, "Database outages").
apiSuite('database unavailable', () => {
  let t: TestApp;
  let user: TestUser;
  const unhandled: unknown[] = [];
  const onUnhandled = (err: unknown) => unhandled.push(err);
  beforeAll(async () => {
    t = await createTestApp();
    user = await t.createUser('user');
    // Cached pages would hide the closed database from a list route: the first read is a miss anyway,
    // but write once so nothing of the list is kept.
    await t.req({ method: 'POST', url: '/api/tasks', token: user.token, body: { title: 'Before' } });
    process.on('unhandledRejection', onUnhandled);
    await t.ctx.db.destroy();
  });
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await t.close();
  });

  it('a list route answers 503 with Retry-After and a detail saying so', async () => {
    const res = await t.req({ method: 'GET', url: '/api/tasks?status=todo', token: user.token });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toEqual({
      detail: 'The service is temporarily unavailable. Please try again in a few seconds.',
    });
  });

  it('a write answers 503 too', async () => {
    const res = await t.req({
      method: 'POST',
      url: '/api/tasks',
      token: user.token,
      body: { title: 'During' },
    });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
  });

  it('readyz says not ready, healthz stays up, and nothing went unhandled', async () => {
    const ready = await t.req({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.headers['retry-after']).toBe('5');
    expect(ready.json()).toMatchObject({ status: 'unavailable' });
    expect((await t.req({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect(unhandled).toEqual([]);
  });
});

// Another process holds SQLite's write lock past the busy timeout (5 s): the write is refused as an
// outage (503, retry), not reported as a bug.
describe.runIf(TEST_DB === 'sqlite')('SQLite busy', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    user = await t.createUser('user');
  });
  afterAll(async () => {
    await t.close();
  });

  it('a write blocked by another writer answers 503 with Retry-After', async () => {
    const file = t.config.db.kind === 'sqlite' ? t.config.db.file : '';
    const other = new SQLite(file);
    try {
      other.exec('BEGIN IMMEDIATE');
      const res = await t.req({
        method: 'POST',
        url: '/api/tasks',
        token: user.token,
        body: { title: 'Blocked' },
      });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    const after = await t.req({
      method: 'POST',
      url: '/api/tasks',
      token: user.token,
      body: { title: 'After' },
    });
    expect(after.statusCode).toBe(201);
  });
});
