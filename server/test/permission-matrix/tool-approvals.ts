import { randomUUID } from 'node:crypto';
import { made, ownerOnly, type Row, type World } from './matrix.ts';

/**
 * The tool calls a run waits on are its starter's alone (issue 19 section 1). The matrix app runs no
 * run worker, so the fixture puts the owner's flow run in the state the worker leaves it in when a
 * call must wait: paused, with one pending approval. Everyone else gets 404 (never leak existence).
 */
async function waitingCall(
  w: World,
  status: 'pending' | 'interrupted' = 'pending',
): Promise<{ runId: string; approvalId: string }> {
  // The owner (a plain user) cannot create factory items: they run one of the built-in catalogue.
  const flows = await w.t.req({ method: 'GET', url: '/api/flows/', token: w.users.owner.token });
  const flowId = (flows.json() as { id: string }[])[0].id;
  const started = await made<{ flow_run_id: string }>(w, 'owner', 'POST', '/api/flow-runs/', {
    flow_id: flowId,
  });
  const runId = started.flow_run_id;
  const ts = new Date().toISOString();
  const approvalId = randomUUID();
  await w.t.ctx.db.updateTable('runs').set({ status: 'paused' }).where('id', '=', runId).execute();
  await w.t.ctx.db
    .insertInto('tool_approvals')
    .values({
      id: approvalId,
      run_id: runId,
      user_id: w.users.owner.id,
      position: 0,
      call_index: 0,
      tool_id: 'matrix-tool',
      tool_name: 'Matrix tool',
      method: 'POST',
      url: 'https://example.com/hook',
      destination: 'https://example.com',
      headers: '{}',
      arguments: '{"amount":"1"}',
      gate_reason: 'requires_approval',
      status,
      edited: 0,
      reason: null,
      result: null,
      decided_by: null,
      decided_at: null,
      created_at: ts,
      updated_at: ts,
    })
    .execute();
  return { runId, approvalId };
}

export const toolApprovalRows: Row[] = [
  {
    op: 'GET /api/runs/{id}/approvals',
    target: async (w) => {
      const { runId } = await w.once('waiting call', () => waitingCall(w));
      return { url: `/api/runs/${runId}/approvals` };
    },
    expect: ownerOnly(200),
  },
  {
    op: 'POST /api/runs/{id}/approvals/{approvalId}/approve',
    target: async (w) => {
      const { runId, approvalId } = await waitingCall(w);
      return { url: `/api/runs/${runId}/approvals/${approvalId}/approve`, body: {} };
    },
    expect: ownerOnly(200),
  },
  {
    op: 'POST /api/runs/{id}/approvals/{approvalId}/reject',
    target: async (w) => {
      const { runId, approvalId } = await waitingCall(w);
      return {
        url: `/api/runs/${runId}/approvals/${approvalId}/reject`,
        body: { reason: 'Not now' },
      };
    },
    expect: ownerOnly(200),
  },
  {
    // An approved call cut by a crash asks its owner whether it went through (issue 46 row 8).
    op: 'POST /api/runs/{id}/approvals/{approvalId}/answer',
    target: async (w) => {
      const { runId, approvalId } = await waitingCall(w, 'interrupted');
      return { url: `/api/runs/${runId}/approvals/${approvalId}/answer`, body: { answer: 'stop' } };
    },
    expect: ownerOnly(200),
  },
];
