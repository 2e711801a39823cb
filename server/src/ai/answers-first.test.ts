import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../test/helpers.ts';
import type { AuthUser } from '../platform/auth/authenticate.ts';
import { streamAssistantTurn } from './assistant.ts';
import { expectWellFormed } from './offline/offline-test-kit.ts';
import { OFFLINE_NOTICE } from './offline/types.ts';

// Issue 47 item 2 "Answers first": what an executive asks is answered first from the workspace's
// records (through the API, on both engines), and only the records the answer used are cited.

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** Markdown syntax, JSON and internal names that must never reach an answer as raw text. */
const RAW = [
  /^#{1,6}\s/m,
  /\*\*/,
  /__/,
  /`/,
  /\["/,
  /":/,
  /\{"/,
  /\b(goal|task|kpi)_id\b/,
  /\binternal_search\b/,
];

apiSuite('answers first on the offline engine', () => {
  let t: TestApp;
  let ceo: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ AI_OFFLINE_TOKEN_DELAY_MS: '0' });
    ceo = await t.createUser('ceo');
    const goal = async (body: Record<string, unknown>) => {
      const res = await t.req({ method: 'POST', url: '/api/strategic-goals/', token: ceo.token, body });
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as { id: string; kpis: { id: string }[] };
    };
    const arr = await goal({
      title: 'Grow recurring revenue',
      start_date: day(-200),
      due_date: day(160),
      kpis: [{ name: 'ARR', current_value: 8.9, target_value: 12, unit: '$M' }],
    });
    // The goal's creation recorded 8.9 today; today's check-in replaces it, after an older one.
    for (const [value, date] of [
      [8.5, day(-30)],
      [9.3, day(0)],
    ] as const) {
      const res = await t.req({
        method: 'POST',
        url: `/api/strategic-goals/${arr.id}/kpis/${arr.kpis[0].id}/checkins`,
        token: ceo.token,
        body: { value, date },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    // Behind: most of the time has gone, a quarter of the KPI is done.
    await goal({
      title: 'Reduce churn',
      start_date: day(-300),
      due_date: day(30),
      kpis: [{ name: 'Churned accounts recovered', current_value: 1, target_value: 4, unit: 'accounts' }],
    });
    // A stale note with an older ARR figure, in markdown: the KPI wins, and no markdown leaks.
    await t.req({
      method: 'POST',
      url: '/api/journals/',
      token: ceo.token,
      body: { content: '## ARR notes\n**ARR** was 8.4M at the offsite', entry_date: day(-90) },
    });
    // A contact's search body ends with its e-mails as JSON: a snippet must not show it raw.
    const contact = await t.req({
      method: 'POST',
      url: '/api/contacts/',
      token: ceo.token,
      body: {
        name: 'Priya Shah',
        role: 'Events lead',
        notes: 'Knows the offsite venues',
        emails: ['priya@example.com', 'priya.shah@example.org'],
      },
    });
    expect(contact.statusCode, contact.body).toBe(201);
    for (const [title, due] of [
      ['Send the churn survey', day(-5)],
      ['Book the offsite venue', day(-3)],
      ['Prepare the pricing review', day(10)],
    ])
      await t.req({
        method: 'POST',
        url: '/api/tasks/',
        token: ceo.token,
        body: { title, priority: 'High', due_date: due },
      });
  });
  afterAll(() => t.close());

  const ask = async (message: string) => {
    const user: AuthUser = {
      id: ceo.id,
      email: ceo.email,
      first_name: 'Olivia',
      last_name: 'Tester',
      user_level: ceo.user_level,
      organization_id: null,
    };
    const turn = await streamAssistantTurn({
      ctx: t.ctx,
      user,
      history: [],
      message,
      useMemory: false,
      useInternalSearch: true,
      useInternet: false,
    });
    for await (const _ of turn.textStream) {
      // drained: the result settles with the whole text
    }
    const r = await turn.result;
    const lines = r.text.split('\n\n');
    expect(lines[0]).toBe(OFFLINE_NOTICE);
    const body = lines.slice(1).join('\n\n');
    for (const raw of RAW) expect(body, `leaks ${raw}`).not.toMatch(raw);
    for (const s of r.sources) for (const raw of RAW) expect(s.title, `label leaks ${raw}`).not.toMatch(raw);
    expectWellFormed(r.text);
    return { ...r, answer: lines[1] };
  };

  it('a metric question gives the KPI’s latest value, its date, the target, the trend and the forecast', async () => {
    const r = await ask('What is our ARR now?');
    expect(r.answer).toBe(
      `ARR is 9.3 $M as of ${day(0)}, against a target of 12 $M by ${day(160)}; it is up from 8.5 $M on ` +
        `${day(-30)} and forecast at ${r.answer.match(/forecast at ([\d.]+) \$M/)?.[1]} $M by the due date (on track).`,
    );
    expect(r.text).not.toContain('8.4');
    expect(r.sources.map((s) => s.title)).toEqual(['Grow recurring revenue']);
  });

  it('“what is behind and what should I do” names exactly the at-risk goals with reasons and at most three actions', async () => {
    const r = await ask('Which goals are behind plan and what should I do this week?');
    expect(r.answer).toMatch(
      /^One goal is behind plan\. Goal “Reduce churn” is at risk: \d+% done, \d+% expected by today/,
    );
    expect(r.answer).not.toContain('Grow recurring revenue');
    const actions = r.answer.split('This week I would ')[1] ?? '';
    expect(actions).toContain('finish or re-date Task “Send the churn survey”');
    expect(actions).toContain('finish or re-date Task “Book the offsite venue”');
    expect((actions.match(/Task “|KPI “|move /g) ?? []).length).toBeLessThanOrEqual(3);
    expect(r.sources.map((s) => s.title).sort()).toEqual(
      ['Book the offsite venue', 'Reduce churn', 'Send the churn survey'].sort(),
    );
  });

  it('a draft request gives a draft in plain prose built from the facts', async () => {
    const r = await ask('Draft a 200-word note to the board about ARR');
    expect(r.text).toContain('Here is a draft you can edit and send:\n\nDear board,\n\n');
    expect(r.text).toContain(`ARR is 9.3 $M as of ${day(0)}`);
    expect(r.text).toContain('Reduce churn is behind plan');
    expect(r.text).toMatch(/Best regards,\nOlivia/);
    expect(r.text).not.toMatch(/^\s*(?:[-*]|\d+\.)\s/m);
    expect(r.text.split(/\s+/).length).toBeLessThanOrEqual(200);
    expect(r.sources.map((s) => s.title)).toContain('Reduce churn');
  });

  it('a note stored as markdown and a contact’s JSON fields reach neither the answer nor a citation label as raw text', async () => {
    const contact = await t.req({
      method: 'POST',
      url: '/api/contacts/',
      token: ceo.token,
      body: { name: 'Priya Offsite', emails: ['priya@example.com'], notes: '**Offsite** host' },
    });
    expect(contact.statusCode, contact.body).toBe(201);
    const r = await ask('What did we note at the offsite?');
    // ask() checks the answer and every label for markdown, JSON and internal names.
    expect(r.sources.length).toBeGreaterThan(0);
    expect(r.text).not.toContain('## ARR notes');
  });

  it('a contact found by search is said in words: its e-mails never show as JSON', async () => {
    const r = await ask('Anything about Priya Shah and the venues?');
    // ask() has checked the answer and the labels for raw JSON; the contact is what it found.
    expect(r.sources.map((s) => s.title)).toContain('Priya Shah');
    expect(r.text).toContain('Priya Shah');
  });

  it('anything else is the best matching record in a sentence with a few citations, not a list', async () => {
    const r = await ask('Anything on the offsite?');
    expect(r.answer.split('\n')).toHaveLength(1);
    expect(r.text).not.toMatch(/^- /m);
    expect(r.sources.length).toBeGreaterThan(0);
    expect(r.sources.length).toBeLessThanOrEqual(3);
    expect(r.sources.map((s) => s.title)).toContain('Book the offsite venue');
  });
});
