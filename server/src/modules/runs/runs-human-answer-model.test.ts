import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { type MockOpenAI, startMockOpenAI } from '../../../test/mock-openai.ts';
import { startRun, waitForStatus } from './runs-test-kit.ts';

// Issue 47 item 2: with a real model, a person's answer at a human step reaches the step's prompt as
// the decision to apply (the offline engine applies it itself: runs-human-answer.test.ts).

apiSuite('a person’s answer at a human step, on a model server (OpenAI-compatible mock)', () => {
  let t: TestApp;
  let ceo: TestUser;
  let mock: MockOpenAI;
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

  it('the answer goes into the next model prompt as the decision, with the drafted plan', async () => {
    const agent = await t.req({
      method: 'POST',
      url: '/api/agents/',
      token: ceo.token,
      body: { name: 'Planner', role: 'Chief of staff', goal: 'Plan', llmModel: 'gpt-5-chat' },
    });
    const crew = await t.req({
      method: 'POST',
      url: '/api/crews/',
      token: ceo.token,
      body: {
        name: 'Plan with approval',
        version: '1',
        tasks: [
          { name: 'Draft', description: 'Draft the plan', agent_id: agent.json().id },
          {
            name: 'Finalise',
            description: 'Approve the plan?',
            agent_id: agent.json().id,
            human_input: true,
          },
        ],
      },
    });
    expect(crew.statusCode, crew.body).toBe(201);
    const before = mock.chatRequests().length;
    mock.script(
      { kind: 'text', chunks: ['1. Fix churn\n2. Board deck'] },
      { kind: 'text', chunks: ['1. Pricing review (owner: Leo)\n2. Board deck'] },
    );
    const id = await startRun(t.req, ceo.token, 'crew', crew.json().id);
    await waitForStatus(t.req, ceo.token, 'crew', id, ['awaiting_human_input']);
    const answer = 'No. Replace the churn item with the pricing review, owned by Leo, due Friday';
    const cont = await t.req({
      method: 'POST',
      url: `/api/crew-runs/${id}/continue`,
      token: ceo.token,
      body: { user_input: answer },
    });
    expect(cont.statusCode, cont.body).toBe(200);
    const run = await waitForStatus(t.req, ceo.token, 'crew', id, ['completed', 'failed']);
    expect(run.status).toBe('completed');
    const prompts = mock
      .chatRequests()
      .slice(before)
      .map((r) => JSON.stringify(r.body?.messages));
    // The step after the answer: its prompt carries the drafted plan and the answer as the decision.
    const finalise = prompts.filter((p) => p.includes('Approve the plan?')).at(-1) ?? '';
    expect(finalise).toContain(`The person's decision at this step (apply it to the earlier result`);
    expect(finalise).toContain(answer);
    expect(finalise).toContain('1. Fix churn');
  });
});
