import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import type { RunStep } from './engine/definition.ts';
import { RunEngineRegistry } from './engine/engine-registry.ts';
import { WAKE_CHANNEL } from './engine/events.ts';
import * as repo from './engine/runs.repository.ts';
import { timelineOf, waitForStatus } from './runs-test-kit.ts';

const step = (name: string, kind: string): RunStep => ({
  name,
  kind: kind as RunStep['kind'],
  description: `Do ${name}`,
  expected_output: null,
  human_prompt: null,
  agent: null,
  tool_id: null,
});

apiSuite('run engine step kinds', () => {
  let t: TestApp;
  let ceo: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ RUN_POLL_MS: '200' });
    ceo = await t.createUser('ceo');
  });
  afterAll(() => t.close());

  /** A run whose snapshotted definition holds any step kind (the API only stores known ones). */
  async function insertRun(kind: 'crew' | 'flow', steps: RunStep[]): Promise<string> {
    const id = randomUUID();
    const at = new Date().toISOString();
    await repo.insertRun(t.ctx.db, {
      id,
      kind,
      user_id: ceo.id,
      definition_id: randomUUID(),
      definition_name: 'Odd definition',
      definition: JSON.stringify({ steps }),
      conversation_id: null,
      status: kind === 'crew' ? 'pending' : 'started',
      inputs: '{}',
      current_step: 0,
      outputs: '[]',
      attempts: 0,
      created_at: at,
      updated_at: at,
    });
    await t.ctx.bus.publish(WAKE_CHANNEL, { run: id });
    return id;
  }

  it('a flow step of a kind no module registered fails the run with the reason, after the steps before it', async () => {
    const id = await insertRun('flow', [step('Think', 'agent'), step('Teleport', 'teleport')]);
    const run = await waitForStatus(t.req, ceo.token, 'flow', id, ['failed', 'completed']);
    const reason = 'Step "Teleport" has the kind "teleport", which this server cannot run';
    expect(run.status).toBe('failed');
    const timeline = await timelineOf(t.req, ceo.token, 'flow', id);
    expect(timeline.filter((e) => e.type === 'step_output').map((e) => e.details?.name)).toEqual(['Think']);
    // The unknown step never starts: no start event, no output, one terminal event with the reason.
    expect(timeline.filter((e) => e.type === 'step_start').map((e) => e.details?.name)).toEqual(['Think']);
    const terminal = timeline.filter((e) => e.type === 'terminal');
    expect(terminal.map((e) => e.summary)).toEqual([`Flow failed: ${reason}`]);
    expect(terminal[0].details).toEqual({ error: reason });
  });

  it('a crew run with an unregistered step kind ends with a crew_error naming it', async () => {
    const id = await insertRun('crew', [step('Hop', 'hyperspace')]);
    const run = await waitForStatus(t.req, ceo.token, 'crew', id, ['failed', 'completed']);
    expect(run.status).toBe('failed');
    const errors = (await timelineOf(t.req, ceo.token, 'crew', id)).filter((e) => e.type === 'crew_error');
    expect(errors.map((e) => e.summary)).toEqual([
      'Crew failed: Step "Hop" has the kind "hyperspace", which this server cannot run',
    ]);
  });
});

it('a step kind is registered once: a second handler for it is refused', () => {
  const engine = new RunEngineRegistry({
    users: async () => undefined,
    tools: async () => [],
    conversationLog: async () => {},
  });
  const handler = async () => ({ output: 'done' });
  engine.registerStepKind('strategic_advice', handler);
  expect(engine.stepHandler('strategic_advice')).toBe(handler);
  expect(() => engine.registerStepKind('strategic_advice', handler)).toThrow(
    'The run step kind "strategic_advice" is registered twice',
  );
  expect(engine.stepHandler('teleport')).toBeUndefined();
});
