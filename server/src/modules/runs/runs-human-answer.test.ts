import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { expectWellFormed } from '../../ai/offline/offline-test-kit.ts';
import { builtinAgentIds, waitForStatus } from './runs-test-kit.ts';

// Issue 47 item 2: a person's answer at a human step is applied to the plan the run drafted.

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** The next Friday after today (UTC), as the offline engine reads "due Friday". */
function nextFriday(): string {
  const today = new Date(`${day(0)}T00:00:00Z`);
  const ahead = (5 - today.getUTCDay() + 7) % 7 || 7;
  return new Date(today.getTime() + ahead * 86_400_000).toISOString().slice(0, 10);
}

apiSuite('a person’s answer at a run’s human step (offline engine)', () => {
  let t: TestApp;
  let ceo: TestUser;
  let agents: Record<string, string>;
  let flowId: string;
  beforeAll(async () => {
    t = await createTestApp({ RUN_POLL_MS: '200' });
    ceo = await t.createUser('ceo');
    agents = await builtinAgentIds(t, ceo);
    const goal = await t.req({
      method: 'POST',
      url: '/api/strategic-goals/',
      token: ceo.token,
      body: {
        title: 'Reduce churn',
        start_date: day(-300),
        due_date: day(30),
        kpis: [{ name: 'Churned accounts won back', current_value: 1, target_value: 4, unit: 'accounts' }],
      },
    });
    expect(goal.statusCode, goal.body).toBe(201);
    const task = await t.req({
      method: 'POST',
      url: '/api/tasks/',
      token: ceo.token,
      body: { title: 'Prepare the board deck', priority: 'High', due_date: day(-3) },
    });
    expect(task.statusCode, task.body).toBe(201);
    const flow = await t.req({
      method: 'POST',
      url: '/api/flows/',
      token: ceo.token,
      body: {
        name: 'Weekly plan',
        steps: [
          { title: 'Plan', agent_id: agents.Strategist },
          { title: 'Approve', kind: 'wait_for_human', prompt: 'Approve the plan?' },
          { title: 'Final', agent_id: agents.Writer },
        ],
      },
    });
    expect(flow.statusCode, flow.body).toBe(201);
    flowId = flow.json().id;
  });
  afterAll(() => t.close());

  const runWithAnswer = async (answer: string) => {
    const f = await t.req({
      method: 'POST',
      url: '/api/flow-runs/',
      token: ceo.token,
      body: { flow_id: flowId },
    });
    expect(f.statusCode, f.body).toBe(201);
    const id = f.json().flow_run_id as string;
    await waitForStatus(t.req, ceo.token, 'flow', id, ['paused']);
    const cont = await t.req({
      method: 'POST',
      url: `/api/flow-runs/${id}/continue`,
      token: ceo.token,
      body: { user_input: answer },
    });
    expect(cont.statusCode, cont.body).toBe(200);
    const done = await waitForStatus(t.req, ceo.token, 'flow', id, ['completed', 'failed']);
    expect(done.status).toBe('completed');
    return String(done.result);
  };

  it('“Replace the churn item with the pricing review, owned by Leo, due Friday” changes the plan', async () => {
    const result = await runWithAnswer(
      'No. Replace the churn item with the pricing review, owned by Leo, due Friday',
    );
    expect(result).toMatch(/, and I applied it to the plan\./);
    expect(result).toContain(`1. Pricing review (owner: Leo, due ${nextFriday()}).`);
    expect(result).toContain('Task “Prepare the board deck”');
    expect(result).not.toContain('Churned accounts won back for Goal');
    expect(result).not.toContain('I could not apply');
    expectWellFormed(result);
  });

  it('an instruction it cannot apply is said plainly, the plan otherwise unchanged', async () => {
    const result = await runWithAnswer('Remove the marketing item');
    expect(result).toContain(
      'I could not apply: “Remove the marketing item” (no item of the plan matches it).',
    );
    expect(result).toContain('Churned accounts won back');
    expectWellFormed(result);
  });
});
