import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { apiSuite, createTestApp, TEST_DB, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { UNTRUSTED_CLOSE, UNTRUSTED_INSTRUCTION, UNTRUSTED_OPEN } from '../../ai/untrusted.ts';
import { type MockOpenAI, startMockOpenAI } from '../../../test/mock-openai.ts';
import { expectIndexedPlan, sqlitePlan } from '../../../test/query-plan.ts';
import { holdFlush } from '../../../test/held-flush.ts';
import { connectSse, type SseEvent } from '../../../test/sse.ts';
import { expectWellFormed } from '../../ai/offline/offline-test-kit.ts';
import * as repo from './conversations.repository.ts';
import { appendConversationMessage } from './conversations.service.ts';

interface Msg {
  id: string;
  sender: string;
  text: string;
  status: string;
  position: number;
  crew_run_id: string | null;
  timestamp: string;
}

apiSuite('conversations and chat', () => {
  let t: TestApp;
  let base: string;
  let owner: TestUser;
  let other: TestUser;
  let waitlisted: TestUser;

  beforeAll(async () => {
    // The stop tests need a reply still streaming when the event stream is listening and the stop
    // arrives; at the default pace a short offline answer (about 50 words) can be over before that
    // on PostgreSQL, at this one it streams for about half a second.
    t = await createTestApp({ AI_OFFLINE_TOKEN_DELAY_MS: '10' });
    owner = await t.createUser('user');
    other = await t.createUser('ceo');
    waitlisted = await t.createUser('waitlisted');
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    // On PostgreSQL a connection whose fetch the client aborted can stay half-open in Node's server
    // (not idle, no request); close it so app.close() does not wait for it.
    t.app.server.closeAllConnections();
    await t.close();
  });

  const create = async (u: TestUser, body: unknown = {}) => {
    const res = await t.req({ method: 'POST', url: '/api/conversations/', token: u.token, body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; name: string; created_at: string; updated_at: string };
  };
  const page = async (u: TestUser, id: string, qs = '') => {
    const res = await t.req({ method: 'GET', url: `/api/conversations/${id}/messages${qs}`, token: u.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { items: Msg[]; has_more: boolean; cursor: string };
  };
  const events = (u: TestUser, id: string, q = '') =>
    connectSse(`${base}/api/conversations/${id}/events?token=${encodeURIComponent(u.token)}${q}`);
  const postChat = (u: TestUser, id: string, body: unknown, signal?: AbortSignal) =>
    fetch(`${base}/api/conversations/${id}/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${u.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal,
    });
  const isFinal = (e: SseEvent) =>
    e.event === 'message' && (e.data as Msg).sender === 'assistant' && (e.data as Msg).status !== 'streaming';

  it('creates (default name "New Conversation"), lists newest-updated first, renames and deletes', async () => {
    const u = await t.createUser('user');
    const a = await create(u);
    expect(a.name).toBe('New Conversation');
    const b = await create(u, { name: '  Board prep  ' });
    expect(b.name).toBe('Board prep');
    const list1 = await t.req({ method: 'GET', url: '/api/conversations/', token: u.token });
    expect(list1.json().map((c: { id: string }) => c.id)).toEqual([b.id, a.id]);

    await new Promise((r) => setTimeout(r, 5));
    const put = await t.req({
      method: 'PUT',
      url: `/api/conversations/${a.id}`,
      token: u.token,
      body: { name: 'Q3 plan' },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ id: a.id, name: 'Q3 plan' });
    expect(put.json().updated_at > a.updated_at).toBe(true);
    const list2 = await t.req({ method: 'GET', url: '/api/conversations', token: u.token });
    expect(list2.json().map((c: { id: string }) => c.id)).toEqual([a.id, b.id]);
    const got = await t.req({ method: 'GET', url: `/api/conversations/${a.id}`, token: u.token });
    expect(got.json().name).toBe('Q3 plan');

    for (const body of [{ name: '' }, { name: '   ' }, {}, { name: 'x', user_id: other.id }]) {
      const bad = await t.req({ method: 'PUT', url: `/api/conversations/${a.id}`, token: u.token, body });
      expect(bad.statusCode, JSON.stringify(body)).toBe(422);
    }
    expect(
      (await t.req({ method: 'POST', url: '/api/conversations/', token: u.token, body: { name: ' ' } }))
        .statusCode,
    ).toBe(422);

    await appendConversationMessage(t.ctx, { conversationId: a.id, sender: 'user', text: 'hello' });
    const del = await t.req({ method: 'DELETE', url: `/api/conversations/${a.id}`, token: u.token });
    expect(del.statusCode).toBe(204);
    expect(
      (await t.req({ method: 'GET', url: `/api/conversations/${a.id}`, token: u.token })).statusCode,
    ).toBe(404);
    const left = await t.ctx.db
      .selectFrom('conversation_messages')
      .select('id')
      .where('conversation_id', '=', a.id)
      .execute();
    expect(left).toEqual([]);
  });

  it('pages messages: the latest page first (oldest first within it), older pages with before, ≤ 200', async () => {
    const c = await create(owner, { name: 'Long one' });
    for (let i = 1; i <= 120; i++) {
      await appendConversationMessage(t.ctx, {
        conversationId: c.id,
        sender: i % 2 ? 'user' : 'assistant',
        text: `m${i}`,
      });
    }
    const p1 = await page(owner, c.id);
    expect(p1.items.map((m) => m.text)).toEqual(Array.from({ length: 50 }, (_, i) => `m${71 + i}`));
    expect(p1.has_more).toBe(true);
    expect(Number(p1.cursor)).toBeGreaterThan(0);
    const p2 = await page(owner, c.id, `?before=${p1.items[0].position}`);
    expect(p2.items.map((m) => m.text)).toEqual(Array.from({ length: 50 }, (_, i) => `m${21 + i}`));
    const p3 = await page(owner, c.id, `?before=${p2.items[0].position}`);
    expect(p3.items.map((m) => m.text)).toEqual(Array.from({ length: 20 }, (_, i) => `m${1 + i}`));
    expect(p3.has_more).toBe(false);
    const small = await page(owner, c.id, '?limit=5');
    expect(small.items.map((m) => m.text)).toEqual(['m116', 'm117', 'm118', 'm119', 'm120']);
    expect((await page(owner, c.id, '?limit=200')).items.length).toBe(120);
    for (const qs of ['?limit=201', '?limit=0', '?before=abc']) {
      const res = await t.req({
        method: 'GET',
        url: `/api/conversations/${c.id}/messages${qs}`,
        token: owner.token,
      });
      expect(res.statusCode, qs).toBe(422);
    }
    const empty = await create(owner);
    expect(await page(owner, empty.id)).toEqual({ items: [], has_more: false, cursor: '0' });
  });

  it('chat: the reply streams over SSE in several deltas, then the final message; the POST answers it', async () => {
    const c = await create(owner);
    const s = await events(owner, c.id);
    expect(s.status).toBe(200);
    const res = await postChat(owner, c.id, { message_text: '  What should I focus on this week?  ' });
    expect(res.status).toBe(200);
    const body = await res.json();
    const got = await s.collect(isFinal, 10_000);
    s.close();

    const user = got.find((e) => e.event === 'message' && (e.data as Msg).sender === 'user');
    expect(user?.data).toMatchObject({ text: 'What should I focus on this week?', crew_run_id: null });
    expect(user?.id).toMatch(/^\d+$/);
    const deltas = got.filter((e) => e.event === 'delta');
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.every((d) => d.id === undefined)).toBe(true);
    const final = got[got.length - 1].data as Msg;
    expect(final.status).toBe('complete');
    expect(final.text.length).toBeGreaterThan(0);
    expect(deltas.map((d) => (d.data as { text: string }).text).join('')).toBe(final.text);
    let offset = 0;
    for (const d of deltas) {
      const data = d.data as { offset: number; text: string; message_id: string };
      expect(data.offset).toBe(offset);
      expect(data.message_id).toBe(final.id);
      offset += data.text.length;
    }
    expect(body).toMatchObject({
      id: final.id,
      conversation_id: c.id,
      content: final.text,
      status: 'complete',
    });
    expect(typeof body.timestamp).toBe('string');

    const p = await page(owner, c.id);
    expect(p.items.map((m) => [m.sender, m.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'complete'],
    ]);
    expect(p.items[1].text).toBe(final.text);
    const list = await t.req({ method: 'GET', url: '/api/conversations/', token: owner.token });
    expect(list.json()[0].id).toBe(c.id);
  });

  it('chat: the turn and its final reply reach the stream at once while another write is being flushed', async () => {
    const c = await create(owner);
    const s = await events(owner, c.id);
    await new Promise((r) => setTimeout(r, 100)); // the stream's first read is done
    const flush = holdFlush(t.ctx);
    try {
      const res = await postChat(owner, c.id, { message_text: 'Anything urgent today?' });
      expect(res.status).toBe(200);
      // Each message note comes once its own write is on disk: none waits for the flush still due.
      const got = await s.collect(isFinal, 3_000);
      expect(got.some((e) => e.event === 'message' && (e.data as Msg).sender === 'user')).toBe(true);
      expect(got.at(-1)?.data).toMatchObject({ sender: 'assistant', status: 'complete' });
    } finally {
      flush.land();
      flush.restore();
      s.close();
    }
  });

  it('chat validation: context_messages 0–10 (422 outside), non-blank message, strict body', async () => {
    const c = await create(owner);
    for (const body of [
      { message_text: 'hi', context_messages: -1 },
      { message_text: 'hi', context_messages: 11 },
      { message_text: 'hi', context_messages: 2.5 },
      { message_text: 'hi', context_messages: 'lots' },
      { message_text: '   ' },
      {},
      { message_text: 'hi', sender: 'assistant' },
    ]) {
      const res = await t.req({
        method: 'POST',
        url: `/api/conversations/${c.id}/chat`,
        token: owner.token,
        body,
      });
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(Array.isArray(res.json().detail)).toBe(true);
    }
    const bad = await t.req({
      method: 'POST',
      url: `/api/conversations/${c.id}/chat`,
      token: owner.token,
      body: { message_text: 'hi', context_messages: 11 },
    });
    expect(bad.json().detail[0]).toMatchObject({ loc: ['body', 'context_messages'] });
    expect((await page(owner, c.id)).items).toEqual([]);
    const ok = await t.req({
      method: 'POST',
      url: `/api/conversations/${c.id}/chat`,
      token: owner.token,
      body: {
        message_text: 'hi',
        context_messages: 0,
        use_memory: false,
        use_internet: false,
        use_internal_search: true,
      },
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('stop: the explicit stop keeps the partial reply (status stopped); aborting the POST stops it too', async () => {
    const c = await create(owner);
    const long = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ');
    const s = await events(owner, c.id);
    const pending = postChat(owner, c.id, { message_text: long });
    await s.collect((e) => e.event === 'delta', 10_000);
    const stop = await t.req({
      method: 'POST',
      url: `/api/conversations/${c.id}/chat/stop`,
      token: owner.token,
    });
    expect(stop.statusCode).toBe(200);
    expect(stop.json()).toEqual({ stopped: true });
    const body = await (await pending).json();
    expect(body.status).toBe('stopped');
    const final = (await s.collect(isFinal, 10_000)).pop()?.data as Msg;
    expect(final.status).toBe('stopped');
    expect(final.text).toBe(body.content);
    expect(final.text.length).toBeGreaterThan(0);
    expect(final.text.length).toBeLessThan(long.length);

    const aborter = new AbortController();
    const aborted = postChat(owner, c.id, { message_text: long }, aborter.signal).catch((e) => e);
    await s.collect((e) => e.event === 'delta', 10_000);
    aborter.abort();
    expect(await aborted).toBeInstanceOf(Error);
    const second = (await s.collect(isFinal, 10_000)).pop()?.data as Msg;
    s.close();
    expect(second.status).toBe('stopped');
    const p = await page(owner, c.id);
    expect(p.items.map((m) => m.status)).toEqual(['complete', 'stopped', 'complete', 'stopped']);
    // Nothing is being written any more: a new message is accepted.
    const again = await t.req({
      method: 'POST',
      url: `/api/conversations/${c.id}/chat/stop`,
      token: owner.token,
    });
    expect(again.json()).toEqual({ stopped: false });
  });

  it('the stream resumes from a page cursor, carries crew messages and refuses callers without a token', async () => {
    const c = await create(owner);
    await appendConversationMessage(t.ctx, { conversationId: c.id, sender: 'user', text: 'before' });
    const p = await page(owner, c.id);
    await appendConversationMessage(t.ctx, { conversationId: c.id, sender: 'system', text: 'between' });
    const s = await events(owner, c.id, `&last_event_id=${p.cursor}`);
    const first = await s.next();
    expect(first.data).toMatchObject({ sender: 'system', text: 'between' });
    await appendConversationMessage(t.ctx, {
      conversationId: c.id,
      sender: 'crew',
      text: 'Crew started',
      crewRunId: 'run-1',
    });
    const crew = await s.next();
    expect(crew.data).toMatchObject({ sender: 'crew', text: 'Crew started', crew_run_id: 'run-1' });
    expect(Object.keys(crew.data as object)).toEqual(
      expect.arrayContaining(['sender', 'text', 'timestamp', 'crew_run_id']),
    );
    s.close();

    // Without last_event_id the stream starts live (no replay of the history).
    const live = await events(owner, c.id);
    await appendConversationMessage(t.ctx, { conversationId: c.id, sender: 'user', text: 'now' });
    expect((await live.next()).data).toMatchObject({ text: 'now' });
    live.close();

    const anonymous = await connectSse(`${base}/api/conversations/${c.id}/events`);
    expect(anonymous.status).toBe(401);
    const badToken = await connectSse(`${base}/api/conversations/${c.id}/events?token=nope`);
    expect(badToken.status).toBe(401);
    const stranger = await events(other, c.id);
    expect(stranger.status).toBe(404);
    const wl = await events(waitlisted, c.id);
    expect(wl.status).toBe(403);
    const ticketRes = await t.req({ method: 'POST', url: '/api/auth/stream-ticket', token: owner.token });
    const ticket = ticketRes.json().ticket as string;
    const withTicket = await connectSse(`${base}/api/conversations/${c.id}/events?token=${ticket}`);
    expect(withTicket.status).toBe(200);
    withTicket.close();
  });

  const attach = async (u: TestUser, conversationId: string, name: string, text: string) => {
    const form = new FormData();
    form.append('files', new Blob([text], { type: 'text/plain' }), name);
    return fetch(`${base}/api/files/?conversation_id=${conversationId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${u.token}` },
      body: form,
    });
  };

  it('attached files are given to the model: the offline reply quotes and cites them', async () => {
    const c = await create(owner);
    const up = await attach(
      owner,
      c.id,
      'falcon-brief.txt',
      'Project Falcon\nThe Falcon budget is 42000 euros.\nLaunch date: 3 March.\n',
    );
    expect(up.status).toBe(201);
    await attach(owner, c.id, 'lunch-menu.txt', 'Soup of the day: tomato.');
    const list = await t.req({
      method: 'GET',
      url: `/api/conversations/${c.id}/attachments`,
      token: owner.token,
    });
    expect(list.statusCode).toBe(200);
    expect(
      list
        .json()
        .map((f: { name: string }) => f.name)
        .sort(),
    ).toEqual(['falcon-brief.txt', 'lunch-menu.txt']);

    const res = await postChat(owner, c.id, { message_text: 'What is the Falcon budget?' });
    expect(res.status).toBe(200);
    const reply = (await res.json()).content as string;
    expect(reply).toContain(
      'File “falcon-brief.txt” says: Project Falcon. The Falcon budget is 42000 euros.',
    );
    expectWellFormed(reply);
    expect(reply).toMatch(/Sources: File “falcon-brief\.txt”/);
    // Only the file the question is about is cited.
    expect(reply).not.toContain('lunch-menu.txt');

    // A question matching no file's words still uses (and names) every attached file.
    const general = await postChat(owner, c.id, { message_text: 'Summarize it' });
    const all = (await general.json()).content as string;
    expect(all).toContain('File “falcon-brief.txt”');
    expect(all).toContain('- File “lunch-menu.txt” says: Soup of the day: tomato.');

    // Another conversation's files are not context here.
    const d = await create(owner);
    const plain = await postChat(owner, d.id, { message_text: 'What is the Falcon budget?' });
    expect((await plain.json()).content).not.toContain('falcon-brief.txt');
  });

  it("another user cannot list, attach to or chat with someone else's conversation files (404)", async () => {
    const c = await create(owner);
    expect((await attach(owner, c.id, 'secret.txt', 'The secret number is 7.')).status).toBe(201);
    const list = await t.req({
      method: 'GET',
      url: `/api/conversations/${c.id}/attachments`,
      token: other.token,
    });
    expect(list.statusCode).toBe(404);
    expect(list.json().detail).toBeTruthy();
    const up = await attach(other, c.id, 'mine.txt', 'hello');
    expect(up.status).toBe(404);
    const chatRes = await postChat(other, c.id, { message_text: 'What is the secret number?' });
    expect(chatRes.status).toBe(404);
    // The other user's own conversation does not see the owner's file either.
    const theirs = await create(other);
    const r = await postChat(other, theirs.id, { message_text: 'What is the secret number?' });
    expect((await r.json()).content).not.toContain('secret.txt');
  });

  it('permission matrix: owner only (other user 404, waitlisted 403, anonymous 401)', async () => {
    const c = await create(owner, { name: 'Private' });
    await appendConversationMessage(t.ctx, { conversationId: c.id, sender: 'user', text: 'secret' });
    const calls = [
      { method: 'GET', url: `/api/conversations/${c.id}` },
      { method: 'PUT', url: `/api/conversations/${c.id}`, body: { name: 'hijacked' } },
      { method: 'GET', url: `/api/conversations/${c.id}/messages` },
      { method: 'POST', url: `/api/conversations/${c.id}/chat`, body: { message_text: 'hi' } },
      { method: 'POST', url: `/api/conversations/${c.id}/chat/stop` },
      { method: 'DELETE', url: `/api/conversations/${c.id}` },
    ] as const;
    for (const [who, status] of [
      [other, 404],
      [waitlisted, 403],
      [undefined, 401],
    ] as const) {
      for (const call of calls) {
        const res = await t.req({ ...call, token: who?.token });
        expect(res.statusCode, `${call.method} ${call.url} as ${who?.user_level ?? 'anonymous'}`).toBe(
          status,
        );
        expect(typeof res.json().detail).toBe('string');
      }
    }
    for (const call of [
      { method: 'GET', url: '/api/conversations/' },
      { method: 'POST', url: '/api/conversations/', body: {} },
    ] as const) {
      expect((await t.req({ ...call, token: waitlisted.token })).statusCode).toBe(403);
      expect((await t.req({ ...call })).statusCode).toBe(401);
    }
    const theirs = await t.req({ method: 'GET', url: '/api/conversations/', token: other.token });
    expect(theirs.json().map((x: { id: string }) => x.id)).not.toContain(c.id);
    const mine = await t.req({ method: 'GET', url: `/api/conversations/${c.id}`, token: owner.token });
    expect(mine.json().name).toBe('Private');
    expect((await page(owner, c.id)).items.map((m) => m.text)).toEqual(['secret']);
  });

  // The planner of PostgreSQL may prefer a sequential scan on tiny tables, so plans are checked on SQLite.
  it.skipIf(TEST_DB !== 'sqlite')('lists, pages and stream reads use indexes', async () => {
    expectIndexedPlan(
      await sqlitePlan(t.ctx.db, repo.listConversationsQuery(t.ctx.db, owner.id, 0, 50)),
      'conversations',
    );
    const latest = repo.messagePageQuery(t.ctx.db, 'c', undefined, 50);
    const plan = await sqlitePlan(t.ctx.db, latest);
    expectIndexedPlan(plan, 'conversation_messages');
    expect(plan.join('\n')).not.toMatch(/TEMP B-TREE/);
    // A page reads only what a message's API shape shows (not the cursor, error or update time).
    expect(latest.compile().sql).not.toMatch(/\*|"seq"|"error"|"updated_at"/);
    const older = await sqlitePlan(t.ctx.db, repo.messagePageQuery(t.ctx.db, 'c', 100, 50));
    expect(older.join('\n')).not.toMatch(/TEMP B-TREE/);
    const after = await sqlitePlan(t.ctx.db, repo.messagesAfterQuery(t.ctx.db, 'c', 10, 200));
    expectIndexedPlan(after, 'conversation_messages');
    expect(after.join('\n')).not.toMatch(/TEMP B-TREE/);
  });
});

apiSuite('chat through a real provider (mock OpenAI-compatible server)', () => {
  let mock: MockOpenAI;
  let t: TestApp;
  let base: string;
  let u: TestUser;
  beforeAll(async () => {
    mock = await startMockOpenAI({ models: ['gpt-5-chat'] });
    t = await createTestApp({
      OPENAI_BASE_URL: mock.url,
      AI_MAX_RETRIES: '0',
      AI_STREAM_IDLE_TIMEOUT_MS: '2000',
    });
    u = await t.createUser('user');
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    t.app.server.closeAllConnections();
    await t.close();
    await mock.close();
  });

  const conversation = async () =>
    (await t.req({ method: 'POST', url: '/api/conversations/', token: u.token, body: {} })).json()
      .id as string;
  const chatReq = (id: string, body: unknown, signal?: AbortSignal) =>
    fetch(`${base}/api/conversations/${id}/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${u.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal,
    });
  const rows = (id: string) =>
    t.ctx.db
      .selectFrom('conversation_messages')
      .selectAll()
      .where('conversation_id', '=', id)
      .orderBy('position')
      .execute();

  it('streams the model chunks, sends the chosen context and records token usage per message', async () => {
    const id = await conversation();
    await appendConversationMessage(t.ctx, { conversationId: id, sender: 'user', text: 'old question' });
    await appendConversationMessage(t.ctx, { conversationId: id, sender: 'assistant', text: 'old answer' });
    await appendConversationMessage(t.ctx, { conversationId: id, sender: 'user', text: 'recent question' });
    mock.script({
      kind: 'text',
      chunks: ['Focus ', 'on ', 'hiring.'],
      delayMs: 30,
      usage: { prompt_tokens: 42, completion_tokens: 3 },
    });
    const s = await connectSse(`${base}/api/conversations/${id}/events?token=${u.token}`);
    const res = await chatReq(id, { message_text: 'What now?', model: 'gpt-5-chat', context_messages: 2 });
    const body = await res.json();
    expect(body).toMatchObject({
      content: 'Focus on hiring.',
      status: 'complete',
      model: 'gpt-5-chat',
      usage: { input_tokens: 42, output_tokens: 3 },
    });
    const got = await s.collect(
      (e) =>
        e.event === 'message' &&
        (e.data as Msg).status === 'complete' &&
        (e.data as Msg).sender === 'assistant',
    );
    s.close();
    expect(got.filter((e) => e.event === 'delta').map((e) => (e.data as { text: string }).text)).toEqual([
      'Focus ',
      'on ',
      'hiring.',
    ]);
    const sent = mock.chatRequests().at(-1)?.body as { messages: { role: string; content: unknown }[] };
    const convo = sent.messages.filter((m) => m.role !== 'system').map((m) => m.content);
    expect(convo).toEqual(['old answer', 'recent question', 'What now?']);
    const stored = await rows(id);
    expect(stored.at(-1)).toMatchObject({
      text: 'Focus on hiring.',
      input_tokens: 42,
      output_tokens: 3,
      model: 'gpt-5-chat',
      status: 'complete',
    });
  });

  it('a failed model call stores and answers the failure text (status failed)', async () => {
    const id = await conversation();
    mock.script({ kind: 'status', status: 500, message: 'upstream exploded' });
    const res = await chatReq(id, { message_text: 'Hello?' });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ status: 'failed', content: "Sorry, I couldn't generate a response." });
    const stored = await rows(id);
    expect(stored.map((r) => [r.sender, r.status, r.text])).toEqual([
      ['user', 'complete', 'Hello?'],
      ['assistant', 'failed', "Sorry, I couldn't generate a response."],
    ]);
    expect(stored[1].error).toBeTruthy();
  });

  it('an unknown model is 422 and stores nothing', async () => {
    const id = await conversation();
    const res = await chatReq(id, { message_text: 'Hello?', model: 'no-such-model' });
    expect(res.status).toBe(422);
    expect(await rows(id)).toEqual([]);
  });

  it('the client going away aborts the upstream request and keeps the partial reply', async () => {
    const id = await conversation();
    mock.script({ kind: 'text', chunks: ['One ', 'two ', 'three ', 'four ', 'five'], delayMs: 300 });
    const s = await connectSse(`${base}/api/conversations/${id}/events?token=${u.token}`);
    const aborter = new AbortController();
    const pending = chatReq(id, { message_text: 'Count' }, aborter.signal).catch((e) => e);
    await s.collect((e) => e.event === 'delta', 5000);
    aborter.abort();
    await pending;
    const upstream = await mock.waitForAbort(5000);
    expect(upstream.aborted).toBe(true);
    const final = (
      await s.collect((e) => e.event === 'message' && (e.data as Msg).status === 'stopped', 5000)
    ).pop();
    s.close();
    const stoppedText = (final?.data as Msg | undefined)?.text ?? '';
    expect(stoppedText.startsWith('One ')).toBe(true);
    expect(stoppedText).not.toContain('five');
    const stored = await rows(id);
    expect(stored.map((r) => r.status)).toEqual(['complete', 'stopped']);
  });

  it('a reload while the reply streams sees the partial text (status streaming)', async () => {
    const id = await conversation();
    mock.script({ kind: 'stall', chunks: ['Half ', 'an ', 'answer'] });
    const pending = chatReq(id, { message_text: 'Go' });
    let partial: { text: string; status: string } | undefined;
    for (let i = 0; i < 40 && partial?.text !== 'Half an answer'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const res = await t.req({ method: 'GET', url: `/api/conversations/${id}/messages`, token: u.token });
      partial = res.json().items[1];
    }
    expect(partial).toMatchObject({ text: 'Half an answer', status: 'streaming' });
    await t.req({ method: 'POST', url: `/api/conversations/${id}/chat/stop`, token: u.token });
    expect(await (await pending).json()).toMatchObject({ status: 'stopped', content: 'Half an answer' });
  });

  it('gives the attached files to the model in the system prompt, by name and bounded', async () => {
    const id = await conversation();
    const form = new FormData();
    form.append('files', new Blob(['Revenue target: 5 million.'], { type: 'text/plain' }), 'targets.txt');
    form.append('files', new Blob(['x'.repeat(50_000)], { type: 'text/plain' }), 'big.txt');
    const up = await fetch(`${base}/api/files/?conversation_id=${id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${u.token}` },
      body: form,
    });
    expect(up.status).toBe(201);
    mock.script({ kind: 'text', chunks: ['Per targets.txt, 5 million.'] });
    const res = await chatReq(id, { message_text: 'What is the revenue target?', model: 'gpt-5-chat' });
    expect((await res.json()).content).toBe('Per targets.txt, 5 million.');
    const sent = mock.chatRequests().at(-1)?.body as { messages: { role: string; content: string }[] };
    const system = sent.messages.find((m) => m.role === 'system')?.content ?? '';
    // Files are workspace text: untrusted data between the fixed delimiters, with the instruction.
    expect(system).toContain(
      `${UNTRUSTED_OPEN}\n[File “targets.txt”]\nRevenue target: 5 million.\n${UNTRUSTED_CLOSE}`,
    );
    expect(system).toContain(`${UNTRUSTED_OPEN}\n[File “big.txt”]\n`);
    expect(system).toContain(UNTRUSTED_INSTRUCTION);
    expect(system).toContain('[… truncated]');
    expect(system.length).toBeLessThan(25_000);
  });

  it('closing the app stops a reply still streaming and writes it before the database closes', async () => {
    const t2 = await createTestApp({ OPENAI_BASE_URL: mock.url, AI_MAX_RETRIES: '0' });
    const u2 = await t2.createUser('user');
    const base2 = await t2.listen();
    const id = (
      await t2.req({ method: 'POST', url: '/api/conversations/', token: u2.token, body: {} })
    ).json().id as string;
    mock.script({ kind: 'stall', chunks: ['Half ', 'an ', 'answer'] });
    const pending = fetch(`${base2}/api/conversations/${id}/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${u2.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message_text: 'Go', model: 'gpt-5-chat' }),
    });
    let text = '';
    for (let i = 0; i < 40 && text !== 'Half an answer'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const res = await t2.req({ method: 'GET', url: `/api/conversations/${id}/messages`, token: u2.token });
      text = res.json().items[1]?.text ?? '';
    }
    expect(text).toBe('Half an answer');
    const closing = t2.close();
    expect(await (await pending).json()).toMatchObject({ status: 'stopped', content: 'Half an answer' });
    await closing;
  });

  it("tokens go out without waiting for the turn's rows; the POST answers once they are stored", async () => {
    const id = await conversation();
    mock.script({ kind: 'text', chunks: ['Quick ', 'reply'], delayMs: 10 });
    // A slow disk: each row takes 300 ms to write, far longer than the whole reply takes to stream.
    const original = repo.insertMessage;
    const spy = vi.spyOn(repo, 'insertMessage').mockImplementation(async (...args) => {
      await new Promise((r) => setTimeout(r, 300));
      return original(...args);
    });
    const s = await connectSse(`${base}/api/conversations/${id}/events?token=${u.token}`);
    try {
      const res = await chatReq(id, { message_text: 'Fast please' });
      const body = await res.json();
      expect(body).toMatchObject({ content: 'Quick reply', status: 'complete' });
      const got = await s.collect(
        (e) =>
          e.event === 'message' && (e.data as Msg).id === body.id && (e.data as Msg).status === 'complete',
      );
      const firstDelta = got.findIndex((e) => e.event === 'delta');
      const firstMessage = got.findIndex((e) => e.event === 'message');
      expect(firstDelta).toBeGreaterThanOrEqual(0);
      expect(firstDelta).toBeLessThan(firstMessage);
      expect(
        got
          .filter((e) => e.event === 'delta')
          .every((e) => (e.data as { message_id: string }).message_id === body.id),
      ).toBe(true);
    } finally {
      s.close();
      spy.mockRestore();
    }
    const stored = await rows(id);
    expect(stored.map((r) => [r.sender, r.text, r.status])).toEqual([
      ['user', 'Fast please', 'complete'],
      ['assistant', 'Quick reply', 'complete'],
    ]);
  });

  it('a model slow to its first token: the turn is stored while it thinks', async () => {
    const id = await conversation();
    mock.script({ kind: 'stall' });
    const pending = chatReq(id, { message_text: 'Think hard' });
    let stored: Awaited<ReturnType<typeof rows>> = [];
    for (let i = 0; i < 40 && stored.length < 2; i++) {
      await new Promise((r) => setTimeout(r, 25));
      stored = await rows(id);
    }
    expect(stored.map((r) => [r.sender, r.text, r.status])).toEqual([
      ['user', 'Think hard', 'complete'],
      ['assistant', '', 'streaming'],
    ]);
    await t.req({ method: 'POST', url: `/api/conversations/${id}/chat/stop`, token: u.token });
    expect(await (await pending).json()).toMatchObject({ status: 'stopped' });
  });

  it('writes a streaming reply to the database at most 10 times a second', async () => {
    const id = await conversation();
    mock.script({ kind: 'text', chunks: Array.from({ length: 60 }, (_, i) => `t${i} `), delayMs: 10 });
    const writes: number[] = [];
    const original = repo.updateTexts;
    const spy = vi.spyOn(repo, 'updateTexts').mockImplementation(async (...args) => {
      writes.push(Date.now());
      return original(...args);
    });
    try {
      const res = await chatReq(id, { message_text: 'Stream a lot' });
      expect((await res.json()).content.split(' ').filter(Boolean)).toHaveLength(60);
    } finally {
      spy.mockRestore();
    }
    // ~600 ms of streaming: a few batched writes of the partial text (then the final one), never one
    // per token, and never more often than every 100 ms.
    expect(writes.length).toBeGreaterThanOrEqual(1);
    expect(writes.length).toBeLessThanOrEqual(6);
    for (let i = 1; i < writes.length; i++) expect(writes[i] - writes[i - 1]).toBeGreaterThanOrEqual(100);
    const row = (await rows(id)).at(-1);
    expect(row?.status).toBe('complete');
  });
});
