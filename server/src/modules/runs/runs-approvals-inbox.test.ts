import { APPROVAL_EDIT_OWNER_ONLY } from '@cc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { startRecordingServer, startRun, timelineOf, waitForStatus } from './runs-test-kit.ts';

type Item = {
  id: string;
  kind: string;
  source: { id: string; url: string };
  details: Record<string, unknown>;
};

/** Issue 19: a tool call waiting for approval is an inbox item; deciding it there is deciding it on the run. */
apiSuite('tool approvals in the approvals inbox', () => {
  let t: TestApp;
  let ceo: TestUser;
  let member: TestUser;
  let listener: Awaited<ReturnType<typeof startRecordingServer>>;
  beforeAll(async () => {
    t = await createTestApp({ AI_HTTP_ALLOWLIST: '127.0.0.1', RUN_POLL_MS: '100' });
    ceo = await t.createUser('ceo');
    member = await t.createUser('user');
    await t.addToOrg(ceo, await t.createOrg(ceo, 'Approvals Co'), member);
    listener = await startRecordingServer();
  });
  afterAll(async () => {
    await t.close();
    await listener.close();
  });

  const hits = (path: string) => listener.received.filter((r) => r.path.startsWith(path));
  const inbox = async (who: TestUser) => {
    const res = await t.req({ method: 'GET', url: '/api/inbox/', token: who.token });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().items as Item[]).filter((i) => i.kind === 'tool_approval');
  };

  async function pausedRun(path: string) {
    const tool = await t.req({
      method: 'POST',
      url: '/api/tools/',
      token: ceo.token,
      body: { name: `Hook ${path}`, http: { url: listener.url(path) } },
    });
    const flow = await t.req({
      method: 'POST',
      url: '/api/flows/',
      token: ceo.token,
      body: { name: `Flow ${path}`, steps: [{ title: 'Send', kind: 'tool', tool_id: tool.json().id }] },
    });
    const runId = await startRun(t.req, ceo.token, 'flow', flow.json().id, { inputs: { n: '1' } });
    await waitForStatus(t.req, ceo.token, 'flow', runId, ['paused']);
    // The item is opened just after the run's pause is committed: look again for a moment.
    let item: Item | undefined;
    for (let i = 0; i < 50 && !item; i++) {
      [item] = (await inbox(ceo)).filter((x) => x.details.url === listener.url(path));
      if (!item) await new Promise((r) => setTimeout(r, 40));
    }
    if (!item) throw new Error('the waiting call is not in the owner’s inbox');
    return { runId, item };
  }

  it('approve in the inbox: the item leaves, the run resumes and the call is made once', async () => {
    const { runId, item } = await pausedRun('/approve-here');
    expect(item.source.url).toBe(`/app/runs/flow/${runId}`);
    expect(hits('/approve-here')).toHaveLength(0);
    const ok = await t.req({
      method: 'POST',
      url: `/api/inbox/${item.id}/approve`,
      token: ceo.token,
      body: {},
    });
    expect(ok.statusCode, ok.body).toBe(200);
    await waitForStatus(t.req, ceo.token, 'flow', runId, ['completed']);
    expect(hits('/approve-here')).toHaveLength(1);
    expect((await inbox(ceo)).map((i) => i.id)).not.toContain(item.id);
    const twice = await t.req({
      method: 'POST',
      url: `/api/inbox/${item.id}/approve`,
      token: ceo.token,
      body: {},
    });
    expect(twice.statusCode).toBe(409);
  });

  it('reject in the inbox feeds the reason to the run; decided on the run page, the item leaves', async () => {
    const first = await pausedRun('/reject-here');
    const rejected = await t.req({
      method: 'POST',
      url: `/api/inbox/${first.item.id}/reject`,
      token: ceo.token,
      body: { reason: 'Not this vendor' },
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    await waitForStatus(t.req, ceo.token, 'flow', first.runId, ['completed']);
    expect(hits('/reject-here')).toHaveLength(0);
    const events = await timelineOf(t.req, ceo.token, 'flow', first.runId);
    expect(JSON.stringify(events)).toContain('Not this vendor');

    const second = await pausedRun('/run-page');
    const approvals = await t.req({
      method: 'GET',
      url: `/api/runs/${second.runId}/approvals`,
      token: ceo.token,
    });
    const approvalId = approvals.json().items[0].id as string;
    const onPage = await t.req({
      method: 'POST',
      url: `/api/runs/${second.runId}/approvals/${approvalId}/approve`,
      token: ceo.token,
      body: {},
    });
    expect(onPage.statusCode).toBe(200);
    expect((await inbox(ceo)).map((i) => i.id)).not.toContain(second.item.id);
  });

  it('delegated to a member, the item is theirs to decide (as the run’s owner); others get 404', async () => {
    const { runId, item } = await pausedRun('/delegated');
    const moved = await t.req({
      method: 'POST',
      url: `/api/inbox/${item.id}/delegate`,
      token: ceo.token,
      body: { user_id: member.id },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await inbox(ceo)).map((i) => i.id)).not.toContain(item.id);
    expect((await inbox(member)).map((i) => i.id)).toContain(item.id);
    const byCeo = await t.req({
      method: 'POST',
      url: `/api/inbox/${item.id}/approve`,
      token: ceo.token,
      body: {},
    });
    expect(byCeo.statusCode).toBe(404);
    const ok = await t.req({
      method: 'POST',
      url: `/api/inbox/${item.id}/approve`,
      token: member.token,
      body: {},
    });
    expect(ok.statusCode, ok.body).toBe(200);
    await waitForStatus(t.req, ceo.token, 'flow', runId, ['completed']);
    expect(hits('/delegated')).toHaveLength(1);
  });

  it('a delegate cannot change the arguments (403, nothing decided or sent); as shown, the call goes out', async () => {
    const { runId, item } = await pausedRun('/delegate-edits');
    const moved = await t.req({
      method: 'POST',
      url: `/api/inbox/${item.id}/delegate`,
      token: ceo.token,
      body: { user_id: member.id },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const edited = await t.req({
      method: 'POST',
      url: `/api/inbox/${item.id}/approve`,
      token: member.token,
      body: { edits: { arguments: { n: 'wire-money-to-me' } } },
    });
    expect(edited.statusCode, edited.body).toBe(403);
    expect(edited.json().detail).toBe(APPROVAL_EDIT_OWNER_ONLY);
    // Nothing was decided: the call still waits, unchanged, in the delegate's inbox.
    const [approval] = (
      await t.req({ method: 'GET', url: `/api/runs/${runId}/approvals`, token: ceo.token })
    ).json().items;
    expect(approval).toMatchObject({ status: 'pending', edited: false, arguments: { n: '1' } });
    expect((await inbox(member)).map((i) => i.id)).toContain(item.id);
    expect((await waitForStatus(t.req, ceo.token, 'flow', runId, ['paused'])).status).toBe('paused');
    expect(hits('/delegate-edits')).toHaveLength(0);

    const asShown = await t.req({
      method: 'POST',
      url: `/api/inbox/${item.id}/approve`,
      token: member.token,
      body: {},
    });
    expect(asShown.statusCode, asShown.body).toBe(200);
    await waitForStatus(t.req, ceo.token, 'flow', runId, ['completed']);
    const sent = hits('/delegate-edits');
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0].body)).toEqual({ n: '1' });
  });

  it('the owner may edit the arguments from the inbox', async () => {
    const { runId, item } = await pausedRun('/owner-edits');
    const ok = await t.req({
      method: 'POST',
      url: `/api/inbox/${item.id}/approve`,
      token: ceo.token,
      body: { edits: { arguments: { n: '2' } } },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    await waitForStatus(t.req, ceo.token, 'flow', runId, ['completed']);
    expect(JSON.parse(hits('/owner-edits')[0].body)).toEqual({ n: '2' });
  });
});
