import { RUN_STOPPED_SUMMARY } from '@cc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { startMockModel, timelineOf, waitForStatus } from './runs-test-kit.ts';

apiSuite('runs on a model server (OpenAI-compatible mock)', () => {
  let t: TestApp;
  let ceo: TestUser;
  let mock: Awaited<ReturnType<typeof startMockModel>>;
  beforeAll(async () => {
    mock = await startMockModel();
    t = await createTestApp({
      OPENAI_BASE_URL: mock.baseUrl,
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
        name: `Mock crew ${mock.requests.length}`,
        version: '1',
        tasks: tasks.map((x) => ({ ...x, agent_id: agent.json().id })),
      },
    });
    expect(res.statusCode).toBe(201);
    return res.json().id as string;
  };

  it('each task of a three-task crew gets the previous outputs in its prompt', async () => {
    const before = mock.requests.length;
    const crewId = await crew([
      { name: 'T1', description: 'first' },
      { name: 'T2', description: 'second' },
      { name: 'T3', description: 'third' },
    ]);
    const start = await t.req({
      method: 'POST',
      url: '/api/crew-runs/',
      token: ceo.token,
      body: { crew_id: crewId },
    });
    const id = start.json().crew_run_id as string;
    const run = await waitForStatus(t.req, ceo.token, 'crew', id, ['completed', 'failed']);
    expect(run.status).toBe('completed');
    const reqs = mock.requests.slice(before);
    expect(reqs).toHaveLength(3);
    const n = before + 1;
    expect(reqs[0].text).not.toContain('MOCK-OUTPUT');
    expect(reqs[1].text).toContain(`MOCK-OUTPUT-${n}`);
    expect(reqs[2].text).toContain(`MOCK-OUTPUT-${n}`);
    expect(reqs[2].text).toContain(`MOCK-OUTPUT-${n + 1}`);
    const outputs = (await timelineOf(t.req, ceo.token, 'crew', id)).filter((e) => e.type === 'task_output');
    expect(outputs.map((e) => e.details?.output)).toEqual([
      `MOCK-OUTPUT-${n}`,
      `MOCK-OUTPUT-${n + 1}`,
      `MOCK-OUTPUT-${n + 2}`,
    ]);
    expect(run.result).toBe(`MOCK-OUTPUT-${n + 2}`);
  });

  it('stop ends the run as failed and aborts the model call in flight', async () => {
    const crewId = await crew([{ name: 'Slow', description: 'takes long' }]);
    const before = mock.requests.length;
    const abortedBefore = mock.aborted();
    mock.setDelay(20_000);
    try {
      const start = await t.req({
        method: 'POST',
        url: '/api/crew-runs/',
        token: ceo.token,
        body: { crew_id: crewId },
      });
      const id = start.json().crew_run_id as string;
      const deadline = Date.now() + 10_000;
      while (mock.requests.length === before && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      expect(mock.requests.length).toBe(before + 1);
      const stop = await t.req({ method: 'POST', url: `/api/crew-runs/${id}/stop`, token: ceo.token });
      expect(stop.statusCode).toBe(200);
      expect(stop.json().status).toBe('failed');
      const abortDeadline = Date.now() + 5_000;
      while (mock.aborted() === abortedBefore && Date.now() < abortDeadline)
        await new Promise((r) => setTimeout(r, 20));
      expect(mock.aborted()).toBe(abortedBefore + 1);
      await new Promise((r) => setTimeout(r, 200));
      const timeline = await timelineOf(t.req, ceo.token, 'crew', id);
      expect(timeline.filter((e) => e.type === 'task_output')).toHaveLength(0);
      expect(timeline.at(-1)).toMatchObject({ type: 'crew_error', summary: RUN_STOPPED_SUMMARY });
      expect((await waitForStatus(t.req, ceo.token, 'crew', id, ['failed'])).error).toBe(
        'Stopped by the user',
      );
    } finally {
      mock.setDelay(0);
    }
  });
});
