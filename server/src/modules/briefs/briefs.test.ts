import type { TBrief } from '@cc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import {
  seedCheckin,
  seedDraftItem,
  seedGoal,
  seedMessage,
  seedRun,
  seedRunInputItem,
  seedSuggestion,
  seedTask,
  seedThread,
  seedToolApprovalItem,
} from './briefs-test-kit.ts';
import { generateBrief } from './briefs.service.ts';
import { itemsWaitingFor } from './briefs.waiting.ts';

/** Monday 2026-06-15, 08:00 UTC: the seeded week is the seven days before it. */
const NOW = new Date('2026-06-15T08:00:00.000Z');

apiSuite('executive brief: facts from a seeded week', () => {
  let t: TestApp;
  let ceo: TestUser;
  let peer: TestUser;
  let colleague: TestUser;
  let outsider: TestUser;
  let orgA: string;
  let brief: TBrief;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp();
    ceo = await t.createUser('ceo', { first_name: 'Cleo' });
    peer = await t.createUser('user', { first_name: 'Pat' });
    colleague = await t.createUser('user', { first_name: 'Cole' });
    outsider = await t.createUser('ceo', { first_name: 'Otto' });
    orgA = await t.createOrg(ceo, 'Acme');
    const orgB = await t.createOrg(outsider, 'Elsewhere');
    await t.addToOrg(ceo, orgA, peer);
    await t.addToOrg(ceo, orgA, colleague);

    // Goals: one due in a week and behind its straight line, one with a stale KPI, and another
    // tenant's goal (behind and stale, with a check-in this week) that must never appear.
    const arr = await seedGoal(
      t,
      { owner: ceo, org: orgA, title: 'Grow ARR', due: '2026-06-22', created: '2026-05-16T00:00:00.000Z' },
      { name: 'ARR', current: 40, target: 100, unit: 'k€' },
    );
    const berlin = await seedGoal(
      t,
      {
        owner: ceo,
        org: null,
        title: 'Open Berlin office',
        due: '2026-12-31',
        created: '2026-06-01T00:00:00.000Z',
      },
      { name: 'Hires', current: 2, target: 10, unit: null },
    );
    const secret = await seedGoal(
      t,
      {
        owner: outsider,
        org: orgB,
        title: 'Secret merger',
        due: '2026-06-20',
        created: '2026-05-01T00:00:00.000Z',
      },
      { name: 'Targets', current: 1, target: 10, unit: null },
    );
    Object.assign(ids, {
      arr: arr.id,
      arrKpi: arr.kpiId,
      berlin: berlin.id,
      berlinKpi: berlin.kpiId,
      secret: secret.id,
    });
    await seedCheckin(t, arr.kpiId, 30, '2026-06-01', '2026-06-01T10:00:00.000Z');
    await seedCheckin(t, arr.kpiId, 35, '2026-06-10', '2026-06-10T10:00:00.000Z');
    await seedCheckin(t, arr.kpiId, 40, '2026-06-12', '2026-06-12T10:00:00.000Z');
    await seedCheckin(t, berlin.kpiId, 2, '2026-05-20', '2026-05-20T10:00:00.000Z');
    await seedCheckin(t, secret.kpiId, 1, '2026-06-11', '2026-06-11T10:00:00.000Z');

    // Tasks of the person: overdue or High/Urgent and open; the others are left out.
    ids.sendContracts = (
      await seedTask(t, {
        title: 'Send contracts',
        by: peer,
        assignee: ceo,
        priority: 'Medium',
        due: '2026-06-01',
      })
    ).id;
    ids.boardDeck = (
      await seedTask(t, { title: 'Board deck', by: ceo, assignee: ceo, priority: 'High', due: '2026-06-10' })
    ).id;
    ids.hireCfo = (await seedTask(t, { title: 'Hire CFO', by: ceo, priority: 'Urgent' })).id;
    await seedTask(t, { title: 'Tidy desk', by: ceo, priority: 'Low', due: '2026-06-20' });
    await seedTask(t, {
      title: 'Otto urgent',
      by: outsider,
      assignee: outsider,
      priority: 'High',
      due: '2026-06-02',
    });
    // Done this week for "Grow ARR": one visible to the ceo, one of another tenant, one done before the period.
    ids.acme = (
      await seedTask(t, {
        title: 'Close Acme deal',
        by: ceo,
        priority: 'High',
        status: 'Done',
        goalId: arr.id,
        updated: '2026-06-11T09:00:00.000Z',
      })
    ).id;
    await seedTask(t, {
      title: 'Hidden work',
      by: outsider,
      priority: 'High',
      status: 'Done',
      goalId: arr.id,
      updated: '2026-06-11T09:00:00.000Z',
    });
    await seedTask(t, {
      title: 'Old work',
      by: ceo,
      priority: 'Low',
      status: 'Done',
      goalId: arr.id,
      updated: '2026-06-01T09:00:00.000Z',
    });

    // Runs: one finished this week about the goal, one about something else, one waiting for an answer.
    ids.pipeline = (
      await seedRun(t, {
        user: ceo,
        name: 'Pipeline review',
        status: 'completed',
        inputs: { topic: 'Grow ARR pipeline' },
        created: '2026-06-13T11:00:00.000Z',
        finished: '2026-06-13T12:00:00.000Z',
      })
    ).id;
    await seedRun(t, {
      user: ceo,
      name: 'Hiring plan',
      status: 'completed',
      inputs: { topic: 'People' },
      created: '2026-06-13T11:00:00.000Z',
      finished: '2026-06-13T12:00:00.000Z',
    });
    // Waiting in the ceo's approvals inbox (opened by each source's own code): a run's question, a
    // tool call to approve, a task suggestion and (below) an AI-drafted reply. Another person's items,
    // a suggestion already decided and one delegated to Pat must not be listed.
    const boardPrep = await seedRun(t, {
      user: ceo,
      name: 'Board prep',
      status: 'awaiting_human_input',
      prompt: 'Which quarter?',
      created: '2026-06-14T09:00:00.000Z',
    });
    ids.boardPrep = boardPrep.id;
    ids.boardPrepItem = await seedRunInputItem(
      t,
      { ...boardPrep, user: ceo, prompt: 'Which quarter?' },
      '2026-06-14T09:00:00.000Z',
    );
    const vendorCheck = await seedRun(t, {
      user: ceo,
      name: 'Vendor check',
      status: 'paused',
      created: '2026-06-14T10:00:00.000Z',
    });
    ids.vendorItem = await seedToolApprovalItem(
      t,
      { ...vendorCheck, user: ceo },
      { tool: 'web_fetch', method: 'GET', url: 'https://vendors.example/list' },
      '2026-06-14T10:00:00.000Z',
    );
    const ottoRun = await seedRun(t, {
      user: outsider,
      name: 'Otto run',
      status: 'paused',
      prompt: 'Go?',
      created: '2026-06-14T09:00:00.000Z',
    });
    await seedRunInputItem(t, { ...ottoRun, user: outsider, prompt: 'Go?' }, '2026-06-14T09:00:00.000Z');
    const callCustomers = await seedSuggestion(t, ceo, 'Call top customers');
    ids.callCustomers = callCustomers.id;
    ids.callCustomersItem = callCustomers.itemId;
    await seedSuggestion(t, outsider, 'Otto suggestion');
    const decided = await seedSuggestion(t, ceo, 'Old idea', '2026-06-12T00:00:00.000Z');
    const rejected = await t.req({
      method: 'POST',
      url: `/api/task-suggestions/${decided.id}/reject`,
      token: ceo.token,
      body: { reason: 'Not now' },
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    const delegated = await seedSuggestion(t, ceo, 'Plan offsite', '2026-06-13T00:00:00.000Z');
    ids.delegatedItem = delegated.itemId;
    const handed = await t.req({
      method: 'POST',
      url: `/api/inbox/${delegated.itemId}/delegate`,
      token: ceo.token,
      body: { user_id: peer.id },
    });
    expect(handed.statusCode, handed.body).toBe(200);

    // Comms: Pat waits 30 hours for a reply; Cole wrote 2 hours ago (not yet overdue); a thread the
    // ceo is not in mentions the goal too and must not count.
    ids.patThread = await seedThread(t, ceo, peer);
    await seedMessage(t, ids.patThread, ceo, 'Cleo Tester', 'How are renewals?', '2026-06-13T09:00:00.000Z');
    await seedMessage(
      t,
      ids.patThread,
      peer,
      'Pat Tester',
      'Grow ARR: signed two renewals',
      '2026-06-14T02:00:00.000Z',
    );
    const coleThread = await seedThread(t, ceo, colleague);
    await seedMessage(t, coleThread, colleague, 'Cole Tester', 'Lunch?', '2026-06-15T06:00:00.000Z');
    const otherThread = await seedThread(t, peer, colleague);
    await seedMessage(
      t,
      otherThread,
      colleague,
      'Cole Tester',
      'Grow ARR is slipping',
      '2026-06-13T09:00:00.000Z',
    );
    ids.draftItem = await seedDraftItem(
      t,
      { threadId: ids.patThread, user: ceo, text: 'Congratulations on the renewals!', replyTo: 'Pat Tester' },
      '2026-06-14T11:00:00.000Z',
    );

    brief = await generateBrief(
      t.ctx,
      { id: ceo.id, organization_id: null },
      { trigger: 'manual', now: NOW },
    );
  });
  afterAll(() => t.close());

  const goalCite = (id: string, title: string) => ({
    type: 'goal',
    id,
    title,
    url: `/app/strategy?goal=${id}`,
  });
  const taskCite = (id: string, title: string) => ({
    type: 'task',
    id,
    title,
    url: `/app/my-tasks?task=${id}`,
  });
  const kpiCite = (id: string, goal: string, title: string) => ({
    type: 'kpi',
    id,
    title,
    url: `/app/strategy?goal=${goal}`,
  });
  const inboxCite = (id: string, title: string) => ({
    type: 'inbox',
    id,
    title,
    url: `/app/inbox?item=${id}`,
  });

  it('states every section exactly, with its numbers and citations', () => {
    expect(brief.period_start).toBe('2026-06-08T08:00:00.000Z');
    expect(brief.period_end).toBe(NOW.toISOString());
    expect(brief.sections).toEqual([
      {
        key: 'kpi_moves',
        title: 'KPI moves since the previous brief',
        enough_data: true,
        items: [
          {
            text: 'KPI “ARR” of goal “Grow ARR” moved from 30 to 40 k€, up 10 (target 100 k€).',
            citations: [kpiCite(ids.arrKpi, ids.arr, 'ARR'), goalCite(ids.arr, 'Grow ARR')],
          },
        ],
      },
      {
        key: 'goals_at_risk',
        title: 'Goals at risk',
        enough_data: true,
        items: [
          {
            // Figures from the goals module: 30 of 37 days gone (81 %), the check-ins' trend at the due date.
            text:
              'Goal “Grow ARR” (due 22 Jun 2026) is at risk: 40% done, 81% expected by today; ' +
              'KPI “ARR” is forecast at 46.48 k€ by the due date, short of its target of 100 k€.',
            citations: [goalCite(ids.arr, 'Grow ARR'), kpiCite(ids.arrKpi, ids.arr, 'ARR')],
          },
          {
            text: 'Goal “Open Berlin office” (due 31 Dec 2026) is at risk: KPI “Hires” has had no check-in since 20 May 2026.',
            citations: [
              goalCite(ids.berlin, 'Open Berlin office'),
              kpiCite(ids.berlinKpi, ids.berlin, 'Hires'),
            ],
          },
        ],
      },
      {
        key: 'my_tasks',
        title: 'Your overdue and High/Urgent tasks',
        enough_data: true,
        items: [
          {
            text: 'Task “Send contracts” (Medium) was due 1 Jun 2026 (14 days overdue).',
            citations: [taskCite(ids.sendContracts, 'Send contracts')],
          },
          {
            text: 'Task “Board deck” (High) was due 10 Jun 2026 (5 days overdue).',
            citations: [taskCite(ids.boardDeck, 'Board deck')],
          },
          {
            text: 'Task “Hire CFO” (Urgent) has no due date.',
            citations: [taskCite(ids.hireCfo, 'Hire CFO')],
          },
        ],
      },
      {
        key: 'items_waiting',
        title: 'Waiting for you',
        enough_data: true,
        items: [
          {
            text: 'Task suggestion “Call top customers” waits for your approval.',
            citations: [inboxCite(ids.callCustomersItem, 'Call top customers')],
          },
          {
            text: 'Run “Board prep” waits for your answer: Which quarter?',
            citations: [inboxCite(ids.boardPrepItem, 'Board prep')],
          },
          {
            text: 'Run “Vendor check” asks to call web_fetch (GET https://vendors.example/list).',
            citations: [inboxCite(ids.vendorItem, 'Vendor check')],
          },
          {
            text: 'AI draft reply in “Pat Tester” waits for your review.',
            citations: [inboxCite(ids.draftItem, 'Pat Tester')],
          },
        ],
      },
      {
        key: 'comms_waiting',
        title: 'Threads awaiting your reply',
        enough_data: true,
        items: [
          {
            text: 'Pat Tester wrote 30 hours ago and is waiting for your reply.',
            citations: [
              {
                type: 'thread',
                id: ids.patThread,
                title: 'Conversation with Pat Tester',
                url: `/app/comms?thread=${ids.patThread}`,
              },
            ],
          },
        ],
      },
      {
        key: 'why_it_moved',
        title: 'Why it moved',
        enough_data: true,
        items: [
          {
            text: 'Goal “Grow ARR”: 1 task done, 1 run finished, 1 message exchanged in the period.',
            citations: [
              goalCite(ids.arr, 'Grow ARR'),
              taskCite(ids.acme, 'Close Acme deal'),
              {
                type: 'run',
                id: ids.pipeline,
                title: 'Pipeline review',
                url: `/app/runs/flow/${ids.pipeline}`,
              },
              {
                type: 'thread',
                id: ids.patThread,
                title: 'Conversation with Pat Tester',
                url: `/app/comms?thread=${ids.patThread}`,
              },
            ],
          },
        ],
      },
    ]);
  });

  it('writes a checked summary and the top three actions from the facts (offline engine)', () => {
    expect(brief.summary_status).toBe('checked');
    expect(brief.summary).toBe(
      'Since the previous brief: 1 KPI moved; 2 goals are at risk; 3 tasks need you; 4 items are waiting; ' +
        '1 thread awaits your reply. Most pressing: Goal “Grow ARR” (due 22 Jun 2026) is at risk: 40% done, ' +
        '81% expected by today; KPI “ARR” is forecast at 46.48 k€ by the due date, short of its target of 100 k€.',
    );
    expect(brief.actions).toEqual([
      {
        text: 'Review the plan of goal “Grow ARR”.',
        citations: [goalCite(ids.arr, 'Grow ARR'), kpiCite(ids.arrKpi, ids.arr, 'ARR')],
      },
      {
        text: 'Finish or re-date task “Send contracts”.',
        citations: [taskCite(ids.sendContracts, 'Send contracts')],
      },
      {
        text: 'Decide on “Call top customers” in your inbox.',
        citations: [inboxCite(ids.callCustomersItem, 'Call top customers')],
      },
    ]);
  });

  it('never cites a record of another tenant', () => {
    const cited = JSON.stringify([brief.sections, brief.actions]);
    expect(cited).not.toContain(ids.secret);
    for (const word of ['Secret merger', 'Otto', 'Hidden work', 'slipping', 'Old idea', 'Plan offsite'])
      expect(cited).not.toContain(word);
  });

  it('lists the pending inbox items oldest first; a delegated item waits for its delegate', async () => {
    const ceos = await itemsWaitingFor(t.ctx, ceo.id);
    expect(ceos.waiting.map((w) => w.citation.id).slice(0, 2)).toEqual([
      ids.callCustomersItem,
      ids.boardPrepItem,
    ]);
    expect(await itemsWaitingFor(t.ctx, peer.id)).toEqual({
      waiting: [
        {
          text: 'Task suggestion “Plan offsite” waits for your approval.',
          citation: inboxCite(ids.delegatedItem, 'Plan offsite'),
        },
      ],
      total: 1,
    });
  });

  it('measures the next brief from the previous one; when nothing moved it says "Not enough data" and no "Why it moved"', async () => {
    const next = await generateBrief(
      t.ctx,
      { id: ceo.id, organization_id: null },
      {
        trigger: 'manual',
        now: new Date('2026-06-16T08:00:00.000Z'),
      },
    );
    expect(next.period_start).toBe(NOW.toISOString());
    const byKey = Object.fromEntries(next.sections.map((s) => [s.key, s]));
    expect(byKey.kpi_moves).toMatchObject({
      enough_data: false,
      items: [{ text: 'Not enough data', citations: [] }],
    });
    expect(next.sections.map((s) => s.key)).not.toContain('why_it_moved');
    expect(JSON.stringify(next)).not.toMatch(/\b0 (tasks|runs|messages)\b/);
  });

  it('serves the history newest first, one brief to its owner only, paginated', async () => {
    const made = await t.req({ method: 'POST', url: '/api/briefs/generate', token: ceo.token });
    expect(made.statusCode, made.body).toBe(201);
    const list = await t.req({ method: 'GET', url: '/api/briefs/?limit=2', token: ceo.token });
    expect(list.statusCode).toBe(200);
    const rows = list.json() as TBrief[];
    expect(rows.map((b) => b.id)).toEqual([made.json().id, rows[1].id]);
    expect(rows[1].period_end).toBe('2026-06-16T08:00:00.000Z');
    const page2 = await t.req({ method: 'GET', url: '/api/briefs/?skip=2&limit=2', token: ceo.token });
    expect((page2.json() as TBrief[]).map((b) => b.id)).toEqual([brief.id]);

    const own = await t.req({ method: 'GET', url: `/api/briefs/${brief.id}`, token: ceo.token });
    expect(own.json()).toEqual(brief);
    const theirs = await t.req({ method: 'GET', url: `/api/briefs/${brief.id}`, token: outsider.token });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual({ detail: 'Brief not found' });
    const otherList = await t.req({ method: 'GET', url: '/api/briefs/', token: outsider.token });
    expect(otherList.json()).toEqual([]);
  });

  it("builds another person's brief from what they see: no ceo-only records", async () => {
    const theirs = await generateBrief(
      t.ctx,
      { id: outsider.id, organization_id: null },
      { trigger: 'manual', now: NOW },
    );
    const cited = JSON.stringify(theirs.sections);
    for (const id of [
      ids.arr,
      ids.berlin,
      ids.boardDeck,
      ids.patThread,
      ids.boardPrepItem,
      ids.callCustomersItem,
      ids.draftItem,
    ])
      expect(cited).not.toContain(id);
    expect(cited).toContain(ids.secret);
  });
});
