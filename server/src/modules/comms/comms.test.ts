import { COMMS_SUGGESTION_DISMISSED_TEXT } from '@cc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, TEST_DB, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { expectIndexedPlan, sqlitePlan } from '../../../test/query-plan.ts';
import { holdFlush } from '../../../test/held-flush.ts';
import { connectSse } from '../../../test/sse.ts';
import { registerScriptedColleague } from './comms.demo-replies.ts';
import { expectWellFormed } from '../../ai/offline/offline-test-kit.ts';
import { commsIdle } from './comms.messages.ts';
import { latestMessagesQuery, listThreadsQuery, messagesAfterQuery } from './comms.repository.ts';

interface Thread {
  id: string;
  name: string;
  custom_name: string | null;
  participants: { id: string; name: string; role: string | null }[];
  other_user_id: string | null;
  other_user_name: string | null;
  last_message_preview: string | null;
  current_ai_suggestion_id: string | null;
  updated_at: string;
}
interface Message {
  id: string;
  seq: number;
  thread_id: string;
  kind: string;
  sender_id: string | null;
  sender_name: string;
  text: string;
  timestamp: string;
  ai_suggested: boolean;
}

apiSuite('comms', () => {
  let t: TestApp;
  let ceo: TestUser;
  let maya: TestUser;
  let leo: TestUser;
  let bot: TestUser;
  let outsider: TestUser;
  let waitlisted: TestUser;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp();
    ceo = await t.createUser('ceo', { first_name: 'Olivia' });
    maya = await t.createUser('user', { first_name: 'Maya' });
    leo = await t.createUser('user', { first_name: 'Leo' });
    bot = await t.createUser('user', { first_name: 'Sofia' });
    outsider = await t.createUser('ceo', { first_name: 'Otto' });
    waitlisted = await t.createUser('waitlisted');
    const orgA = await t.createOrg(ceo, 'Comms Co');
    await t.createOrg(outsider, 'Elsewhere');
    for (const u of [maya, leo, bot, waitlisted]) await t.addToOrg(ceo, orgA, u, 'user');
    await registerScriptedColleague(t.ctx, bot.id, ['Scripted line one.', 'Scripted line two.']);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = t.app.server.address();
    base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  });
  afterAll(() => t.close());

  const open = async (u: TestUser, ids: string[], status = 201): Promise<Thread> => {
    const res = await t.req({
      method: 'POST',
      url: '/api/comms/threads',
      token: u.token,
      body: { participant_ids: ids },
    });
    expect(res.statusCode, res.body).toBe(status);
    return res.json();
  };
  const send = async (u: TestUser, threadId: string, text: string): Promise<Message> => {
    const res = await t.req({
      method: 'POST',
      url: `/api/comms/threads/${threadId}/messages`,
      token: u.token,
      body: { text },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const messages = async (u: TestUser, threadId: string, qs = ''): Promise<Message[]> => {
    const res = await t.req({
      method: 'GET',
      url: `/api/comms/threads/${threadId}/messages${qs}`,
      token: u.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const threads = async (u: TestUser): Promise<Thread[]> => {
    const res = await t.req({ method: 'GET', url: '/api/comms/threads', token: u.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const suggestion = async (u: TestUser, threadId: string) => {
    const res = await t.req({
      method: 'GET',
      url: `/api/comms/threads/${threadId}/suggestion`,
      token: u.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().suggestion as { id: string; status: string; text: string } | null;
  };

  it('opens a thread with a colleague and reuses it for the same people', async () => {
    const th = await open(ceo, [maya.id]);
    expect(th).toMatchObject({
      name: 'Maya Tester',
      custom_name: null,
      other_user_id: maya.id,
      other_user_name: 'Maya Tester',
      last_message_preview: null,
      current_ai_suggestion_id: null,
    });
    expect(th.participants.map((p) => p.id)).toEqual([maya.id]);
    // The same set from either side, with the caller listed or not, is the same thread.
    expect((await open(ceo, [maya.id, maya.id, ceo.id], 200)).id).toBe(th.id);
    const fromMaya = await open(maya, [ceo.id], 200);
    expect(fromMaya.id).toBe(th.id);
    expect(fromMaya.other_user_name).toBe('Olivia Tester');
    // A group is another thread.
    expect((await open(ceo, [maya.id, leo.id])).id).not.toBe(th.id);
  });

  it('only lets people message approved members of their organizations', async () => {
    for (const ids of [[outsider.id], [waitlisted.id], ['no-such-user'], [maya.id, outsider.id]]) {
      const res = await t.req({
        method: 'POST',
        url: '/api/comms/threads',
        token: ceo.token,
        body: { participant_ids: ids },
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().detail).toBe('You can only message approved members of your organizations.');
    }
    const self = await t.req({
      method: 'POST',
      url: '/api/comms/threads',
      token: ceo.token,
      body: { participant_ids: [ceo.id] },
    });
    expect(self.statusCode).toBe(400);
    const none = await t.req({
      method: 'POST',
      url: '/api/comms/threads',
      token: ceo.token,
      body: { participant_ids: [] },
    });
    expect(none.statusCode).toBe(422);
    const anon = await t.req({
      method: 'POST',
      url: '/api/comms/threads',
      body: { participant_ids: [maya.id] },
    });
    expect(anon.statusCode).toBe(401);
    const wl = await t.req({
      method: 'POST',
      url: '/api/comms/threads',
      token: waitlisted.token,
      body: { participant_ids: [maya.id] },
    });
    expect(wl.statusCode).toBe(403);
    expect((await t.ctx.db.selectFrom('comms_threads').select('id').execute()).length).toBe(2);
  });

  it('applies the permission matrix: participant, other user 404, waitlisted 403, anonymous 401', async () => {
    const th = await open(ceo, [leo.id]);
    await send(leo, th.id, 'hello');
    await commsIdle(t.ctx);
    const p = `/api/comms/threads/${th.id}`;
    const calls: {
      method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
      url: string;
      body?: unknown;
      ok: number;
    }[] = [
      { method: 'GET', url: p, ok: 200 },
      { method: 'PATCH', url: p, body: { name: 'Leo chat' }, ok: 200 },
      { method: 'GET', url: `${p}/messages`, ok: 200 },
      { method: 'POST', url: `${p}/messages`, body: { text: 'Hi Leo' }, ok: 201 },
      { method: 'PUT', url: `${p}/suggestion`, body: { text: 'Draft' }, ok: 200 },
      { method: 'GET', url: `${p}/suggestion`, ok: 200 },
      { method: 'POST', url: `${p}/suggestion/use`, body: { text: 'Draft edited' }, ok: 201 },
      { method: 'PUT', url: `${p}/suggestion`, body: { text: 'Another draft' }, ok: 200 },
      { method: 'POST', url: `${p}/suggestion/dismiss`, ok: 201 },
      { method: 'DELETE', url: p, ok: 204 },
    ];
    for (const c of calls) {
      for (const [who, status] of [
        [outsider, 404],
        [maya, 404],
        [waitlisted, 403],
        [undefined, 401],
      ] as const) {
        const res = await t.req({ method: c.method, url: c.url, token: who?.token, body: c.body });
        expect(res.statusCode, `${c.method} ${c.url} as ${who?.email ?? 'anonymous'}: ${res.body}`).toBe(
          status,
        );
        expect(typeof res.json().detail).toBe('string');
      }
      const res = await t.req({ method: c.method, url: c.url, token: ceo.token, body: c.body });
      expect(res.statusCode, `${c.method} ${c.url}: ${res.body}`).toBe(c.ok);
    }
    await commsIdle(t.ctx);
    expect(await t.req({ method: 'GET', url: '/api/comms/threads/nope', token: ceo.token })).toMatchObject({
      statusCode: 404,
    });
  });

  it('lists threads newest first with the other people, a 30-character preview and updated_at', async () => {
    const a = await open(maya, [leo.id]);
    const b = await open(maya, [ceo.id], 200);
    await send(maya, a.id, 'Short one');
    await send(leo, a.id, 'The quarterly numbers are ready for your review now');
    await send(maya, b.id, 'Newest message');
    await commsIdle(t.ctx);
    const list = await threads(maya);
    expect(list[0].id).toBe(b.id);
    expect(list[0].last_message_preview).toBe('Newest message');
    const la = list.find((x) => x.id === a.id) as Thread;
    expect(la.last_message_preview).toBe('The quarterly numbers are read...');
    expect(la.last_message_preview?.length).toBe(33);
    expect(la.participants).toEqual([{ id: leo.id, name: 'Leo Tester', role: null, email: leo.email }]);
    expect(Date.parse(list[0].updated_at)).toBeGreaterThanOrEqual(Date.parse(list[1].updated_at));
    const limited = await t.req({ method: 'GET', url: '/api/comms/threads?limit=1', token: maya.token });
    expect(limited.json()).toHaveLength(1);
    const tooMany = await t.req({ method: 'GET', url: '/api/comms/threads?limit=500', token: maya.token });
    expect(tooMany.statusCode).toBe(422);
  });

  it('refuses blank messages and pages messages oldest first', async () => {
    const th = await open(leo, [maya.id], 200);
    for (const text of ['', '   ', undefined]) {
      const res = await t.req({
        method: 'POST',
        url: `/api/comms/threads/${th.id}/messages`,
        token: leo.token,
        body: text === undefined ? {} : { text },
      });
      expect(res.statusCode).toBe(422);
    }
    for (let i = 1; i <= 5; i++) await send(leo, th.id, `m${i}`);
    await commsIdle(t.ctx);
    const last2 = await messages(leo, th.id, '?limit=2');
    expect(last2.map((m) => m.text)).toEqual(['m4', 'm5']);
    const before = await messages(leo, th.id, `?limit=2&before=${last2[0].seq}`);
    expect(before.map((m) => m.text)).toEqual(['m2', 'm3']);
    expect(last2[1]).toMatchObject({
      thread_id: th.id,
      sender_id: leo.id,
      sender_name: 'Leo Tester',
      kind: 'user',
    });
  });

  it('renames a thread for the caller only; blank restores the default', async () => {
    const th = await open(ceo, [maya.id], 200);
    const res = await t.req({
      method: 'PATCH',
      url: `/api/comms/threads/${th.id}`,
      token: ceo.token,
      body: { name: ' Ops sync ' },
    });
    expect(res.json()).toMatchObject({ name: 'Ops sync', custom_name: 'Ops sync' });
    expect((await open(maya, [ceo.id], 200)).name).toBe('Olivia Tester');
    const reset = await t.req({
      method: 'PATCH',
      url: `/api/comms/threads/${th.id}`,
      token: ceo.token,
      body: { name: '' },
    });
    expect(reset.json()).toMatchObject({ name: 'Maya Tester', custom_name: null });
  });

  it('suggests a reply to the recipient; Use Suggestion sends the edited text', async () => {
    const th = await open(ceo, [maya.id], 200);
    await send(maya, th.id, 'Can we schedule a call about the Q3 budget?');
    expect(await suggestion(maya, th.id)).toBeNull(); // never for the sender
    await commsIdle(t.ctx);
    const s = await suggestion(ceo, th.id);
    expect(s).toMatchObject({ status: 'ready' });
    expect(s?.text).toContain('Maya');
    expect((await threads(ceo)).find((x) => x.id === th.id)?.current_ai_suggestion_id).toBe(s?.id);
    const use = await t.req({
      method: 'POST',
      url: `/api/comms/threads/${th.id}/suggestion/use`,
      token: ceo.token,
      body: { text: 'Yes — tomorrow at 10:00.' },
    });
    expect(use.statusCode, use.body).toBe(201);
    expect(use.json()).toMatchObject({
      text: 'Yes — tomorrow at 10:00.',
      sender_id: ceo.id,
      ai_suggested: true,
    });
    expect(await suggestion(ceo, th.id)).toBeNull();
    const seen = await messages(maya, th.id);
    expect(seen.at(-1)).toMatchObject({ text: 'Yes — tomorrow at 10:00.', ai_suggested: true });
    const again = await t.req({
      method: 'POST',
      url: `/api/comms/threads/${th.id}/suggestion/use`,
      token: ceo.token,
      body: { text: 'x' },
    });
    expect(again.statusCode).toBe(404);
    await commsIdle(t.ctx);
  });

  it('the offline suggestion answers the message: it acknowledges the figures given and the request made', async () => {
    const th = await open(ceo, [maya.id], 200);
    await send(
      maya,
      th.id,
      'Q3 is closed: 42 deals, ARR €1.2M, up 15% on Q2. Could you send me the board deck?',
    );
    await commsIdle(t.ctx);
    const s = await suggestion(ceo, th.id);
    expect(s?.text).toBe(
      "Thanks for the numbers, Maya — noted: 42 deals, €1.2M and 15%. Sure — I'll get you the board deck today.",
    );
    expectWellFormed(s?.text ?? '');
  });

  it('Ignore adds "AI suggestion dismissed by user." for the caller only', async () => {
    const th = await open(ceo, [maya.id], 200);
    await send(ceo, th.id, 'Please send the ops report.');
    await commsIdle(t.ctx);
    expect(await suggestion(maya, th.id)).toMatchObject({ status: 'ready' });
    const res = await t.req({
      method: 'POST',
      url: `/api/comms/threads/${th.id}/suggestion/dismiss`,
      token: maya.token,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      kind: 'system',
      sender_id: null,
      text: COMMS_SUGGESTION_DISMISSED_TEXT,
    });
    expect(COMMS_SUGGESTION_DISMISSED_TEXT).toBe('AI suggestion dismissed by user.');
    expect(await suggestion(maya, th.id)).toBeNull();
    expect((await messages(maya, th.id)).at(-1)?.text).toBe('AI suggestion dismissed by user.');
    expect((await messages(ceo, th.id)).map((m) => m.text)).not.toContain('AI suggestion dismissed by user.');
    // The system note does not change the list preview.
    expect((await threads(ceo)).find((x) => x.id === th.id)?.last_message_preview).toBe(
      'Please send the ops report.',
    );
    const none = await t.req({
      method: 'POST',
      url: `/api/comms/threads/${th.id}/suggestion/dismiss`,
      token: maya.token,
    });
    expect(none.statusCode).toBe(404);
  });

  it('a scripted demo colleague replies after 800-2000 ms; real people are never scripted', async () => {
    const th = await open(ceo, [bot.id]);
    const sent = await send(ceo, th.id, 'Hi Sofia, how is the pipeline?');
    const started = Date.now();
    let reply: Message | undefined;
    while (!reply && Date.now() - started < 4000) {
      await new Promise((r) => setTimeout(r, 100));
      reply = (await messages(ceo, th.id)).find((m) => m.sender_id === bot.id);
    }
    expect(reply).toMatchObject({ text: 'Scripted line one.', kind: 'user' });
    const delay = Date.parse(reply?.timestamp ?? '') - Date.parse(sent.timestamp);
    expect(delay).toBeGreaterThanOrEqual(800);
    expect(delay).toBeLessThan(2600);
    await commsIdle(t.ctx);
    expect(await suggestion(ceo, th.id)).toMatchObject({ status: 'ready' }); // the bot's reply gets one
    const human = await open(ceo, [leo.id], 200);
    const before = (await messages(ceo, human.id)).length;
    await send(ceo, human.id, 'Leo, are you there?');
    await commsIdle(t.ctx);
    await new Promise((r) => setTimeout(r, 2100));
    const after = await messages(ceo, human.id);
    expect(after.length).toBe(before + 1);
    expect(after.filter((m) => m.sender_id === leo.id)).toHaveLength(0);
  });

  it('Delete Chat hides the thread and its history for the caller only', async () => {
    const th = await open(leo, [bot.id, maya.id]);
    await send(maya, th.id, 'old history');
    await commsIdle(t.ctx);
    const del = await t.req({ method: 'DELETE', url: `/api/comms/threads/${th.id}`, token: leo.token });
    expect(del.statusCode).toBe(204);
    expect((await threads(leo)).map((x) => x.id)).not.toContain(th.id);
    expect((await threads(maya)).map((x) => x.id)).toContain(th.id);
    await send(maya, th.id, 'new message');
    const back = (await threads(leo)).find((x) => x.id === th.id);
    expect(back?.last_message_preview).toBe('new message');
    expect((await messages(leo, th.id)).map((m) => m.text)).toEqual(['new message']);
    const mayaSees = (await messages(maya, th.id)).filter((m) => m.sender_id === maya.id).map((m) => m.text);
    expect(mayaSees).toEqual(['old history', 'new message']);
    await commsIdle(t.ctx);
  });

  it('streams a posted message to a participant; others get 404', async () => {
    const th = await open(ceo, [maya.id], 200);
    const url = `${base}/api/comms/threads/${th.id}/events`;
    const stream = await connectSse(`${url}?token=${maya.token}`);
    expect(stream.status).toBe(200);
    const posted = await send(ceo, th.id, 'Live hello');
    const e = await stream.next(3000);
    expect(e.id).toBe(String(posted.seq));
    expect(e.data).toMatchObject({
      id: posted.id,
      thread_id: th.id,
      sender_id: ceo.id,
      text: 'Live hello',
      timestamp: posted.timestamp,
      sender_name: 'Olivia Tester',
    });
    // The suggested reply for Maya is announced on her stream.
    const s = await stream.next(3000);
    expect(s).toMatchObject({ event: 'suggestion', data: { thread_id: th.id } });
    stream.close();

    // Resuming from a cursor replays what came after it, once.
    await send(ceo, th.id, 'While you were away');
    const resumed = await connectSse(`${url}?token=${maya.token}`, { lastEventId: String(posted.seq) });
    const r = await resumed.next(3000);
    expect(r.data).toMatchObject({ text: 'While you were away' });
    resumed.close();

    for (const [who, status] of [
      [outsider, 404],
      [leo, 404],
      [waitlisted, 403],
    ] as const) {
      const other = await connectSse(`${url}?token=${who.token}`);
      expect(other.status).toBe(status);
      other.close();
    }
    const anon = await connectSse(url);
    expect(anon.status).toBe(401);
    anon.close();
    await commsIdle(t.ctx);
  });

  it('streams a posted message at once while another write is still being flushed', async () => {
    const opened = await t.req({
      method: 'POST',
      url: '/api/comms/threads',
      token: ceo.token,
      body: { participant_ids: [maya.id] },
    });
    expect([200, 201]).toContain(opened.statusCode); // new, or the one the earlier tests opened
    const th: Thread = opened.json();
    const stream = await connectSse(`${base}/api/comms/threads/${th.id}/events?token=${maya.token}`);
    expect(stream.status).toBe(200);
    await new Promise((r) => setTimeout(r, 100)); // the stream's first read is done
    const flush = holdFlush(t.ctx);
    try {
      const posted = await send(ceo, th.id, 'Not held back');
      // The message's note comes after its own flush: it need not wait for the one still due.
      const e = await stream.next(2000);
      expect(e).toMatchObject({ id: String(posted.seq), data: { text: 'Not held back' } });
    } finally {
      flush.land();
      flush.restore();
      stream.close();
    }
    await commsIdle(t.ctx);
  });

  it.runIf(TEST_DB === 'sqlite')('serves the thread list and message pages from indexes', async () => {
    expectIndexedPlan(
      await sqlitePlan(t.ctx.db, listThreadsQuery(t.ctx.db, { userId: ceo.id, skip: 0, limit: 50 })),
      'p',
    );
    expectIndexedPlan(
      await sqlitePlan(
        t.ctx.db,
        latestMessagesQuery(t.ctx.db, { threadId: 'x', viewerId: ceo.id, after: 0, limit: 50 }),
      ),
      'comms_messages',
    );
    expectIndexedPlan(
      await sqlitePlan(t.ctx.db, messagesAfterQuery(t.ctx.db, { threadId: 'x', after: 0, limit: 50 })),
      'comms_messages',
    );
    const plan = (
      await sqlitePlan(t.ctx.db, listThreadsQuery(t.ctx.db, { userId: ceo.id, skip: 0, limit: 50 }))
    ).join('\n');
    expect(plan).not.toContain('TEMP B-TREE');
  });
});
