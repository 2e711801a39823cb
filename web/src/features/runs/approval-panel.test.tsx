import type { TFlowRunTimeline, TRunEvent } from '@cc/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { type Handler, mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';
import RunDetailPage from './pages/run-detail-page';

// The live stream: tests push run events through the handler the page registered.
const streams = new Map<string, (msg: { data: unknown }) => void>();
vi.mock('../../lib/event-stream', () => ({
  useEventStream: (
    path: string | null,
    opts: { onMessage(m: { data: unknown }): void; enabled?: boolean },
  ) => {
    if (path && opts.enabled !== false) streams.set(path, opts.onMessage);
    else if (path) streams.delete(path);
    return path && opts.enabled !== false ? 'open' : 'closed';
  },
}));

let seq = 0;
const event = (type: string, details: Record<string, unknown> | null = null): TRunEvent => ({
  id: String(++seq),
  run_id: 'run-1',
  type,
  summary: type,
  details,
  ts: '2026-11-24T10:00:00.000Z',
  thread_id: null,
});
const approvalRequired = () =>
  event('approval_required', {
    approval_id: 'ap-1',
    tool: 'Pay vendor',
    method: 'POST',
    url: 'https://pay.example.com/transfer',
    headers: { 'content-type': 'application/json', authorization: '[redacted]' },
    body: { amount: '42' },
    arguments: { amount: '42' },
  });
const pausedRun = (events: TRunEvent[]): TFlowRunTimeline => ({
  id: 'run-1',
  flow_run_id: 'run-1',
  flow_id: 'flow-1',
  flow_name: 'Pay the vendor',
  status: 'paused',
  conversation_id: null,
  inputs: {},
  result: null,
  error: null,
  current_step: 0,
  human_prompt: null,
  created_at: '2026-11-24T10:00:00.000Z',
  updated_at: '2026-11-24T10:00:00.000Z',
  finished_at: null,
  timeline: events,
});
const decided = { id: 'ap-1', status: 'approved' };

function setup(extra: Record<string, Handler> = {}) {
  const api = mockApi({
    'GET /api/users/me': { body: makeUser({ user_level: 'ceo' }) },
    'GET /api/flow-runs/run-1/timeline': { body: pausedRun([event('flow_start'), approvalRequired()]) },
    ...extra,
  });
  renderApp({
    path: '/app/runs/flow/run-1',
    token: 'tok',
    routes: [{ path: '/app/runs/:kind/:runId', element: <RunDetailPage /> }],
  });
  return api;
}

const push = (e: TRunEvent) =>
  act(() => {
    const fn = streams.get('/api/flow-runs/run-1/events');
    if (!fn) throw new Error('no stream on the run');
    fn({ data: e });
  });

