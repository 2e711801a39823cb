import type { TBrief } from '@cc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { type MockOpenAI, startMockOpenAI } from '../../../test/mock-openai.ts';
import { seedTask } from './briefs-test-kit.ts';

/** The model's words are checked against the facts: an invented number costs it the summary. */
apiSuite('executive brief: the summary check', () => {
  let mock: MockOpenAI;
  let t: TestApp;
  let ceo: TestUser;

  beforeAll(async () => {
    mock = await startMockOpenAI({ models: ['gpt-5-chat'] });
    t = await createTestApp({ OPENAI_BASE_URL: mock.url, OPENAI_API_KEY: 'test', AI_MAX_RETRIES: '0' });
    ceo = await t.createUser('ceo');
    await seedTask(t, { title: 'Board deck', by: ceo, assignee: ceo, priority: 'High', due: '2026-06-10' });
  });
  afterAll(async () => {
    await t.close();
    await mock.close();
  });

  const generate = async (): Promise<TBrief> => {
    const res = await t.req({ method: 'POST', url: '/api/briefs/generate', token: ceo.token });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const reply = (o: unknown) => mock.script({ kind: 'text', chunks: [JSON.stringify(o)] });

  it('keeps a summary whose numbers are all facts, and the actions it names', async () => {
    reply({
      summary: 'One task needs you: Board deck was due 10 Jun 2026.',
      actions: [{ text: 'Ship the board deck today.', ref: 'my_tasks:0' }],
    });
    const brief = await generate();
    expect(brief.summary_status).toBe('checked');
    expect(brief.summary).toBe('One task needs you: Board deck was due 10 Jun 2026.');
    expect(brief.actions).toEqual([
      {
        text: 'Ship the board deck today.',
        citations: [expect.objectContaining({ type: 'task', title: 'Board deck' })],
      },
    ]);
  });

  it('replaces a summary with an invented number by the facts’ own wording, and says so', async () => {
    reply({
      summary: 'Revenue grew 37% this week and 1 task needs you.',
      actions: [{ text: 'Ship the board deck.', ref: 'my_tasks:0' }],
    });
    const brief = await generate();
    expect(brief.summary_status).toBe('replaced');
    expect(brief.summary).not.toContain('37');
    const tasks = brief.sections.find((s) => s.key === 'my_tasks');
    expect(brief.summary).toContain(`Your overdue and High/Urgent tasks: ${tasks?.items[0].text}`);
    expect(brief.summary).toContain('KPI moves since the previous brief: Not enough data');
    // The facts' own actions replace the model's.
    expect(brief.actions[0].text).toBe('Finish or re-date task “Board deck”.');
  });

  it('replaces actions that state an invented number or cite no fact', async () => {
    reply({
      summary: 'One task needs you.',
      actions: [{ text: 'Cut 12 meetings.', ref: 'my_tasks:0' }],
    });
    expect((await generate()).summary_status).toBe('replaced');
    reply({ summary: 'One task needs you.', actions: [{ text: 'Do it.', ref: 'goals_at_risk:7' }] });
    expect((await generate()).summary_status).toBe('replaced');
  });

  it('keeps the brief when the model fails: the facts speak', async () => {
    mock.script({ kind: 'status', status: 500 });
    const brief = await generate();
    expect(brief.summary_status).toBe('replaced');
    expect(brief.sections.find((s) => s.key === 'my_tasks')?.items[0].text).toContain('Board deck');
  });
});
