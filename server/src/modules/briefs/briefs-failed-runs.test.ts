import type { TBrief } from '@cc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { startRun, startToolServer, waitForStatus } from '../runs/runs-test-kit.ts';

/**
 * Issue 46 row 9 (the brief): a run of the person that failed in the brief's period is named as
 * failed, with its reason and cited to its run page; it is never absent nor counted as finished.
 */
apiSuite('the brief names a failed run as failed (issue 46 row 9)', () => {
  let t: TestApp;
  let ceo: TestUser;
  let other: TestUser;
  let tools: Awaited<ReturnType<typeof startToolServer>>;
  beforeAll(async () => {
    // No AI_HTTP_ALLOWLIST: every call to the local tool server is refused by the address policy.
    t = await createTestApp({ RUN_POLL_MS: '100' });
    ceo = await t.createUser('ceo');
    other = await t.createUser('ceo');
    tools = await startToolServer();
  });
  afterAll(async () => {
    await t.close();
    await tools.close();
  });

  async function failedFlowRun(name: string): Promise<{ id: string; error: string }> {
    const tool = await t.req({
      method: 'POST',
      url: '/api/tools/',
      token: ceo.token,
      body: { name: 'Lookup', http: { url: tools.url('/refused'), method: 'GET' } },
    });
    expect(tool.statusCode, tool.body).toBe(201);
    const flow = await t.req({
      method: 'POST',
      url: '/api/flows/',
      token: ceo.token,
      body: { name, steps: [{ title: 'Call it', kind: 'tool', tool_id: tool.json().id }] },
    });
    expect(flow.statusCode, flow.body).toBe(201);
    const id = await startRun(t.req, ceo.token, 'flow', flow.json().id);
    const run = await waitForStatus(t.req, ceo.token, 'flow', id, ['completed', 'failed']);
    expect(run.status).toBe('failed');
    return { id, error: String(run.error) };
  }

  it('a flow whose only tool call failed is in the brief as failed, with its reason and its run cited', async () => {
    const run = await failedFlowRun('Weekly numbers');
    expect(run.error).toMatch(/^Step "Call it": Lookup failed: Refused to connect to 127\.0\.0\.1/);

    const res = await t.req({ method: 'POST', url: '/api/briefs/generate', token: ceo.token });
    expect(res.statusCode, res.body).toBe(201);
    const brief = res.json() as TBrief;
    const failed = brief.sections.find((s) => s.key === 'runs_failed');
    expect(failed).toEqual({
      key: 'runs_failed',
      title: 'Runs that failed',
      enough_data: true,
      items: [
        {
          text: `Flow “Weekly numbers” failed: ${run.error.replace(/\.$/, '')}.`,
          citations: [{ type: 'run', id: run.id, title: 'Weekly numbers', url: `/app/runs/flow/${run.id}` }],
        },
      ],
    });
    // Nowhere else: not as a finished run behind a goal, nor as anything completed.
    const elsewhere = JSON.stringify(brief.sections.filter((s) => s.key !== 'runs_failed'));
    expect(elsewhere).not.toContain(run.id);
    expect(JSON.stringify(brief)).not.toMatch(/Weekly numbers[^"]*completed/);
    // The brief's words name it too, and its number check still passes.
    expect(brief.summary).toBe(
      `Since the previous brief: 1 run failed. Most pressing: ${failed?.items[0].text}`,
    );
    expect(brief.summary_status).toBe('checked');
    expect(brief.actions[0]).toEqual({
      text: 'See why run “Weekly numbers” failed.',
      citations: failed?.items[0].citations,
    });

    // Another person's brief never names it.
    const theirs = await t.req({ method: 'POST', url: '/api/briefs/generate', token: other.token });
    expect(theirs.statusCode, theirs.body).toBe(201);
    expect(JSON.stringify(theirs.json())).not.toContain(run.id);
    expect((theirs.json() as TBrief).sections.map((s) => s.key)).not.toContain('runs_failed');
  });
});
