import { randomUUID } from 'node:crypto';
import { CHAT_FAILURE_TEXT } from '@cc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, TEST_DB, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { sqlitePlan } from '../../../test/query-plan.ts';
import { buildApp } from '../../app.ts';
import * as repo from './conversations.repository.ts';
import { conversationChannel } from './conversations.service.ts';
import { INTERRUPTED_ERROR, staleAfterMs, sweepInterruptedReplies } from './conversations.sweeper.ts';

apiSuite('replies interrupted by a stopped server', () => {
  let t: TestApp;
  let u: TestUser;
  let conversationId: string;
  beforeAll(async () => {
    t = await createTestApp();
    u = await t.createUser('user');
    const res = await t.req({ method: 'POST', url: '/api/conversations/', token: u.token, body: {} });
    conversationId = res.json().id;
  });
  afterAll(() => t.close());

  const reply = async (text: string, ageMs: number) => {
    const at = new Date(Date.now() - ageMs).toISOString();
    const id = randomUUID();
    await repo.insertMessage(t.ctx.db, {
      id,
      conversation_id: conversationId,
      sender: 'assistant',
      text,
      status: 'streaming',
      model: 'gpt-5-chat',
      input_tokens: null,
      output_tokens: null,
      error: null,
      crew_run_id: null,
      flow_run_id: null,
      created_at: at,
      updated_at: at,
    });
    return id;
  };
  const byId = async () => {
    const res = await t.req({
      method: 'GET',
      url: `/api/conversations/${conversationId}/messages`,
      token: u.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    const items: { id: string; status: string; text: string }[] = res.json().items;
    return new Map(items.map((m) => [m.id, m]));
  };

  it('ends stale streaming replies (stopped with their text, or failed when empty), tells open streams, and leaves live ones', async () => {
    const stale = staleAfterMs(t.ctx) + 60_000;
    const partial = await reply('Half an answer', stale);
    const empty = await reply('', stale);
    const live = await reply('Still coming', 1_000);
    // Open streams hear of it (on PostgreSQL the note arrives through LISTEN/NOTIFY, a moment later).
    let off = () => {};
    const heard = new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no note within 5 s')), 5000);
      off = t.ctx.bus.subscribe(conversationChannel(conversationId), (n) => {
        clearTimeout(timer);
        resolve(n);
      });
    });
    heard.catch(() => {}); // awaited below; never an unhandled rejection if the sweep throws first
    try {
      expect(await sweepInterruptedReplies(t.ctx, { all: false })).toBe(2);
      expect(await heard).toEqual({ kind: 'message' });
    } finally {
      off();
    }
    const after = await byId();
    expect(after.get(partial)).toMatchObject({ status: 'stopped', text: 'Half an answer' });
    expect(after.get(empty)).toMatchObject({ status: 'failed', text: CHAT_FAILURE_TEXT });
    expect(after.get(live)).toMatchObject({ status: 'streaming', text: 'Still coming' });
    const row = await t.ctx.db
      .selectFrom('conversation_messages')
      .select('error')
      .where('id', '=', empty)
      .executeTakeFirstOrThrow();
    expect(row.error).toBe(INTERRUPTED_ERROR);
    // Nothing stale is left: a second sweep ends nothing.
    expect(await sweepInterruptedReplies(t.ctx, { all: false })).toBe(0);
    // At the start of an embedded database no other process can be writing: every one is ended.
    expect(await sweepInterruptedReplies(t.ctx, { all: true })).toBe(1);
    expect((await byId()).get(live)).toMatchObject({ status: 'stopped', text: 'Still coming' });
  });

  it('never overwrites a reply its writer finished meanwhile', async () => {
    const id = await reply('Done text', staleAfterMs(t.ctx) + 60_000);
    await repo.updateMessage(t.ctx.db, id, { status: 'complete', text: 'Done text, complete' });
    expect(
      await repo.endStreamingReply(t.ctx.db, id, {
        status: 'stopped',
        text: 'x',
        error: null,
        updated_at: new Date().toISOString(),
      }),
    ).toBe(false);
    expect((await byId()).get(id)).toMatchObject({ status: 'complete', text: 'Done text, complete' });
  });

  it('a restarted server ends the replies a crash left streaming (every one on SQLite, stale ones on PostgreSQL)', async () => {
    const stale = await reply('Cut by a crash', staleAfterMs(t.ctx) + 60_000);
    const recent = await reply('Cut a moment ago', 1_000);
    // A second instance on the same database: what a restart after a crash does before it serves.
    const restarted = await buildApp(t.config, { serveWeb: false });
    await restarted.app.ready();
    await restarted.app.close();
    const after = await byId();
    expect(after.get(stale)).toMatchObject({ status: 'stopped', text: 'Cut by a crash' });
    // On PostgreSQL another instance may still be writing a recent reply: the periodic sweep ends it
    // once it has been untouched for staleAfterMs.
    expect(after.get(recent)).toMatchObject({
      status: TEST_DB === 'postgres' ? 'streaming' : 'stopped',
      text: 'Cut a moment ago',
    });
    await sweepInterruptedReplies(t.ctx, { all: true });
  });

  it.skipIf(TEST_DB === 'postgres')(
    'finds streaming replies through the partial index, never the whole log',
    async () => {
      const q = repo.streamingRepliesQuery(t.ctx.db, new Date().toISOString(), 200);
      const plan = (await sqlitePlan(t.ctx.db, q)).join('\n');
      expect(plan).toMatch(/SEARCH conversation_messages USING INDEX conversation_messages_streaming_idx/);
      expect(plan).not.toMatch(/TEMP B-TREE/);
    },
  );
});