describe('the run page: a tool call waiting for approval', () => {
  beforeEach(() => {
    streams.clear();
    seq = 0;
  });

  it('shows the exact call and approves it; the run resumes live', async () => {
    const { callsTo } = setup({
      'POST /api/runs/run-1/approvals/ap-1/approve': { body: decided },
    });
    const panel = await screen.findByRole('region', { name: 'Approval needed' });
    expect(within(panel).getByText('Approval needed: Pay vendor')).toBeInTheDocument();
    expect(within(panel).getByText('POST')).toBeInTheDocument();
    expect(within(panel).getByText('https://pay.example.com/transfer')).toBeInTheDocument();
    expect(within(panel).getByText('authorization: [redacted]')).toBeInTheDocument();
    expect(within(panel).getByText(/"amount": "42"/)).toBeInTheDocument();
    expect(screen.getByTestId('run-status')).toHaveTextContent('Flow: Paused');

    await userEvent.click(within(panel).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(callsTo('POST', '/api/runs/run-1/approvals/ap-1/approve')).toHaveLength(1));
    expect(callsTo('POST', '/api/runs/run-1/approvals/ap-1/approve')[0].body).toEqual({});
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Approval needed' })).toBeNull());
    await waitFor(() => expect(streams.has('/api/flow-runs/run-1/events')).toBe(true));
    await push(event('approval_granted', { approval_id: 'ap-1', edited: false }));
    expect(await screen.findByText('Flow: Running')).toBeInTheDocument();
  });

  it('rejects only with a reason, which it sends', async () => {
    const { callsTo } = setup({ 'POST /api/runs/run-1/approvals/ap-1/reject': { body: decided } });
    const panel = await screen.findByRole('region', { name: 'Approval needed' });
    await userEvent.click(within(panel).getByRole('button', { name: 'Reject' }));
    await userEvent.click(within(panel).getByRole('button', { name: 'Reject call' }));
    expect(within(panel).getByRole('alert')).toHaveTextContent('A reason is required');
    expect(callsTo('POST', '/api/runs/run-1/approvals/ap-1/reject')).toHaveLength(0);
    await userEvent.type(within(panel).getByLabelText('Reason for rejecting'), 'Wrong vendor');
    await userEvent.click(within(panel).getByRole('button', { name: 'Reject call' }));
    await waitFor(() => expect(callsTo('POST', '/api/runs/run-1/approvals/ap-1/reject')).toHaveLength(1));
    expect(callsTo('POST', '/api/runs/run-1/approvals/ap-1/reject')[0].body).toEqual({
      reason: 'Wrong vendor',
    });
  });

  it('edits the arguments, then approves with them', async () => {
    const { callsTo } = setup({ 'POST /api/runs/run-1/approvals/ap-1/approve': { body: decided } });
    const panel = await screen.findByRole('region', { name: 'Approval needed' });
    await userEvent.click(within(panel).getByRole('button', { name: 'Edit' }));
    const box = within(panel).getByLabelText('Arguments (JSON)');
    expect(JSON.parse((box as HTMLTextAreaElement).value)).toEqual({ amount: '42' });
    await userEvent.clear(box);
    await userEvent.type(box, 'not json');
    await userEvent.click(within(panel).getByRole('button', { name: 'Approve with edits' }));
    expect(within(panel).getByRole('alert')).toHaveTextContent('The arguments must be a JSON object');
    await userEvent.clear(box);
    await userEvent.type(box, '{{"amount": "40"}');
    await userEvent.click(within(panel).getByRole('button', { name: 'Approve with edits' }));
    await waitFor(() => expect(callsTo('POST', '/api/runs/run-1/approvals/ap-1/approve')).toHaveLength(1));
    expect(callsTo('POST', '/api/runs/run-1/approvals/ap-1/approve')[0].body).toEqual({
      edits: { arguments: { amount: '40' } },
    });
  });

  it('goes away when the call is decided elsewhere (the inbox, another tab)', async () => {
    setup();
    await screen.findByRole('region', { name: 'Approval needed' });
    await waitFor(() => expect(streams.has('/api/flow-runs/run-1/events')).toBe(true));
    await push(event('approval_rejected', { approval_id: 'ap-1', reason: 'No' }));
    expect(await screen.findByText('Flow: Running')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Approval needed' })).toBeNull();
  });
});

describe('the run page: an approved call cut by a crash', () => {
  beforeEach(() => {
    streams.clear();
    seq = 0;
  });

  const interrupted = () =>
    event('call_interrupted', {
      approval_id: 'ap-1',
      tool: 'Pay vendor',
      method: 'POST',
      url: 'https://pay.example.com/transfer',
      headers: {},
      body: { amount: '42' },
      question: 'This call was interrupted; did it go through?',
      answers: ['went_through', 'retry', 'stop'],
    });

  it('asks whether it went through with its three answers, and sends the one chosen', async () => {
    const api = mockApi({
      'GET /api/users/me': { body: makeUser({ user_level: 'ceo' }) },
      'GET /api/flow-runs/run-1/timeline': {
        body: pausedRun([
          event('flow_start'),
          approvalRequired(),
          event('approval_granted', { approval_id: 'ap-1', edited: false }),
          interrupted(),
        ]),
      },
      'POST /api/runs/run-1/approvals/ap-1/answer': { body: { id: 'ap-1', status: 'approved' } },
    });
    renderApp({
      path: '/app/runs/flow/run-1',
      token: 'tok',
      routes: [{ path: '/app/runs/:kind/:runId', element: <RunDetailPage /> }],
    });
    const panel = await screen.findByRole('region', { name: 'Interrupted call' });
    expect(within(panel).getByText('This call was interrupted; did it go through?')).toBeInTheDocument();
    expect(within(panel).getByText('https://pay.example.com/transfer')).toBeInTheDocument();
    for (const name of ['It went through', 'It did not, retry', 'Stop the run'])
      expect(within(panel).getByRole('button', { name })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Approval needed' })).toBeNull();
    expect(screen.getByTestId('run-status')).toHaveTextContent('Flow: Paused');

    await userEvent.click(within(panel).getByRole('button', { name: 'It did not, retry' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/runs/run-1/approvals/ap-1/answer')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/runs/run-1/approvals/ap-1/answer')[0].body).toEqual({ answer: 'retry' });
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Interrupted call' })).toBeNull());
    await waitFor(() => expect(streams.has('/api/flow-runs/run-1/events')).toBe(true));
    await push(event('call_interruption_answered', { approval_id: 'ap-1', answer: 'retry' }));
    expect(await screen.findByText('Flow: Running')).toBeInTheDocument();
  });
});
