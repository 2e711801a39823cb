import type { TBrief } from '@cc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { type MockOpenAI, startMockOpenAI } from '../../../test/mock-openai.ts';
import { seedTask } from './briefs-test-kit.ts';

/**
 * Issue 46 row 15: the model's JSON is untrusted input. Whatever shape it answers in (actions as
 * strings, nulls, numbers, refs missing, a huge list, no object at all), `POST /api/briefs/generate`
 * answers 201 with the facts' own wording, never a 500.
 */
const VALID_ACTION = { text: 'Ship the board deck today.', ref: 'my_tasks:0' };
const SUMMARY = 'One task needs you: Board deck.';

const MALFORMED: [string, string][] = [
  ['actions as plain strings', JSON.stringify({ summary: SUMMARY, actions: ['Ship it', 'Call Anna'] })],
  ['actions null', JSON.stringify({ summary: SUMMARY, actions: null })],
  ['actions a number', JSON.stringify({ summary: SUMMARY, actions: 42 })],
  ['actions an object', JSON.stringify({ summary: SUMMARY, actions: { text: 'x', ref: 'my_tasks:0' } })],
  ['a null action', JSON.stringify({ summary: SUMMARY, actions: [null] })],
  ['number actions', JSON.stringify({ summary: SUMMARY, actions: [1, 2, 3] })],
  ['nested array actions', JSON.stringify({ summary: SUMMARY, actions: [[VALID_ACTION]] })],
  ['an action without ref', JSON.stringify({ summary: SUMMARY, actions: [{ text: 'Ship it.' }] })],
  ['an action without text', JSON.stringify({ summary: SUMMARY, actions: [{ ref: 'my_tasks:0' }] })],
  ['a null ref', JSON.stringify({ summary: SUMMARY, actions: [{ text: 'Ship it.', ref: null }] })],
  ['a number ref', JSON.stringify({ summary: SUMMARY, actions: [{ text: 'Ship it.', ref: 0 }] })],
  ['an object ref', JSON.stringify({ summary: SUMMARY, actions: [{ text: 'Ship it.', ref: { a: 1 } }] })],
  ['a number text', JSON.stringify({ summary: SUMMARY, actions: [{ text: 7, ref: 'my_tasks:0' }] })],
  ['a ref to no fact', JSON.stringify({ summary: SUMMARY, actions: [{ text: 'Ship.', ref: 'my_tasks' }] })],
  ['a prototype ref', JSON.stringify({ summary: SUMMARY, actions: [{ text: 'x', ref: '__proto__:0' }] })],
  ['a huge list of actions', JSON.stringify({ summary: SUMMARY, actions: Array(20_000).fill(VALID_ACTION) })],
  ['summary null', JSON.stringify({ summary: null, actions: [VALID_ACTION] })],
  ['summary a number', JSON.stringify({ summary: 12, actions: [VALID_ACTION] })],
  ['summary an array', JSON.stringify({ summary: ['a'], actions: [VALID_ACTION] })],
  ['a JSON null', 'null'],
  ['a JSON array', JSON.stringify([VALID_ACTION])],
  ['a JSON number', '42'],
  ['no JSON at all', 'Here is your brief: all fine.'],
  ['JSON cut short', '{"summary": "One task", "actions": [{"text": "Ship'],
];

apiSuite('executive brief: malformed model output falls back to the facts', () => {
  let mock: MockOpenAI;
  let t: TestApp;
  let ceo: TestUser;

  beforeAll(async () => {
    mock = await startMockOpenAI({ models: ['gpt-5-chat'] });
    t = await createTestApp({
      OPENAI_BASE_URL: mock.url,
      OPENAI_API_KEY: 'test',
      AI_MAX_RETRIES: '0',
      // Every shape is one generation: the run-starts limit is not what this file tests.
      LIMIT_RUN_STARTS_PER_MINUTE: '1000',
    });
    ceo = await t.createUser('ceo');
    await seedTask(t, { title: 'Board deck', by: ceo, assignee: ceo, priority: 'High', due: '2026-06-10' });
  });
  afterAll(async () => {
    await t.close();
    await mock.close();
  });

  const generate = async (modelText: string): Promise<TBrief> => {
    mock.script({ kind: 'text', chunks: [modelText] });
    const res = await t.req({ method: 'POST', url: '/api/briefs/generate', token: ceo.token });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };

  it.each(MALFORMED)('%s: 201 with the facts’ own summary and actions', async (_what, modelText) => {
    const brief = await generate(modelText);
    expect(brief.summary_status).toBe('replaced');
    expect(brief.summary).toContain('Your overdue and High/Urgent tasks:');
    expect(brief.summary).toContain('Board deck');
    expect(brief.actions).toEqual([
      {
        text: 'Finish or re-date task “Board deck”.',
        citations: [expect.objectContaining({ type: 'task', title: 'Board deck' })],
      },
    ]);
    const stored = await t.ctx.db
      .selectFrom('briefs')
      .select(['summary_status', 'actions'])
      .where('id', '=', brief.id)
      .executeTakeFirstOrThrow();
    expect(stored.summary_status).toBe('replaced');
    expect(JSON.parse(stored.actions)).toEqual(brief.actions);
  });

  it('the well-formed answer is still kept (the check is not a blanket refusal)', async () => {
    const brief = await generate(JSON.stringify({ summary: SUMMARY, actions: [VALID_ACTION] }));
    expect(brief.summary_status).toBe('checked');
    expect(brief.actions[0].text).toBe(VALID_ACTION.text);
  });
});
