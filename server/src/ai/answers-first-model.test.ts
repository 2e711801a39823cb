import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../test/helpers.ts';
import { type MockOpenAI, startMockOpenAI } from '../../test/mock-openai.ts';
import { streamAssistantTurn } from './assistant.ts';

// Issue 47 item 2 with a real model: the same facts (the KPI's latest check-in) reach the model, the
// prompt asks for the answer first, and the turn cites only the records the answer names.

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

apiSuite('answers first on a model server (OpenAI-compatible mock)', () => {
  let t: TestApp;
  let ceo: TestUser;
  let mock: MockOpenAI;
  beforeAll(async () => {
    mock = await startMockOpenAI({ models: ['gpt-5-chat'] });
    t = await createTestApp({ OPENAI_BASE_URL: mock.url, OPENAI_API_KEY: 'test-key', AI_MAX_RETRIES: '0' });
    ceo = await t.createUser('ceo');
    const goal = await t.req({
      method: 'POST',
      url: '/api/strategic-goals/',
      token: ceo.token,
      body: {
        title: 'Grow recurring revenue',
        start_date: day(-200),
        due_date: day(160),
        kpis: [{ name: 'ARR', current_value: 9.3, target_value: 12, unit: '$M' }],
      },
    });
    expect(goal.statusCode, goal.body).toBe(201);
    for (const title of ['Send the churn survey', 'Book the offsite venue', 'Hire a CFO'])
      await t.req({
        method: 'POST',
        url: '/api/tasks/',
        token: ceo.token,
        body: { title, priority: 'High' },
      });
  });
  afterAll(async () => {
    await t.close();
    await mock.close();
  });

  it('the model gets the KPI’s check-in date and the answer-first rule; only the named goal is cited', async () => {
    const before = mock.chatRequests().length;
    mock.script(
      { kind: 'tool-calls', calls: [{ name: 'workspace_snapshot', arguments: {} }] },
      { kind: 'text', chunks: [`ARR is 9.3 $M as of ${day(0)} (Goal “Grow recurring revenue”).`] },
    );
    const turn = await streamAssistantTurn({
      ctx: t.ctx,
      user: {
        id: ceo.id,
        email: ceo.email,
        first_name: 'Olivia',
        last_name: null,
        user_level: ceo.user_level,
        organization_id: null,
      },
      modelId: 'gpt-5-chat',
      history: [],
      message: 'What is our ARR now?',
      useMemory: false,
      useInternalSearch: true,
      useInternet: false,
    });
    for await (const _ of turn.textStream) {
      // drained
    }
    const r = await turn.result;
    expect(r.engine).not.toBe('offline');
    const sent = mock
      .chatRequests()
      .slice(before)
      .map((q) => JSON.stringify(q.body?.messages));
    expect(sent).toHaveLength(2);
    expect(sent[0]).toContain('Answer what was asked first');
    expect(sent[0]).toContain('prefer the KPI over any');
    // The snapshot the model reads carries the KPI's latest check-in date and staleness.
    expect(sent[1]).toContain(`\\"last_checkin_date\\":\\"${day(0)}\\"`);
    expect(sent[1]).toContain('Send the churn survey');
    // The snapshot held the goal and three tasks; the answer named only the goal.
    expect(r.sources.map((s) => s.title)).toEqual(['Grow recurring revenue']);
  });
});
