import { RUN_STOPPED_SUMMARY } from '@cc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { type MockOpenAI, startMockOpenAI } from '../../../test/mock-openai.ts';
import { startRun, timelineOf, waitForStatus } from './runs-test-kit.ts';

apiSuite('runs on a model server (OpenAI-compatible mock)', () => {
  let t: TestApp;
  let ceo: TestUser;
  let mock: MockOpenAI;
  let crews = 0;
  beforeAll(async () => {
    mock = await startMockOpenAI({ models: ['gpt-5-chat'] });
    t = await createTestApp({
      OPENAI_BASE_URL: mock.url,
      OPENAI_API_KEY: 'test-key',
      AI_MAX_RETRIES: '0',
      RUN_POLL_MS: '200',
    });
    ceo = await t.createUser('ceo');
  });
  afterAll(async () => {
    await t.close();
    await mock.close();
  });

  const crew = async (tasks: { name: string; description: string }[]) => {
    const agent = await t.req({
      method: 'POST',
      url: '/api/agents/',
      token: ceo.token,
      body: { name: 'Mocked', role: 'Tester', goal: 'Answer', llmModel: 'gpt-5-chat' },
    });
    const res = await t.req({
      method: 'POST',
      url: '/api/crews/',
      token: ceo.token,
      body: {
        name: `Mock crew ${++crews}`,
        version: '1',
        tasks: tasks.map((x) => ({ ...x, agent_id: agent.json().id })),
      },
    });
    expect(res.statusCode).toBe(201);
    return res.json().id as string;
  };

  /** What the model was sent: the messages of each chat request since `from`. */
  const sent = (from: number) =>
    mock
      .chatRequests()
      .slice(from)
      .map((r) => JSON.stringify(r.body?.messages));

  it('each task of a three-task crew gets the previous outputs in its prompt', async () => {
    const before = mock.chatRequests().length;
    mock.script(
      { kind: 'text', chunks: ['OUTPUT-', 'ONE'] },
      { kind: 'text', chunks: ['OUTPUT-', 'TWO'] },
      { kind: 'text', chunks: ['OUTPUT-', 'THREE'] },
    );
    const crewId = await crew([
      { name: 'T1', description: 'first' },
      { name: 'T2', description: 'second' },
      { name: 'T3', description: 'third' },
    ]);
    const id = await startRun(t.req, ceo.token, 'crew', crewId);
    const run = await waitForStatus(t.req, ceo.token, 'crew', id, ['completed', 'failed']);
    expect(run.status).toBe('completed');
    const reqs = sent(before);
    expect(reqs).toHaveLength(3);
    expect(reqs[0]).toContain('first');
    expect(reqs[0]).not.toContain('OUTPUT-');
    expect(reqs[1]).toContain('OUTPUT-ONE');
    expect(reqs[2]).toContain('OUTPUT-ONE');
    expect(reqs[2]).toContain('OUTPUT-TWO');
    const outputs = (await timelineOf(t.req, ceo.token, 'crew', id)).filter((e) => e.type === 'task_output');
    expect(outputs.map((e) => e.details?.output)).toEqual(['OUTPUT-ONE', 'OUTPUT-TWO', 'OUTPUT-THREE']);
    expect(run.result).toBe('OUTPUT-THREE');
  });

  it('stop ends the run as failed and aborts the model call in flight', async () => {
    const crewId = await crew([{ name: 'Slow', description: 'takes long' }]);
    const before = mock.chatRequests().length;
    // The model never answers; only the stop ends the call.
    mock.script({ kind: 'stall' });
    const id = await startRun(t.req, ceo.token, 'crew', crewId);
    const deadline = Date.now() + 10_000;
    while (mock.chatRequests().length === before && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(mock.chatRequests().length).toBe(before + 1);
    const stop = await t.req({ method: 'POST', url: `/api/crew-runs/${id}/stop`, token: ceo.token });
    expect(stop.statusCode).toBe(200);
    expect(stop.json().status).toBe('failed');
    const upstream = await mock.waitForAbort(5_000);
    expect(upstream).toBe(mock.chatRequests()[before]);
    expect(upstream.completed).toBe(false);
    await new Promise((r) => setTimeout(r, 200));
    const timeline = await timelineOf(t.req, ceo.token, 'crew', id);
    expect(timeline.filter((e) => e.type === 'task_output')).toHaveLength(0);
    expect(timeline.at(-1)).toMatchObject({ type: 'crew_error', summary: RUN_STOPPED_SUMMARY });
    expect((await waitForStatus(t.req, ceo.token, 'crew', id, ['failed'])).error).toBe('Stopped by the user');
    expect(mock.chatRequests()).toHaveLength(before + 1);
  });
});
