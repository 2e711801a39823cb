import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';

vi.mock('../../lib/event-stream', () => ({ useEventStream: () => 'open' }));

const crew = (id: string, name: string, requires_input: boolean) => ({
  id,
  name,
  description: null,
  version: '1.0',
  agentIds: [],
  requires_input,
  input_fields: [],
  tasks: [],
  isAutoGen: true,
  is_public: false,
  created_by: null,
  shared_org_ids: [] as string[],
  can_edit: false,
  can_delete: false,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
});

describe('/app/test-run', () => {
  it('needs a conversation and a crew, shows initial_goal for a crew without fields, starts and follows the run', async () => {
    const { callsTo } = mockApi({
      'GET /api/users/me': { body: makeUser({ user_level: 'ceo' }) },
      'GET /api/conversations/': {
        body: [
          {
            id: 'conv-1',
            name: 'Board prep',
            created_at: '2026-01-01T00:00:00Z',
            updated_at: '2026-01-01T00:00:00Z',
          },
        ],
      },
      'GET /api/crews/': { body: [crew('crew-q', 'Market research brief', true)] },
      'GET /api/crews/crew-q/input-schema': { body: { requires_input: true, fields: [] } },
      'POST /api/crew-runs/': {
        status: 201,
        body: { crew_run_id: 'run-1', status: 'pending', conversation_id: 'conv-1' },
      },
      'GET /api/crew-runs/run-1/timeline': {
        body: {
          id: 'run-1',
          crew_run_id: 'run-1',
          crew_id: 'crew-q',
          crew_name: 'Market research brief',
          status: 'running',
          conversation_id: 'conv-1',
          inputs: {},
          result: null,
          error: null,
          current_step: 0,
          human_prompt: null,
          created_at: '2026-01-01T00:00:00Z',
          updated_at: '2026-01-01T00:00:00Z',
          finished_at: null,
          timeline: [
            {
              id: '1',
              run_id: 'run-1',
              type: 'crew_start',
              summary: 'Crew started',
              details: null,
              ts: '2026-01-01T00:00:00Z',
              thread_id: 'conv-1',
            },
            {
              id: '2',
              run_id: 'run-1',
              type: 'task_start',
              summary: 'Task 1: Research',
              details: null,
              ts: '2026-01-01T00:00:01Z',
              thread_id: 'conv-1',
            },
          ],
        },
      },
    });
    renderApp({ path: '/app/test-run', token: 'tok' });
    expect(await screen.findByRole('heading', { name: 'Test Run' })).toBeInTheDocument();
    expect(screen.getByText('Crew: Inactive')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Start run' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Choose a conversation and a crew');

    await screen.findByRole('option', { name: 'Board prep' });
    await userEvent.selectOptions(screen.getByLabelText('Conversation'), 'conv-1');
    await screen.findByRole('option', { name: 'Market research brief' });
    await userEvent.selectOptions(screen.getByLabelText('Crew'), 'crew-q');
    const goal = await screen.findByLabelText('Initial goal');
    await userEvent.click(screen.getByRole('button', { name: 'Start run' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'This crew needs input: enter at least one non-blank answer',
    );

    await userEvent.type(goal, 'Size the market');
    await userEvent.click(screen.getByRole('button', { name: 'Start run' }));
    await waitFor(() => expect(callsTo('POST', '/api/crew-runs/')).toHaveLength(1));
    const call = callsTo('POST', '/api/crew-runs/')[0];
    expect(call.search.get('conversation_id')).toBe('conv-1');
    expect(call.body).toEqual({ crew_id: 'crew-q', inputs: { initial_goal: 'Size the market' } });
    expect(await screen.findByText('Crew: Running')).toBeInTheDocument();
    const log = screen.getByRole('log', { name: 'Market research brief timeline' });
    expect(within(log).getByText('Task 1: Research')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Open the conversation/ })).toHaveAttribute(
      'href',
      '/app/conversations/conv-1',
    );
  });

  it('asks to confirm a run estimated above the threshold before it starts it', async () => {
    const { callsTo } = mockApi({
      'GET /api/users/me': { body: makeUser({ user_level: 'ceo' }) },
      'GET /api/conversations/': {
        body: [
          {
            id: 'conv-1',
            name: 'Board prep',
            created_at: '2026-01-01T00:00:00Z',
            updated_at: '2026-01-01T00:00:00Z',
          },
        ],
      },
      'GET /api/crews/': { body: [crew('crew-c', 'Costly crew', false)] },
      'GET /api/crews/crew-c/input-schema': { body: { requires_input: false, fields: [] } },
      'GET /api/crews/crew-c/estimate': {
        body: { estimated_usd: 3.5, steps: 4, threshold_usd: 1, needs_confirmation: true },
      },
      'POST /api/crew-runs/': {
        status: 201,
        body: { crew_run_id: 'run-2', status: 'pending', conversation_id: 'conv-1' },
      },
    });
    renderApp({ path: '/app/test-run', token: 'tok' });
    await screen.findByRole('option', { name: 'Board prep' });
    await userEvent.selectOptions(screen.getByLabelText('Conversation'), 'conv-1');
    await screen.findByRole('option', { name: 'Costly crew' });
    await userEvent.selectOptions(screen.getByLabelText('Crew'), 'crew-c');
    await screen.findByText('This crew needs no input.');
    await userEvent.click(screen.getByRole('button', { name: 'Start run' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent(
      'Starting “Costly crew” is estimated to cost $3.50, above your $1.00 threshold.',
    );
    expect(callsTo('POST', '/api/crew-runs/')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Start run' }));
    await waitFor(() => expect(callsTo('POST', '/api/crew-runs/')).toHaveLength(1));
  });
});
