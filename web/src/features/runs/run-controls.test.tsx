import type { TCrew, TCrewRun, TCrewRunTimeline, TFlow, TRunEvent } from '@cc/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { type Handler, mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';
import { ConversationRunControls } from './components/conversation-run-controls';
import { resetRunSessions } from './session-store';

// The live stream: tests push run events through the handler the controls registered.
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

const flags = {
  isAutoGen: true,
  is_public: false,
  created_by: null,
  shared_org_ids: [] as string[],
  can_edit: false,
  can_delete: false,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};
const crew = (over: Partial<TCrew> = {}): TCrew => ({
  id: 'crew-1',
  name: 'Weekly report',
  description: 'Summarises the week',
  version: '1.0',
  agentIds: [],
  requires_input: false,
  input_fields: [],
  tasks: [],
  ...flags,
  ...over,
});
const flow: TFlow = {
  id: 'flow-1',
  name: 'Approval flow',
  description: 'Asks a person',
  version: '1.0',
  steps: [],
  ...flags,
};
const run = (over: Partial<TCrewRun> = {}): TCrewRun => ({
  id: 'run-1',
  crew_run_id: 'run-1',
  crew_id: 'crew-1',
  crew_name: 'Weekly report',
  status: 'running',
  conversation_id: 'conv-1',
  inputs: {},
  result: null,
  error: null,
  current_step: 0,
  human_prompt: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  finished_at: null,
  ...over,
});
let seq = 0;
const event = (type: string, summary: string, details: Record<string, unknown> | null = null): TRunEvent => ({
  id: String(++seq),
  run_id: 'run-1',
  type,
  summary,
  details,
  ts: '2026-01-01T10:00:00.000Z',
  thread_id: 'conv-1',
});
const timeline = (over: Partial<TCrewRun> = {}, events: TRunEvent[] = []): TCrewRunTimeline => ({
  ...run(over),
  timeline: events,
});

/** What the page does when a run ends (tests replace it with a spy). */
let onRunEnded: () => void = () => {};

function Both() {
  return (
    <>
      <ConversationRunControls conversationId="conv-1" placement="header" replying={false} />
      <ConversationRunControls
        conversationId="conv-1"
        placement="composer"
        replying={false}
        onRunEnded={() => onRunEnded()}
      />
    </>
  );
}

function setup(extra: Record<string, Handler> = {}) {
  const api = mockApi({
    'GET /api/users/me': { body: makeUser({ user_level: 'ceo' }) },
    'GET /api/crews/': {
      body: [
        crew(),
        crew({ id: 'crew-q', name: 'Market research brief', requires_input: true }),
        crew({ id: 'crew-f', name: 'Board questions', requires_input: true }),
      ],
    },
    'GET /api/flows/': { body: [flow] },
    'GET /api/crew-runs/': { body: [] },
    'GET /api/flow-runs/': { body: [] },
    'GET /api/crews/crew-q/input-schema': { body: { requires_input: true, fields: [] } },
    'GET /api/crews/crew-f/input-schema': {
      body: {
        requires_input: true,
        fields: [
          { name: 'company', label: 'Company', required: true },
          { name: 'angle', label: null, required: false },
        ],
      },
    },
    'GET /api/crews/crew-1/input-schema': { body: { requires_input: false, fields: [] } },
    ...extra,
  });
  const app = renderApp({
    path: '/app/conversations/conv-1',
    token: 'tok',
    routes: [{ path: '/app/conversations/:id', element: <Both /> }],
  });
  return { ...api, ...app };
}

const push = (path: string, e: TRunEvent) =>
  act(() => {
    const fn = streams.get(path);
    if (!fn) throw new Error(`no stream on ${path}`);
    fn({ data: e });
  });

beforeEach(() => {
  streams.clear();
  resetRunSessions();
  onRunEnded = () => {};
});

