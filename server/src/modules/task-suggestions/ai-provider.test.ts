import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite } from '../../../test/helpers.ts';
import { day, type ProviderWorkspace, startProviderWorkspace } from '../advice/advice-test-kit.ts';

// Task suggestions through a real provider (the mock OpenAI-compatible server): the same code path as
// the offline engine, with the workspace snapshot in the prompt. (Advice: advice-generation.test.ts.)
apiSuite('task suggestions through an OpenAI-compatible provider', () => {
  let w: ProviderWorkspace;
  beforeAll(async () => {
    w = await startProviderWorkspace();
  });
  afterAll(() => w.close());

  it('suggestions: the model JSON is grounded (unknown sources and assignees dropped)', async () => {
    const json = JSON.stringify({
      suggestions: [
        {
          title: 'Run an EU customer sprint',
          priority: 'High',
          due_date: day(5),
          llm_context: 'EU customers lags',
          source_type: 'kpi',
          source_id: w.kpiId,
          assignee_user_id: 'someone-else',
        },
        { title: 'Invented work', priority: 'Nope', source_type: 'goal', source_id: 'made-up' },
      ],
    });
    w.mock.script({ kind: 'text', chunks: ['```json\n', json, '\n```'] });
    const res = await w.t.req({ method: 'POST', url: '/api/task-suggestions/generate', token: w.ceo.token });
    expect(res.statusCode, res.body).toBe(200);
    const { suggestions, message } = res.json();
    expect(message).toBe('2 new suggestions');
    expect(suggestions[0]).toMatchObject({
      title: 'Run an EU customer sprint',
      source_type: 'kpi',
      source_id: w.kpiId,
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
    w.mock.script({
      kind: 'text',
      chunks: [
        JSON.stringify({
          suggestions: [
            { title: 'Another EU idea', priority: 'Low', source_type: 'kpi', source_id: w.kpiId },
          ],
        }),
      ],
    });
    expect(
      (await w.t.req({ method: 'POST', url: '/api/task-suggestions/generate', token: w.ceo.token })).json(),
    ).toEqual({
      suggestions: [],
      message: 'No new suggestions',
    });
  });
});
