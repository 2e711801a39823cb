import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser, TEST_DB } from '../../../test/helpers.ts';
import { createDb } from '../../db/index.ts';
import {
  appendTurnMessages,
  conversationStreamOptions,
} from '../../modules/conversations/conversations.service.ts';

const pgReady = TEST_DB === 'postgres' && !!process.env.TEST_PG_URL;

/** Checks out every connection of the main pool (10) and keeps them until `release`. */
async function holdMainPool(app: TestApp) {
  let release!: () => void;
  const released = new Promise<void>((r) => {
    release = r;
  });
  const ready: Promise<void>[] = [];
  const held: Promise<unknown>[] = [];
  for (let i = 0; i < 10; i++) {
    let checkedOut!: () => void;
    ready.push(
      new Promise<void>((r) => {
        checkedOut = r;
      }),
    );
    held.push(
      app.ctx.db.connection().execute(async (conn) => {
        await sql`select 1`.execute(conn);
        checkedOut();
        await released;
      }),
    );
  }
  await Promise.all(ready);
  return async () => {
    release();
    await Promise.all(held);
  };
}

// Live streams read their new rows on a pool of their own on PostgreSQL: a run's thousand followers,
// a chat's reload, a comms thread's fan-out do not queue behind page reads and writes for the main
// pool's connections (docs/decisions/, "Live streams read on a pool of their own").
describe.runIf(pgReady)("the live streams' own PostgreSQL pool", () => {
  let app: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    app = await createTestApp();
    user = await app.createUser('user');
  });
  afterAll(async () => {
    await app?.close();
  });

  it('a stream reads its new rows while every main-pool connection is busy', async () => {
    const created = await app.req({
      method: 'POST',
      url: '/api/conversations/',
      token: user.token,
      body: {},
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;
    const options = conversationStreamOptions(app.ctx, id);
    const cursor = await options.initialCursor();
    await appendTurnMessages(app.ctx, id, 'Where are we on the budget?', null);
    const release = await holdMainPool(app);
    try {
      // With the main pool (its 10 connections held) this read would wait, and fail after the
      // pool's 5 s connection timeout.
      const rows = await options.loadAfter(cursor, 50);
      expect(rows.map((r) => (r.data as { text: string; sender: string }).sender)).toEqual([
        'user',
        'assistant',
      ]);
      expect((rows[0].data as { text: string }).text).toBe('Where are we on the budget?');
    } finally {
      await release();
    }
  }, 20_000);

  it('PG_STREAM_POOL_SIZE=0 reads streams from the main pool', async () => {
    const handle = createDb({
      kind: 'postgres',
      url: app.config.db.kind === 'postgres' ? app.config.db.url : '',
      streamPoolSize: 0,
    });
    try {
      expect(handle.streamDb).toBe(handle.db);
    } finally {
      await handle.close();
    }
  });

  it('the stream pool has PG_STREAM_POOL_SIZE connections at most', async () => {
    const url = app.config.db.kind === 'postgres' ? app.config.db.url : '';
    const tag = `lane-${randomUUID().slice(0, 8)}`;
    const handle = createDb({
      kind: 'postgres',
      url: `${url}${url.includes('?') ? '&' : '?'}application_name=${tag}`,
      streamPoolSize: 2,
    });
    try {
      // Five slow reads at once on a pool of two: PostgreSQL sees two connections of it.
      const reads = Array.from({ length: 5 }, () => sql`select pg_sleep(0.3)`.execute(handle.streamDb));
      await new Promise((r) => setTimeout(r, 150));
      const { rows } = await sql<{
        n: number;
      }>`select count(*)::int as n from pg_stat_activity where application_name = ${tag}`.execute(app.ctx.db);
      expect(rows[0].n).toBe(2);
      await Promise.all(reads);
    } finally {
      await handle.close();
    }
  });
});
