import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../test/helpers.ts';
import type { AuthUser } from '../platform/auth/authenticate.ts';
import { streamAssistantTurn } from './assistant.ts';
import { expectWellFormed } from './offline/offline-test-kit.ts';
import { OFFLINE_NOTICE } from './offline/types.ts';

const authUser = (u: TestUser): AuthUser => ({
  id: u.id,
  email: u.email,
  first_name: 'Olivia',
  last_name: null,
  user_level: u.user_level,
  organization_id: null,
});

apiSuite('assistant turn on the offline engine', () => {
  let t: TestApp;
  let ceo: TestUser;
  let other: TestUser;
  let taskId: string;
  let goalId: string;
  beforeAll(async () => {
    t = await createTestApp({ AI_OFFLINE_TOKEN_DELAY_MS: '0' });
    ceo = await t.createUser('ceo');
    other = await t.createUser('ceo');
    const task = await t.req({
      method: 'POST',
      url: '/api/tasks/',
      token: ceo.token,
      body: {
        title: 'Prepare the board deck',
        priority: 'High',
        due_date: '2020-01-15',
        description: 'Q4 numbers for the board',
      },
    });
    taskId = task.json().id;
    const goal = await t.req({
      method: 'POST',
      url: '/api/strategic-goals/',
      token: ceo.token,
      body: {
        title: 'Board readiness',
        description: 'Have the board deck and the budget approved',
        // a year-long plan due in a month: most of it has gone, so 25% is lagging
        start_date: new Date(Date.now() - 335 * 86_400_000).toISOString().slice(0, 10),
        due_date: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
        kpis: [{ name: 'Board materials ready', current_value: 1, target_value: 4, unit: 'docs' }],
      },
    });
    goalId = goal.json().id;
    await t.req({
      method: 'POST',
      url: '/api/tasks/',
      token: other.token,
      body: { title: 'Other board secret', priority: 'High' },
    });
  });
  afterAll(() => t.close());

  const ask = async (
    u: TestUser,
    message: string,
    o: { search?: boolean; memory?: boolean; internet?: boolean } = {},
  ) => {
    const turn = await streamAssistantTurn({
      ctx: t.ctx,
      user: authUser(u),
      history: [],
      message,
      useMemory: o.memory ?? false,
      useInternalSearch: o.search ?? true,
      useInternet: o.internet ?? false,
    });
    const deltas: string[] = [];
    for await (const d of turn.textStream) deltas.push(d);
    const result = await turn.result;
    expect(deltas.join('')).toBe(result.text);
    return { deltas, ...result };
  };

  it('answers from the seeded records, naming them as sources, and says it is the offline engine', async () => {
    const r = await ask(ceo, 'What is the status of the board deck?');
    expect(r.engine).toBe('offline');
    expect(r.model).toBe('offline');
    expect(r.text.split('\n')[0]).toBe(OFFLINE_NOTICE);
    expect(r.text).toContain('Task “Prepare the board deck”');
    expect(r.text).toContain('Goal “Board readiness”');
    expect(r.text).toMatch(/Sources: .*Task “Prepare the board deck”/);
    // The answer leads with the record asked about, told with its facts, then names the related goal
    // in the same sentence (answers first: no list of the whole workspace).
    expect(r.text.split('\n\n')[1]).toBe(
      'Task “Prepare the board deck” is overdue: it was due 2020-01-15 and is still not started ' +
        '(High priority). It reads: “Q4 numbers for the board”. Also related: Goal “Board readiness”.',
    );
    expectWellFormed(r.text);
    expect(r.text).not.toContain('Other board secret');
    expect(r.text).not.toMatch(/gpt-5/i);
    expect(r.sources).toEqual(
      expect.arrayContaining([
        { type: 'task', id: taskId, title: 'Prepare the board deck' },
        { type: 'goal', id: goalId, title: 'Board readiness' },
      ]),
    );
    expect(r.sources.some((s) => s.title === 'Other board secret')).toBe(false);
    expect(r.deltas.length).toBeGreaterThan(20);
    expect(r.usage.outputTokens).toBeGreaterThan(0);
  });

  it('is deterministic', async () => {
    const a = await ask(ceo, 'board deck status');
    const b = await ask(ceo, 'board deck status');
    expect(a.text).toBe(b.text);
  });

  it('without Internal Search it says what it lacks instead of inventing', async () => {
    const r = await ask(ceo, 'What is the status of the board deck?', { search: false });
    expect(r.text).toContain('Internal Search');
    expect(r.text).not.toContain('Prepare the board deck');
    expect(r.sources).toEqual([]);
  });

  it('uses memories when Memory is on, and says so when internet search is unavailable', async () => {
    const mined = await t.req({
      method: 'POST',
      url: '/api/memory/mine',
      token: ceo.token,
      body: { content: 'I prefer bullet-point summaries. What is due?', metadata: { conversation_id: 'c1' } },
    });
    expect(mined.statusCode).toBe(200);
    const r = await ask(ceo, 'Summarise the board deck', { memory: true, internet: true });
    expect(r.text).toContain('I prefer bullet-point summaries.');
    expect(r.text).toContain('Internet search is not configured');
    const off = await ask(ceo, 'Summarise the board deck', { memory: false });
    expect(off.text).not.toContain('bullet-point');
  });

  it('an unknown model is refused with 422 before anything streams', async () => {
    await expect(
      streamAssistantTurn({
        ctx: t.ctx,
        user: authUser(ceo),
        modelId: 'gpt-9-ultra',
        history: [],
        message: 'hi',
        useMemory: false,
        useInternalSearch: false,
        useInternet: false,
      }),
    ).rejects.toMatchObject({ statusCode: 422, detail: 'Unknown model: gpt-9-ultra' });
  });
});
