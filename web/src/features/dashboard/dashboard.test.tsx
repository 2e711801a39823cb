import type { TAdvice, TGoal, TTask } from '@cc/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { type GoalFixture, makeGoalFixture, makeUser } from '../../test/fixtures';
import { type Handler, mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';

function makeGoal(over: GoalFixture = {}): TGoal {
  return makeGoalFixture({
    id: 'goal-1',
    user_id: 'user-ceo',
    title: 'Grow revenue',
    description: null,
    due_date: '2026-12-31',
    status: 'new',
    organization_id: 'org-1',
    organization_name: 'Northwind Ventures',
    kpis: [],
    can_edit: true,
    can_delete: true,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...over,
  });
}

function makeTask(over: Partial<TTask> = {}): TTask {
  return {
    id: 'task-1',
    title: 'Close the Series B',
    description: null,
    priority: 'High',
    status: 'To Do',
    due_date: '2026-03-01',
    notes: null,
    assigned_to_user_id: null,
    assigned_to_user: null,
    created_by: 'user-ceo',
    created_by_user: { id: 'user-ceo', name: 'Olivia Chen', email: 'ceo@x.co' },
    shared_org_ids: [],
    goal_id: null,
    can_edit: true,
    can_delete: true,
    can_assign: true,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...over,
  };
}

function makeAdvice(over: Partial<TAdvice> = {}): TAdvice {
  return {
    id: 'adv-1',
    advice_title: 'Focus on retention',
    content: '**Retention** beats acquisition this quarter.',
    feedback: null,
    crew_run_id: null,
    citations: [],
    user_id: 'user-ceo',
    organization_id: null,
    can_edit: true,
    created_at: '2026-02-01T00:00:00.000Z',
    updated_at: '2026-02-01T00:00:00.000Z',
    ...over,
  };
}

function setup(
  data: { goals?: TGoal[]; tasks?: TTask[]; advice?: TAdvice[] },
  extra: Record<string, Handler> = {},
) {
  const api = mockApi({
    'GET /api/users/me': { body: makeUser({ id: 'user-ceo', first_name: 'Olivia', user_level: 'ceo' }) },
    'GET /api/strategic-goals': { body: data.goals ?? [] },
    'GET /api/tasks/urgent': { body: data.tasks ?? [] },
    'GET /api/strategic-advice': { body: data.advice ?? [] },
    ...extra,
  });
  renderApp({ path: '/app/ceodashboard', token: 'tok' });
  return api;
}

describe('CEO dashboard', () => {
  it('shows the three empty texts', async () => {
    setup({});
    expect(await screen.findByText('No strategic goals defined yet.')).toBeInTheDocument();
    expect(await screen.findByText('No high-priority tasks at the moment. Well done!')).toBeInTheDocument();
    expect(
      await screen.findByText('No strategic advice available. Click "Generate Advice" to begin analysis.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: /Welcome back,/ })).toHaveTextContent('Welcome back, Olivia');
    expect(screen.getByRole('link', { name: /Add Notes/ })).toHaveAttribute('href', '/app/notes');
  });

  it('groups goals by organization, with "Personal" for goals without one, and shows KPI progress', async () => {
    const { callsTo } = setup({
      goals: [
        makeGoal({
          id: 'g1',
          title: 'Grow revenue',
          kpis: [
            {
              id: 'k1',
              name: 'ARR',
              current_value: 50,
              target_value: 100,
              unit: null,
              last_checkin_date: null,
              stale: false,
              trend: [],
            },
            {
              id: 'k2',
              name: 'NRR',
              current_value: 25,
              target_value: 100,
              unit: '%',
              last_checkin_date: null,
              stale: false,
              trend: [],
            },
          ],
        }),
        makeGoal({ id: 'g2', title: 'Run a marathon', organization_id: null, organization_name: null }),
        makeGoal({
          id: 'g3',
          title: 'Open Berlin office',
          organization_id: 'org-2',
          organization_name: 'Contoso',
          risk: { at_risk: true, reasons: ['KPI “Hires” has had no check-in since 2026-10-01'] },
        }),
      ],
    });
    const northwind = await screen.findByRole('region', { name: 'Northwind Ventures' });
    expect(within(northwind).getByText('Grow revenue')).toBeInTheDocument();
    expect(within(northwind).getByRole('progressbar', { name: 'Progress of Grow revenue' })).toHaveAttribute(
      'aria-valuenow',
      '38',
    );
    expect(
      within(screen.getByRole('region', { name: 'Personal' })).getByText('Run a marathon'),
    ).toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Contoso' })).getByText('Open Berlin office'),
    ).toBeInTheDocument();
    // The goals API's risk, as on the Strategy page: marked, with its reasons for screen readers.
    const contoso = screen.getByRole('region', { name: 'Contoso' });
    expect(within(contoso).getByText('At risk')).toHaveAccessibleDescription(
      'KPI “Hires” has had no check-in since 2026-10-01',
    );
    expect(within(northwind).queryByText('At risk')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Grow revenue/ })).toHaveAttribute('href', '/app/strategy');
    expect(screen.getByRole('link', { name: /View All/ })).toHaveAttribute('href', '/app/strategy');
    expect(callsTo('GET', '/api/strategic-goals')).toHaveLength(1);
  });

  it('lists urgent tasks from the urgent endpoint with limit 3', async () => {
    const { callsTo } = setup({
      tasks: [makeTask(), makeTask({ id: 't2', title: 'Hire a CFO', priority: 'High' })],
    });
    expect(await screen.findByText('Close the Series B')).toBeInTheDocument();
    expect(screen.getByText('Hire a CFO')).toBeInTheDocument();
    expect(callsTo('GET', '/api/tasks/urgent')[0].search.get('limit')).toBe('3');
  });

  it('shows only High tasks that are not Done among the urgent tasks (spec §2)', async () => {
    setup({
      tasks: [
        makeTask({ id: 't1', title: 'Urgent but not High', priority: 'Urgent' }),
        makeTask({ id: 't2', title: 'High and finished', status: 'Done' }),
      ],
    });
    expect(await screen.findByText('No high-priority tasks at the moment. Well done!')).toBeInTheDocument();
    expect(screen.queryByText('Urgent but not High')).not.toBeInTheDocument();
    expect(screen.queryByText('High and finished')).not.toBeInTheDocument();
  });

  it('shows the latest advice, saves feedback, and reports a failed Generate Advice', async () => {
    const advice = makeAdvice();
    const { callsTo } = setup(
      { advice: [advice] },
      {
        'PATCH /api/strategic-advice/adv-1/feedback': { body: { ...advice, feedback: 'Agreed' } },
        'POST /api/flow/run/strategic_flow': {
          status: 503,
          body: { detail: 'Advice generation is not available yet.' },
        },
      },
    );
    expect(await screen.findByText('Focus on retention')).toBeInTheDocument();
    // The content is rendered markdown (the renderer is preloaded and warmed while the advice loads).
    await waitFor(() => expect(screen.getByText('Retention').tagName).toBe('STRONG'));
    expect(callsTo('GET', '/api/strategic-advice')[0].search.get('limit')).toBe('1');
    await userEvent.type(screen.getByLabelText('Your feedback'), 'Agreed');
    await userEvent.click(screen.getByRole('button', { name: 'Save feedback' }));
    expect(await screen.findByText('Feedback saved')).toBeInTheDocument();
    expect(callsTo('PATCH', '/api/strategic-advice/adv-1/feedback')[0].body).toEqual({ feedback: 'Agreed' });

    await userEvent.click(screen.getByRole('button', { name: 'Generate Advice' }));
    expect(await screen.findByText('Error starting advice flow')).toBeInTheDocument();
    expect(screen.getByText('Advice generation is not available yet.')).toBeInTheDocument();
    expect(callsTo('POST', '/api/flow/run/strategic_flow')[0].body).toEqual({
      inputs: { user_id: 'user-ceo' },
    });
  });

  it('says "Advice generation started", shows progress, and shows the new advice when it lands', async () => {
    const run = {
      id: 'run-1',
      flow_run_id: 'run-1',
      flow: 'strategic_flow',
      status: 'running',
      user_id: 'user-ceo',
      advice_id: null,
      error: null,
      message: 'Advice generation started',
      created_at: '2026-02-02T00:00:00.000Z',
      finished_at: null,
    };
    let landed = false;
    const fresh = makeAdvice({ id: 'adv-2', advice_title: 'Close the gap on EU customers signed' });
    const { callsTo } = setup(
      {},
      {
        'GET /api/strategic-advice': () => ({ body: landed ? [fresh] : [] }),
        'POST /api/flow/run/strategic_flow': { status: 202, body: run },
        'GET /api/flow/runs/run-1': () =>
          landed
            ? {
                body: {
                  ...run,
                  status: 'completed',
                  advice_id: 'adv-2',
                  finished_at: '2026-02-02T00:00:05.000Z',
                },
              }
            : { body: run },
      },
    );
    expect(
      await screen.findByText('No strategic advice available. Click "Generate Advice" to begin analysis.'),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Generate Advice' }));
    await waitFor(() => expect(screen.getByText('Advice generation started')).toBeInTheDocument());
    expect(await screen.findByText(/Analysing your goals, KPIs and tasks/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Generate Advice' })).toBeDisabled();
    await waitFor(() => expect(callsTo('GET', '/api/flow/runs/run-1').length).toBeGreaterThan(0));
    landed = true;
    // The dashboard polls every 2 s while the run is in flight, then refreshes the advice by itself.
    expect(
      await screen.findByText('Close the gap on EU customers signed', {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(await screen.findByText('New strategic advice is ready')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Generate Advice' })).toBeEnabled());
    expect(screen.queryByText(/Analysing your goals/)).not.toBeInTheDocument();
  }, 10_000);

  it('reports a generation that fails after it started', async () => {
    setup(
      {},
      {
        'POST /api/flow/run/strategic_flow': { status: 202, body: { id: 'run-9', status: 'running' } },
        'GET /api/flow/runs/run-9': { body: { id: 'run-9', status: 'failed', error: 'Model unavailable' } },
      },
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Generate Advice' }));
    expect(await screen.findByText('Advice generation failed')).toBeInTheDocument();
    expect(screen.getByText('Model unavailable')).toBeInTheDocument();
  });
});
