import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { type MockOpenAI, startMockOpenAI } from '../../../test/mock-openai.ts';

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

// Task suggestions through a real provider (the mock OpenAI-compatible server): the same code path as
// the offline engine, with the workspace snapshot in the prompt. (Advice: advice-generation.test.ts.)
apiSuite('task suggestions through an OpenAI-compatible provider', () => {
  let mock: MockOpenAI;
  let t: TestApp;
  let ceo: TestUser;
  let kpiId: string;

  beforeAll(async () => {
    mock = await startMockOpenAI({ models: ['gpt-5-chat'] });
    t = await createTestApp({ OPENAI_BASE_URL: mock.url, OPENAI_API_KEY: 'test-key' });
    ceo = await t.createUser('ceo');
    const goal = await t.req({
      method: 'POST',
      url: '/api/strategic-goals/',
      token: ceo.token,
      body: {
        title: 'Expand to Europe',
        due_date: day(30),
        kpis: [{ name: 'EU customers', current_value: 1, target_value: 5 }],
      },
    });
    kpiId = goal.json().kpis[0].id;
  });
  afterAll(async () => {
    await t.close();
    await mock.close();
  });

  it('suggestions: the model JSON is grounded (unknown sources and assignees dropped)', async () => {
    const json = JSON.stringify({
      suggestions: [
        {
          title: 'Run an EU customer sprint',
          priority: 'High',
          due_date: day(5),
          llm_context: 'EU customers lags',
          source_type: 'kpi',
          source_id: kpiId,
          assignee_user_id: 'someone-else',
        },
        { title: 'Invented work', priority: 'Nope', source_type: 'goal', source_id: 'made-up' },
      ],
    });
    mock.script({ kind: 'text', chunks: ['```json\n', json, '\n```'] });
    const res = await t.req({ method: 'POST', url: '/api/task-suggestions/generate', token: ceo.token });
    expect(res.statusCode, res.body).toBe(200);
    const { suggestions, message } = res.json();
    expect(message).toBe('2 new suggestions');
    expect(suggestions[0]).toMatchObject({
      title: 'Run an EU customer sprint',
      source_type: 'kpi',
      source_id: kpiId,
      assignee_user_id: null,
      llm_context: 'EU customers lags',
    });
    expect(suggestions[1]).toMatchObject({
      title: 'Invented work',
      priority: 'Medium',
      source_type: null,
      source_id: null,
    });
    // The same KPI again (another title) is not a new suggestion.
    mock.script({
      kind: 'text',
      chunks: [
        JSON.stringify({
          suggestions: [{ title: 'Another EU idea', priority: 'Low', source_type: 'kpi', source_id: kpiId }],
        }),
      ],
    });
    expect(
      (await t.req({ method: 'POST', url: '/api/task-suggestions/generate', token: ceo.token })).json(),
    ).toEqual({
      suggestions: [],
      message: 'No new suggestions',
    });
  });
});