describe('conversation run controls', () => {
  it('starts "Crew: Inactive"; the picker searches crews and flows', async () => {
    setup();
    expect(await screen.findByText('Crew: Inactive')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Start crew or flow' }));
    const dialog = await screen.findByRole('dialog', { name: 'Start a crew or flow' });
    expect(await within(dialog).findByRole('button', { name: /Weekly report/ })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: /Approval flow/ })).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Search crews and flows'), 'market');
    expect(within(dialog).getByRole('button', { name: /Market research brief/ })).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: /Weekly report/ })).not.toBeInTheDocument();
    expect(within(dialog).getByText('No flows found.')).toBeInTheDocument();
  });

  it('a crew that needs input but has no fields asks "Enter questions" with one initial_goal field', async () => {
    const { callsTo } = setup({
      'POST /api/crew-runs/': {
        status: 201,
        body: { crew_run_id: 'run-1', status: 'pending', conversation_id: 'conv-1' },
      },
      'GET /api/crew-runs/run-1/timeline': { body: timeline({ status: 'pending' }) },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Start crew or flow' }));
    await userEvent.click(await screen.findByRole('button', { name: /Market research brief/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Market research brief' });
    expect(within(dialog).getByRole('heading', { name: 'Enter questions' })).toBeInTheDocument();
    const goal = within(dialog).getByLabelText('Initial goal');
    expect(goal).toHaveAttribute('id', 'crew-input-initial_goal');
    expect(within(dialog).getAllByRole('textbox')).toHaveLength(1);

    await userEvent.type(goal, '   ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Start crew' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'This crew needs input: enter at least one non-blank answer',
    );
    expect(callsTo('POST', '/api/crew-runs/')).toHaveLength(0);

    await userEvent.type(goal, 'Size the EU market');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Start crew' }));
    await waitFor(() => expect(callsTo('POST', '/api/crew-runs/')).toHaveLength(1));
    const call = callsTo('POST', '/api/crew-runs/')[0];
    expect(call.search.get('conversation_id')).toBe('conv-1');
    expect(call.body).toEqual({ crew_id: 'crew-q', inputs: { initial_goal: 'Size the EU market' } });
    expect(await screen.findByText('Crew started')).toBeInTheDocument();
    expect(await screen.findByText('Crew: Pending')).toBeInTheDocument();
  });

  it('declared fields are shown instead; required ones must be filled', async () => {
    const { callsTo } = setup({
      'POST /api/crew-runs/': {
        status: 201,
        body: { crew_run_id: 'run-1', status: 'pending', conversation_id: 'conv-1' },
      },
      'GET /api/crew-runs/run-1/timeline': { body: timeline({ status: 'pending' }) },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Start crew or flow' }));
    await userEvent.click(await screen.findByRole('button', { name: /Board questions/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Board questions' });
    expect(within(dialog).queryByLabelText('Initial goal')).not.toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Angle (optional)'), 'pricing');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Start crew' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Company is required');
    await userEvent.type(within(dialog).getByLabelText('Company'), 'Acme');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Start crew' }));
    await waitFor(() => expect(callsTo('POST', '/api/crew-runs/')).toHaveLength(1));
    expect(callsTo('POST', '/api/crew-runs/')[0].body).toEqual({
      crew_id: 'crew-f',
      inputs: { company: 'Acme', angle: 'pricing' },
    });
  });

  it('streams the timeline, shows "Crew running...", asks for input, continues and completes', async () => {
    const { callsTo } = setup({
      'POST /api/crew-runs/': {
        status: 201,
        body: { crew_run_id: 'run-1', status: 'pending', conversation_id: 'conv-1' },
      },
      'GET /api/crew-runs/run-1/timeline': { body: timeline({ status: 'pending' }) },
      'POST /api/crew-runs/run-1/continue': { body: { ok: true } },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Start crew or flow' }));
    await userEvent.click(await screen.findByRole('button', { name: /Weekly report/ }));
    await waitFor(() => expect(streams.has('/api/crew-runs/run-1/events')).toBe(true));
    const path = '/api/crew-runs/run-1/events';

    await push(path, event('crew_start', 'Crew Weekly report started'));
    await push(path, event('task_start', 'Task 1: Gather numbers'));
    expect(await screen.findByText('Crew: Running')).toBeInTheDocument();
    expect(screen.getByText('Crew running...')).toBeInTheDocument();
    const log = screen.getByRole('log', { name: 'Weekly report timeline' });
    expect(within(log).getByText('Task 1: Gather numbers')).toBeInTheDocument();

    await push(path, event('human_prompt', 'Waiting for input', { prompt: 'Which quarter?' }));
    expect(await screen.findByText('Crew: Awaiting input')).toBeInTheDocument();
    expect(screen.queryByText('Crew running...')).not.toBeInTheDocument();
    const answer = screen.getByLabelText('Which quarter?');
    await userEvent.type(answer, 'Q3');
    await userEvent.click(screen.getByRole('button', { name: 'Answer' }));
    await waitFor(() => expect(callsTo('POST', '/api/crew-runs/run-1/continue')).toHaveLength(1));
    expect(callsTo('POST', '/api/crew-runs/run-1/continue')[0].body).toEqual({ user_input: 'Q3' });
    await waitFor(() => expect(screen.queryByLabelText('Which quarter?')).not.toBeInTheDocument());

    await push(path, event('human_input', 'Answer received', { user_input: 'Q3' }));
    expect(await screen.findByText('Crew: Running')).toBeInTheDocument();
    await push(path, event('crew_end', 'Crew completed', { result: 'Done' }));
    expect(await screen.findByText('Crew: Completed')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Stop' })).not.toBeInTheDocument();
    expect(within(log).getAllByRole('listitem')).toHaveLength(5);
  });

  it('resumes the first active run on opening and stops it', async () => {
    const events = [event('crew_start', 'Crew started'), event('task_start', 'Task 1: Research')];
    const { callsTo } = setup({
      'GET /api/crew-runs/': {
        body: [run({ id: 'run-2', crew_run_id: 'run-2', status: 'completed' }), run({ status: 'running' })],
      },
      'GET /api/crew-runs/run-1/timeline': { body: timeline({ status: 'running' }, events) },
      'POST /api/crew-runs/run-1/stop': { body: { ok: true } },
    });
    expect(await screen.findByText('Crew: Running')).toBeInTheDocument();
    expect(screen.getByText('Task 1: Research')).toBeInTheDocument();
    expect(callsTo('GET', '/api/crew-runs/')[0].search.get('conversation_id')).toBe('conv-1');
    await waitFor(() => expect(streams.has('/api/crew-runs/run-1/events')).toBe(true));

    await userEvent.click(screen.getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(callsTo('POST', '/api/crew-runs/run-1/stop')).toHaveLength(1));
    await push('/api/crew-runs/run-1/events', event('crew_error', 'Run failed: stopped by the user'));
    expect(await screen.findByText('Crew: Failed')).toBeInTheDocument();
  });

  it('a flow pauses on wait_for_human and resumes on the answer', async () => {
    const { callsTo } = setup({
      'POST /api/flow-runs/': {
        status: 201,
        body: { flow_run_id: 'fr-1', status: 'running', conversation_id: 'conv-1' },
      },
      'GET /api/flow-runs/fr-1/timeline': {
        body: {
          ...timeline({ status: 'running' } as Partial<TCrewRun>),
          id: 'fr-1',
          flow_run_id: 'fr-1',
          flow_id: 'flow-1',
          flow_name: 'Approval flow',
        },
      },
      'POST /api/flow-runs/fr-1/continue': { body: { ok: true } },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Start crew or flow' }));
    await userEvent.click(await screen.findByRole('button', { name: /Approval flow/ }));
    expect(await screen.findByText('Flow started')).toBeInTheDocument();
    expect(callsTo('POST', '/api/flow-runs/')[0].body).toEqual({ flow_id: 'flow-1', inputs: {} });
    const path = '/api/flow-runs/fr-1/events';
    await waitFor(() => expect(streams.has(path)).toBe(true));
    await push(path, event('wait_for_human', 'Approve?', { prompt: 'Approve the plan?' }));
    expect(await screen.findByText('Flow: Paused')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Approve the plan?'), 'Yes{Enter}');
    await waitFor(() => expect(callsTo('POST', '/api/flow-runs/fr-1/continue')).toHaveLength(1));
    await push(path, event('human_input', 'Answered'));
    await push(path, event('result', 'Result', { result: 'Approved' }));
    await push(path, event('terminal', 'Flow finished'));
    expect(await screen.findByText('Flow: Completed')).toBeInTheDocument();
  });

  it('a failed start adds the spec system message', async () => {
    setup({
      'POST /api/crew-runs/': {
        status: 409,
        body: { detail: 'A crew or flow is already running in this conversation' },
      },
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await userEvent.click(await screen.findByRole('button', { name: 'Start crew or flow' }));
    await userEvent.click(await screen.findByRole('button', { name: /Weekly report/ }));
    expect(
      await screen.findByText('Failed to start the crew. Please check the console for details.'),
    ).toBeInTheDocument();
    expect(await screen.findByText('Failed to start crew')).toBeInTheDocument();
    expect(screen.getByText('Crew: Inactive')).toBeInTheDocument();
  });

  it('a run estimated above the threshold asks to confirm before it starts', async () => {
    const api = setup({
      'GET /api/crews/crew-1/estimate': {
        body: { estimated_usd: 2.4, steps: 3, threshold_usd: 1, needs_confirmation: true },
      },
      'POST /api/crew-runs/': {
        status: 201,
        body: { crew_run_id: 'run-9', status: 'pending', conversation_id: 'conv-1' },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Start crew or flow' }));
    await userEvent.click(await screen.findByRole('button', { name: /Weekly report/ }));
    const confirm = await screen.findByRole('alertdialog', { name: "Confirm the run's cost" });
    expect(confirm).toHaveTextContent('is estimated to cost $2.40, above your $1.00 threshold. Start it?');
    expect(api.callsTo('POST', '/api/crew-runs/')).toHaveLength(0);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Start run' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/crew-runs/')).toHaveLength(1));
  });

  it('a run under the threshold starts without asking', async () => {
    const api = setup({
      'GET /api/crews/crew-1/estimate': {
        body: { estimated_usd: 0.2, steps: 3, threshold_usd: 1, needs_confirmation: false },
      },
      'POST /api/crew-runs/': {
        status: 201,
        body: { crew_run_id: 'run-9', status: 'pending', conversation_id: 'conv-1' },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Start crew or flow' }));
    await userEvent.click(await screen.findByRole('button', { name: /Weekly report/ }));
    await waitFor(() => expect(api.callsTo('POST', '/api/crew-runs/')).toHaveLength(1));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('a start refused by the rate limit shows its detail where the run was started', async () => {
    const detail = 'Too many runs started (at most 10 a minute). Please try again in 40 seconds.';
    setup({ 'POST /api/crew-runs/': { status: 429, body: { detail } } });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await userEvent.click(await screen.findByRole('button', { name: 'Start crew or flow' }));
    await userEvent.click(await screen.findByRole('button', { name: /Weekly report/ }));
    const section = await screen.findByRole('region', { name: 'Crew and flow run' });
    expect(await within(section).findByText(detail)).toBeInTheDocument();
    expect(screen.queryByText('Failed to start the crew. Please check the console for details.')).toBeNull();
    expect(screen.queryByText('Session Expired')).toBeNull();
  });

  it('starts the crew handed over by the Factory', async () => {
    const { callsTo, router } = setup({
      'POST /api/crew-runs/': {
        status: 201,
        body: { crew_run_id: 'run-1', status: 'pending', conversation_id: 'conv-1' },
      },
      'GET /api/crew-runs/run-1/timeline': { body: timeline({ status: 'pending' }) },
    });
    await screen.findByText('Crew: Inactive');
    await act(() =>
      router.navigate('/app/conversations/conv-1', {
        state: { startRun: { kind: 'crew', id: 'crew-1', name: 'Weekly report' } },
      }),
    );
    await waitFor(() => expect(callsTo('POST', '/api/crew-runs/')).toHaveLength(1));
    expect(callsTo('POST', '/api/crew-runs/')[0].body).toEqual({ crew_id: 'crew-1', inputs: {} });
    await waitFor(() => expect(router.state.location.state).toBeNull());
    expect(await screen.findByText('Crew: Pending')).toBeInTheDocument();
  });

  it("a flow's question shows the drafted plan above it; Approve answers; the end takes the log to the result", async () => {
    const ended = vi.fn();
    onRunEnded = ended;
    const flowRun = {
      ...timeline({
        status: 'paused',
        human_prompt: 'Do you approve this plan?',
      } as unknown as Partial<TCrewRun>),
      id: 'fr-1',
      flow_run_id: 'fr-1',
      flow_id: 'flow-1',
      flow_name: 'Task Plan with Approval',
    };
    const events = [
      event('flow_start', 'Flow started'),
      event('step_output', 'Step 1 completed: Draft the plan', {
        position: 0,
        output: '## Draft plan\n\n- **Hire** a finance lead',
      }),
      event('wait_for_human', 'Waiting for your input: Approval', { prompt: 'Do you approve this plan?' }),
    ];
    const { callsTo } = setup({
      'GET /api/flow-runs/': { body: [{ ...flowRun, timeline: undefined }] },
      'GET /api/flow-runs/fr-1/timeline': { body: { ...flowRun, timeline: events } },
      'POST /api/flow-runs/fr-1/continue': { body: { ok: true } },
    });
    expect(await screen.findByText('Flow: Paused')).toBeInTheDocument();
    const about = await screen.findByRole('region', { name: 'What the question is about' });
    expect(await within(about).findByRole('heading', { name: 'Draft plan' })).toBeInTheDocument();
    expect(within(about).getByText('Hire').tagName).toBe('STRONG');
    expect(screen.getByLabelText('Do you approve this plan?')).toBeInTheDocument();
    // A small screen (jsdom has no matchMedia): the question and what it asks about are inline above
    // the composer, never in the sheet that the bar opens (issue 47 item 4: nothing to open first).
    const form = screen.getByRole('form', { name: "Answer the run's question" });
    expect(form.closest('[id^="run-sheet-"]')).toBeNull();
    expect(form).toContainElement(about);
    const bar = screen.getByRole('button', { name: 'Show run' });
    expect(bar).toHaveAttribute('aria-expanded', 'false');
    // The bar still opens the sheet (the timeline, Stop); Escape closes it.
    await userEvent.click(bar);
    expect(screen.getByRole('button', { name: 'Hide run' })).toHaveAttribute('aria-expanded', 'true');
    await userEvent.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: 'Show run' })).toHaveAttribute('aria-expanded', 'false');

    await userEvent.click(screen.getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(callsTo('POST', '/api/flow-runs/fr-1/continue')).toHaveLength(1));
    expect(callsTo('POST', '/api/flow-runs/fr-1/continue')[0].body).toEqual({ user_input: 'yes' });

    const path = '/api/flow-runs/fr-1/events';
    await waitFor(() => expect(streams.has(path)).toBe(true));
    await push(path, event('human_input', 'Answer received', { user_input: 'yes' }));
    expect(ended).not.toHaveBeenCalled();
    await push(path, event('result', 'Result', { result: 'Final plan' }));
    await push(path, event('terminal', 'Flow "Task Plan with Approval" completed'));
    expect(await screen.findByText('Flow: Completed')).toBeInTheDocument();
    await waitFor(() => expect(ended).toHaveBeenCalledTimes(1));
  });
});
