import { INBOX_ALREADY_SETTLED } from '@cc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { startRecordingServer, startRun, waitForStatus } from './runs-test-kit.ts';

type Item = { id: string; kind: string; details: Record<string, unknown> };

/**
 * Issue 46 row 9 (the inbox): a run that ends failed while one of its items waits in someone's inbox
 * leaves nothing pending as if it could go on; the settled item keeps "The run failed: <reason>".
 */
apiSuite('an ended run leaves nothing waiting in the inbox (issue 46 row 9)', () => {
  let t: TestApp;
  let ceo: TestUser;
  let member: TestUser;
  let listener: Awaited<ReturnType<typeof startRecordingServer>>;
  beforeAll(async () => {
    t = await createTestApp({ AI_HTTP_ALLOWLIST: '127.0.0.1', RUN_POLL_MS: '100' });
    ceo = await t.createUser('ceo');
    member = await t.createUser('user');
    await t.addToOrg(ceo, await t.createOrg(ceo, 'Ended Runs Co'), member);
    listener = await startRecordingServer();
  });
  afterAll(async () => {
    await t.close();
    await listener.close();
  });

  const post = (who: TestUser, url: string, body?: unknown) =>
    t.req({ method: 'POST', url, token: who.token, ...(body === undefined ? {} : { body }) });
  const inboxOf = async (who: TestUser) => {
    const res = await t.req({ method: 'GET', url: '/api/inbox/', token: who.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { items: Item[]; total: number };
  };
  const rowOf = (id: string) =>
    t.ctx.db.selectFrom('inbox_items').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  /** The run's item in `who`'s inbox (opened just after the pause is committed: look again a moment). */
  async function itemOfRun(who: TestUser, runId: string, kind: string): Promise<Item> {
    for (let i = 0; i < 50; i++) {
      const item = (await inboxOf(who)).items.find((x) => x.kind === kind && x.details.run_id === runId);
      if (item) return item;
      await new Promise((r) => setTimeout(r, 40));
    }
    throw new Error(`no ${kind} item of run ${runId}`);
  }

  it('a question delegated to a member: the run is stopped, the item leaves their inbox, saying the run failed', async () => {
    const flow = await post(ceo, '/api/flows/', {
      name: 'Board prep',
      steps: [{ title: 'Ask', kind: 'wait_for_human', prompt: 'Which quarter?' }],
    });
    expect(flow.statusCode, flow.body).toBe(201);
    const runId = await startRun(t.req, ceo.token, 'flow', flow.json().id);
    await waitForStatus(t.req, ceo.token, 'flow', runId, ['paused']);
    const item = await itemOfRun(ceo, runId, 'run_input');
    const moved = await post(ceo, `/api/inbox/${item.id}/delegate`, { user_id: member.id });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await inboxOf(member)).total).toBe(1);

    expect((await post(ceo, `/api/flow-runs/${runId}/stop`)).statusCode).toBe(200);
    expect((await waitForStatus(t.req, ceo.token, 'flow', runId, ['failed'])).error).toBe(
      'Stopped by the user',
    );
    expect(await inboxOf(member)).toEqual({ items: [], total: 0 });
    expect(await rowOf(item.id)).toMatchObject({
      status: 'rejected',
      resolved_by: ceo.id,
      reason: 'The run failed: Stopped by the user',
    });
    // A card still open on the member's screen cannot answer it.
    const late = await post(member, `/api/inbox/${item.id}/approve`, { edits: { answer: 'Q3' } });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({ detail: INBOX_ALREADY_SETTLED });
  });

  it('a tool call waiting for approval: the run is stopped, the item leaves, saying the run failed; nothing is sent', async () => {
    const tool = await post(ceo, '/api/tools/', { name: 'Hook', http: { url: listener.url('/ended') } });
    expect(tool.statusCode, tool.body).toBe(201);
    const flow = await post(ceo, '/api/flows/', {
      name: 'Send it',
      steps: [{ title: 'Send', kind: 'tool', tool_id: tool.json().id }],
    });
    expect(flow.statusCode, flow.body).toBe(201);
    const runId = await startRun(t.req, ceo.token, 'flow', flow.json().id, { inputs: { n: '1' } });
    await waitForStatus(t.req, ceo.token, 'flow', runId, ['paused']);
    const item = await itemOfRun(ceo, runId, 'tool_approval');

    expect((await post(ceo, `/api/flow-runs/${runId}/stop`)).statusCode).toBe(200);
    expect((await inboxOf(ceo)).items.some((i) => i.id === item.id)).toBe(false);
    expect(await rowOf(item.id)).toMatchObject({
      status: 'resolved',
      resolved_by: ceo.id,
      reason: 'The run failed: Stopped by the user',
    });
    const late = await post(ceo, `/api/inbox/${item.id}/approve`, {});
    expect(late.statusCode).toBe(409);
    expect(listener.received.filter((r) => r.path.startsWith('/ended'))).toHaveLength(0);
  });
});
