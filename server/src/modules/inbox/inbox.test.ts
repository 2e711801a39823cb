import { INBOX_ANSWER_REQUIRED, type TInboxItem } from '@cc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfill } from '../../db/migrations/0015_inbox_items.ts';
import { apiSuite, createTestApp, TEST_DB, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { expectIndexedPlan, sqlitePlan } from '../../../test/query-plan.ts';
import { connectSse } from '../../../test/sse.ts';
import { commsIdle } from '../comms/comms.messages.ts';
import { waitForStatus } from '../runs/runs-test-kit.ts';
import { countPendingQuery, listPendingQuery } from './inbox.repository.ts';

apiSuite('approvals inbox', () => {
  let t: TestApp;
  let ceo: TestUser;
  let member: TestUser;
  let outsider: TestUser;

  const post = (u: TestUser, url: string, body?: unknown) =>
    t.req({ method: 'POST', url, token: u.token, body });
  const inbox = async (u: TestUser) => {
    const res = await t.req({ method: 'GET', url: '/api/inbox/', token: u.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { items: TInboxItem[]; total: number };
  };
  const count = async (u: TestUser) =>
    (await t.req({ method: 'GET', url: '/api/inbox/count', token: u.token })).json().count as number;
  const itemsOf = async (u: TestUser, kind: TInboxItem['kind']) =>
    (await inbox(u)).items.filter((i) => i.kind === kind);
  /** The run engine opens the item just after it commits the pause: wait for it briefly. */
  const runItems = async (runId: string, want: number) => {
    const deadline = Date.now() + 5_000;
    let found: TInboxItem[] = [];
    while (Date.now() < deadline) {
      found = (await itemsOf(ceo, 'run_input')).filter((i) => i.details.run_id === runId);
      if (found.length >= want) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    return found;
  };

  beforeAll(async () => {
    t = await createTestApp({ RUN_POLL_MS: '100' });
    ceo = await t.createUser('ceo', { first_name: 'Olivia' });
    member = await t.createUser('user', { first_name: 'Maya' });
    outsider = await t.createUser('ceo', { first_name: 'Otto' });
    const org = await t.createOrg(ceo, 'Inbox Co');
    await t.addToOrg(ceo, org, member, 'user');
    await t.createOrg(outsider, 'Elsewhere');
  });
  afterAll(() => t.close());

  describe('task suggestions', () => {
    let items: TInboxItem[] = [];

    it('each new suggestion waits in the ceo inbox, oldest first, with what the AI based it on', async () => {
      for (const title of ['Draft hiring plan', 'Price the EU launch', 'Book the offsite', 'Audit vendors']) {
        expect((await post(ceo, '/api/tasks/', { title })).statusCode).toBe(201);
      }
      const generated = await post(ceo, '/api/task-suggestions/generate');
      expect(generated.statusCode, generated.body).toBe(200);
      const suggestions = generated.json().suggestions as {
        id: string;
        title: string;
        llm_context: string;
      }[];
      expect(suggestions.length).toBeGreaterThanOrEqual(4);

      const list = await inbox(ceo);
      items = list.items.filter((i) => i.kind === 'task_suggestion');
      expect(items.map((i) => i.source.id).sort()).toEqual(suggestions.map((s) => s.id).sort());
      expect(list.total).toBe(list.items.length);
      expect(await count(ceo)).toBe(list.items.length);
      const first = items[0];
      const s = suggestions.find((x) => x.id === first.source.id);
      expect(first).toMatchObject({
        title: s?.title,
        assignee_user_id: ceo.id,
        source: { type: 'task_suggestion', url: '/app/my-tasks' },
        details: { title: s?.title, based_on: s?.llm_context },
      });
      const created = list.items.map((i) => i.created_at);
      expect(created).toEqual([...created].sort());
      // Nobody else sees them.
      expect((await inbox(member)).items).toEqual([]);
      expect(await count(outsider)).toBe(0);
    });

    it('approve (with edits) creates the task; the item leaves; acting again is 409', async () => {
      const item = items[0];
      const before = await count(ceo);
      const res = await post(ceo, `/api/inbox/${item.id}/approve`, {
        edits: { title: 'Hire two engineers', priority: 'High' },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ id: item.id, status: 'approved' });
      const row = await t.ctx.db
        .selectFrom('task_suggestions')
        .selectAll()
        .where('id', '=', item.source.id)
        .executeTakeFirst();
      expect(row).toMatchObject({ status: 'approved', title: 'Hire two engineers', priority: 'High' });
      const task = await t.ctx.db
        .selectFrom('tasks')
        .selectAll()
        .where('id', '=', row?.task_id ?? '')
        .executeTakeFirst();
      expect(task).toMatchObject({ title: 'Hire two engineers', priority: 'High' });
      expect((await inbox(ceo)).items.some((i) => i.id === item.id)).toBe(false);
      expect(await count(ceo)).toBe(before - 1);
      expect((await post(ceo, `/api/inbox/${item.id}/approve`, {})).statusCode).toBe(409);
      expect((await post(ceo, `/api/inbox/${item.id}/reject`, { reason: 'late' })).statusCode).toBe(409);
    });

    it('reject needs a non-blank reason and dismisses the suggestion with it', async () => {
      const item = items[1];
      const blank = await post(ceo, `/api/inbox/${item.id}/reject`, { reason: '   ' });
      expect(blank.statusCode).toBe(422);
      const res = await post(ceo, `/api/inbox/${item.id}/reject`, { reason: 'Not this quarter' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().status).toBe('rejected');
      const row = await t.ctx.db
        .selectFrom('task_suggestions')
        .selectAll()
        .where('id', '=', item.source.id)
        .executeTakeFirst();
      expect(row).toMatchObject({ status: 'rejected', rejection_reason: 'Not this quarter' });
      const settled = await t.ctx.db
        .selectFrom('inbox_items')
        .selectAll()
        .where('id', '=', item.id)
        .executeTakeFirst();
      expect(settled).toMatchObject({ status: 'rejected', reason: 'Not this quarter', resolved_by: ceo.id });
      expect((await itemsOf(ceo, 'task_suggestion')).some((i) => i.id === item.id)).toBe(false);
    });

    it('a suggestion rejected in its own screen leaves the inbox at once', async () => {
      const item = items[2];
      const res = await post(ceo, `/api/task-suggestions/${item.source.id}/reject`, {
        reason: 'Done already',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect((await itemsOf(ceo, 'task_suggestion')).some((i) => i.id === item.id)).toBe(false);
      expect((await post(ceo, `/api/inbox/${item.id}/approve`, {})).statusCode).toBe(409);
    });

    it('someone else’s item is 404; delegation moves it to a member of the same organization', async () => {
      const item = items[3];
      for (const who of [member, outsider]) {
        expect((await post(who, `/api/inbox/${item.id}/approve`, {})).statusCode).toBe(404);
        expect((await post(who, `/api/inbox/${item.id}/reject`, { reason: 'x' })).statusCode).toBe(404);
        expect((await post(who, `/api/inbox/${item.id}/delegate`, { user_id: who.id })).statusCode).toBe(404);
      }
      expect((await post(ceo, `/api/inbox/${item.id}/approve`, { wrong: 1 })).statusCode).toBe(422);
      const away = await post(ceo, `/api/inbox/${item.id}/delegate`, { user_id: outsider.id });
      expect(away.statusCode).toBe(422);
      const nobody = await post(ceo, `/api/inbox/${item.id}/delegate`, { user_id: 'no-such-user' });
      expect(nobody.statusCode).toBe(422);
      expect(nobody.json().detail).toEqual(away.json().detail);

      const moved = await post(ceo, `/api/inbox/${item.id}/delegate`, { user_id: member.id });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(moved.json()).toMatchObject({ status: 'pending', assignee_user_id: member.id });
      expect((await inbox(ceo)).items.some((i) => i.id === item.id)).toBe(false);
      expect((await inbox(member)).items.map((i) => i.id)).toEqual([item.id]);
      expect(await count(member)).toBe(1);
      // Now it is the member's: the ceo no longer sees it.
      expect((await post(ceo, `/api/inbox/${item.id}/approve`, {})).statusCode).toBe(404);
      const done = await post(member, `/api/inbox/${item.id}/approve`, {});
      expect(done.statusCode, done.body).toBe(200);
      const row = await t.ctx.db
        .selectFrom('task_suggestions')
        .selectAll()
        .where('id', '=', item.source.id)
        .executeTakeFirst();
      expect(row?.status).toBe('approved');
      const settled = await t.ctx.db
        .selectFrom('inbox_items')
        .selectAll()
        .where('id', '=', item.id)
        .executeTakeFirst();
      expect(settled).toMatchObject({ status: 'approved', resolved_by: member.id });
      expect(await count(member)).toBe(0);
    });
  });

  describe('runs waiting for input', () => {
    const flowWaiting = async (prompt: string) => {
      const flow = await post(ceo, '/api/flows/', {
        name: `Flow ${Math.random().toString(36).slice(2, 7)}`,
        steps: [
          { title: 'Ask', kind: 'wait_for_human', prompt },
          { title: 'Then', kind: 'wait_for_human', prompt: `${prompt} (second)` },
        ],
      });
      expect(flow.statusCode, flow.body).toBe(201);
      const started = await post(ceo, '/api/flow-runs/', { flow_id: flow.json().id });
      expect(started.statusCode, started.body).toBe(201);
      const id = started.json().flow_run_id as string;
      await waitForStatus(t.req, ceo.token, 'flow', id, ['paused']);
      const [item] = await runItems(id, 1);
      expect(item).toBeDefined();
      return { id, item };
    };

    it('a waiting run is an item; approving answers it, and the next question is a new item', async () => {
      const { id, item } = await flowWaiting('Ship it?');
      expect(item).toMatchObject({ summary: 'Ship it?', source: { type: 'run', url: '/app/run' } });
      expect((await post(ceo, `/api/inbox/${item.id}/approve`, {})).statusCode).toBe(422);
      const res = await post(ceo, `/api/inbox/${item.id}/approve`, { edits: { answer: 'Yes, ship' } });
      expect(res.statusCode, res.body).toBe(200);
      const timeline = await t.req({ method: 'GET', url: `/api/flow-runs/${id}/timeline`, token: ceo.token });
      expect(
        (timeline.json().timeline as { type: string; details: { user_input?: string } }[]).some(
          (e) => e.type === 'human_input' && e.details?.user_input === 'Yes, ship',
        ),
      ).toBe(true);
      expect(
        (await post(ceo, `/api/inbox/${item.id}/approve`, { edits: { answer: 'again' } })).statusCode,
      ).toBe(409);
      // The run asks its second question: a new item, the first one stays settled.
      await waitForStatus(t.req, ceo.token, 'flow', id, ['paused']);
      const next = await runItems(id, 1);
      expect(next.map((i) => i.summary)).toEqual(['Ship it? (second)']);
      expect(next[0].id).not.toBe(item.id);
    });

    it('Approve without an answer sends the answer an approval question names; any other question is 422', async () => {
      const asking = 'Do you approve this plan? Answer "yes" or describe the changes you want.';
      const { id, item } = await flowWaiting(asking);
      const res = await post(ceo, `/api/inbox/${item.id}/approve`, {});
      expect(res.statusCode, res.body).toBe(200);
      const timeline = await t.req({ method: 'GET', url: `/api/flow-runs/${id}/timeline`, token: ceo.token });
      const answers = (timeline.json().timeline as { type: string; details: { user_input?: string } }[])
        .filter((e) => e.type === 'human_input')
        .map((e) => e.details.user_input);
      expect(answers).toEqual(['yes']);
      await post(ceo, `/api/flow-runs/${id}/stop`);

      // A question that names no approving answer: Approve alone answers nothing, the run still waits.
      const other = await flowWaiting('Which quarter?');
      const bare = await post(ceo, `/api/inbox/${other.item.id}/approve`, {});
      expect(bare.statusCode, bare.body).toBe(422);
      expect(JSON.stringify(bare.json().detail)).toContain(INBOX_ANSWER_REQUIRED);
      expect((await itemsOf(ceo, 'run_input')).map((i) => i.id)).toContain(other.item.id);
      await post(ceo, `/api/flow-runs/${other.id}/stop`);
    });

    it('answered or stopped on the run page, the item leaves; rejecting in the inbox stops the run', async () => {
      const answered = await flowWaiting('Answer on the page?');
      const cont = await post(ceo, `/api/flow-runs/${answered.id}/continue`, { user_input: 'ok' });
      expect(cont.statusCode, cont.body).toBe(200);
      expect((await itemsOf(ceo, 'run_input')).some((i) => i.id === answered.item.id)).toBe(false);

      const stopped = await flowWaiting('Stop on the page?');
      expect((await post(ceo, `/api/flow-runs/${stopped.id}/stop`)).statusCode).toBe(200);
      expect((await itemsOf(ceo, 'run_input')).some((i) => i.details.run_id === stopped.id)).toBe(false);

      const rejected = await flowWaiting('Reject in the inbox?');
      const res = await post(ceo, `/api/inbox/${rejected.item.id}/reject`, { reason: 'Wrong plan' });
      expect(res.statusCode, res.body).toBe(200);
      const run = await waitForStatus(t.req, ceo.token, 'flow', rejected.id, ['failed']);
      expect(run.status).toBe('failed');
      const settled = await t.ctx.db
        .selectFrom('inbox_items')
        .selectAll()
        .where('id', '=', rejected.item.id)
        .executeTakeFirst();
      expect(settled).toMatchObject({ status: 'rejected', reason: 'Wrong plan' });
      // Clean up the first run's second question.
      await post(ceo, `/api/flow-runs/${answered.id}/stop`);
    });
  });

  describe('AI-drafted comms replies', () => {
    let thread: string;
    const draftItem = async () =>
      (await itemsOf(ceo, 'comms_draft')).find((i) => i.details.thread_id === thread);
    const incoming = async (text: string) => {
      expect((await post(member, `/api/comms/threads/${thread}/messages`, { text })).statusCode).toBe(201);
      await commsIdle(t.ctx);
    };

    beforeAll(async () => {
      const res = await post(ceo, '/api/comms/threads', { participant_ids: [member.id] });
      expect(res.statusCode, res.body).toBeLessThan(300);
      thread = res.json().id;
    });

    it('a ready draft is an item; approving sends the edited text as the ai-suggested message', async () => {
      await incoming('Can we move the budget review to Friday?');
      const item = await draftItem();
      expect(item).toMatchObject({
        source: { type: 'comms_thread', url: `/app/comms?thread=${thread}` },
        details: { based_on: expect.stringContaining('budget review') },
      });
      expect(String(item?.details.text)).not.toBe('');
      const res = await post(ceo, `/api/inbox/${item?.id}/approve`, { edits: { text: 'Friday works.' } });
      expect(res.statusCode, res.body).toBe(200);
      const msgs = await t.req({
        method: 'GET',
        url: `/api/comms/threads/${thread}/messages`,
        token: member.token,
      });
      expect((msgs.json() as unknown[]).at(-1)).toMatchObject({
        text: 'Friday works.',
        sender_id: ceo.id,
        ai_suggested: true,
      });
      expect(await draftItem()).toBeUndefined();
      expect((await post(ceo, `/api/inbox/${item?.id}/approve`, {})).statusCode).toBe(409);
    });

    it('ignored in the thread, or answered by hand, the draft leaves; rejecting in the inbox ignores it', async () => {
      await incoming('And the slides?');
      expect(await draftItem()).toBeDefined();
      expect((await post(ceo, `/api/comms/threads/${thread}/suggestion/dismiss`)).statusCode).toBe(201);
      expect(await draftItem()).toBeUndefined();

      await incoming('Still there?');
      expect(await draftItem()).toBeDefined();
      expect((await post(ceo, `/api/comms/threads/${thread}/messages`, { text: 'Yes!' })).statusCode).toBe(
        201,
      );
      expect(await draftItem()).toBeUndefined();

      await incoming('One more thing.');
      const item = await draftItem();
      const res = await post(ceo, `/api/inbox/${item?.id}/reject`, { reason: 'I will call instead' });
      expect(res.statusCode, res.body).toBe(200);
      expect(await draftItem()).toBeUndefined();
      const s = await t.req({
        method: 'GET',
        url: `/api/comms/threads/${thread}/suggestion`,
        token: ceo.token,
      });
      expect(s.json().suggestion).toBeNull();
    });
  });

  it('every change reaches the assignee’s open streams', async () => {
    const base = await t.listen();
    const stream = await connectSse(`${base}/api/inbox/events?token=${member.token}`);
    expect(stream.status).toBe(200);
    const other = await connectSse(`${base}/api/inbox/events?token=${outsider.token}`);
    expect((await post(ceo, '/api/tasks/', { title: 'Live inbox task' })).statusCode).toBe(201);
    await post(ceo, '/api/task-suggestions/generate');
    const item = (await itemsOf(ceo, 'task_suggestion'))[0];
    expect(item).toBeDefined();
    expect((await post(ceo, `/api/inbox/${item.id}/delegate`, { user_id: member.id })).statusCode).toBe(200);
    expect((await stream.next(3000)).data).toMatchObject({ kind: 'inbox_changed' });
    expect((await post(member, `/api/inbox/${item.id}/reject`, { reason: 'No' })).statusCode).toBe(200);
    expect((await stream.next(3000)).data).toMatchObject({ kind: 'inbox_changed' });
    await expect(other.next(300)).rejects.toThrow();
    stream.close();
    other.close();
  });

  it('what was already waiting when the table was made is backfilled', async () => {
    await t.ctx.db.deleteFrom('inbox_items').execute();
    await backfill(t.ctx.db);
    const rows = await t.ctx.db.selectFrom('inbox_items').selectAll().execute();
    const pending = await t.ctx.db
      .selectFrom('task_suggestions')
      .select('id')
      .where('status', '=', 'pending')
      .execute();
    expect(
      rows
        .filter((r) => r.kind === 'task_suggestion')
        .map((r) => r.source_id)
        .sort(),
    ).toEqual(pending.map((p) => p.id).sort());
    const paused = await t.ctx.db.selectFrom('runs').select('id').where('status', '=', 'paused').execute();
    expect(rows.filter((r) => r.kind === 'run_input').length).toBe(paused.length);
    expect(await count(ceo)).toBe(rows.filter((r) => r.assignee_user_id === ceo.id).length);
  });

  it.runIf(TEST_DB === 'sqlite')('the count is one indexed query, and so is the page', async () => {
    expectIndexedPlan(await sqlitePlan(t.ctx.db, countPendingQuery(t.ctx.db, ceo.id)), 'inbox_items');
    const page = await sqlitePlan(t.ctx.db, listPendingQuery(t.ctx.db, ceo.id, 0, 100));
    expectIndexedPlan(page, 'inbox_items');
    expect(page.join('\n')).toContain('inbox_items_assignee_status_idx');
  });
  it.runIf(TEST_DB === 'sqlite')(
    'the list and count come from the read cache until an item changes (SQLite)',
    async () => {
      const get = (url: string) => t.req({ method: 'GET', url, token: ceo.token });
      for (const url of ['/api/inbox/', '/api/inbox/count']) {
        await get(url);
        expect((await get(url)).headers['x-cache'], url).toBe('hit');
      }
      expect((await post(ceo, '/api/tasks/', { title: 'Plan the board pack' })).statusCode).toBe(201);
      expect((await post(ceo, '/api/task-suggestions/generate')).statusCode).toBe(200);
      const fresh = await get('/api/inbox/count');
      expect(fresh.headers['x-cache']).toBe('miss');
      expect(fresh.json().count).toBe(
        await t.ctx.db
          .selectFrom('inbox_items')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('assignee_user_id', '=', ceo.id)
          .where('status', '=', 'pending')
          .executeTakeFirstOrThrow()
          .then((r) => Number(r.n)),
      );
    },
  );
});
