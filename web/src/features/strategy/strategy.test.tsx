import type { TAdvice, TGoal } from '@cc/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { type GoalFixture, makeGoalFixture, makeOrg, makeUser } from '../../test/fixtures';
import { type Handler, mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';

function makeGoal(over: GoalFixture = {}): TGoal {
  return makeGoalFixture({
    id: 'goal-1',
    user_id: 'user-ceo',
    title: 'Grow revenue',
    description: 'Double ARR',
    due_date: '2026-12-31',
    status: 'in_progress',
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

function makeAdvice(over: Partial<TAdvice> = {}): TAdvice {
  return {
    id: 'adv-1',
    advice_title: 'Focus on retention',
    content: `${'Retention beats acquisition this quarter. '.repeat(12)}\n\n- one\n- two\n- three`,
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

function setup(goals: TGoal[] = [], advice: TAdvice[] = [], extra: Record<string, Handler> = {}) {
  const api = mockApi({
    'GET /api/users/me': { body: makeUser({ id: 'user-ceo', user_level: 'ceo' }) },
    'GET /api/strategic-goals': { body: goals },
    'GET /api/strategic-advice': { body: advice },
    'GET /api/organizations': { body: [makeOrg(), makeOrg({ id: 'org-2', name: 'Contoso' })] },
    ...extra,
  });
  renderApp({ path: '/app/strategy', token: 'tok' });
  return api;
}

describe('Strategy Center: goals', () => {
  it('sends the filters as query params (default sort due_date, completed excluded)', async () => {
    const { callsTo } = setup();
    expect(await screen.findByRole('heading', { name: 'Strategy Center' })).toBeInTheDocument();
    await waitFor(() => expect(callsTo('GET', '/api/strategic-goals').length).toBeGreaterThan(0));
    const first = callsTo('GET', '/api/strategic-goals')[0].search;
    expect(first.get('sort_by')).toBe('due_date');
    expect(first.get('include_completed')).toBe('false');
    expect(first.get('status')).toBeNull();

    await screen.findByRole('option', { name: 'Contoso' });
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'in_progress');
    await userEvent.selectOptions(screen.getByLabelText('Organization'), 'org-2');
    await userEvent.selectOptions(screen.getByLabelText('Sort by'), 'status');
    await userEvent.click(screen.getByLabelText('Include completed goals'));
    await userEvent.type(screen.getByLabelText('Search goals'), 'revenue');
    await waitFor(() => {
      const last = callsTo('GET', '/api/strategic-goals').at(-1)!.search;
      expect(Object.fromEntries(last)).toEqual({
        search: 'revenue',
        status: 'in_progress',
        organization_id: 'org-2',
        sort_by: 'status',
        include_completed: 'true',
      });
    });
  });

  it('says that nothing matches a search with no match, not that no goal is defined', async () => {
    setup([], [], {
      'GET /api/strategic-goals': (call) => ({ body: call.search.get('search') ? [] : [makeGoal()] }),
    });
    expect(await screen.findByText('Grow revenue')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Search goals'), 'zzz');
    expect(await screen.findByText('No strategic goals match the current filters.')).toBeInTheDocument();
    expect(screen.queryByText('No strategic goals defined yet.')).not.toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText('Search goals'));
    expect(await screen.findByText('Grow revenue')).toBeInTheDocument();
  });

  it('shows each goal with its status label (underscores as spaces) coloured by status, and its progress', async () => {
    setup([
      makeGoal({
        id: 'g1',
        title: 'Grow revenue',
        status: 'in_progress',
        kpis: [
          {
            id: 'k1',
            name: 'ARR',
            current_value: 75,
            target_value: 100,
            unit: 'k€',
            last_checkin_date: null,
            stale: false,
            trend: [],
          },
          {
            id: 'k2',
            name: 'Logos',
            current_value: 5,
            target_value: null,
            unit: null,
            last_checkin_date: null,
            stale: false,
            trend: [],
          },
        ],
      }),
      makeGoal({ id: 'g2', title: 'Launch app', status: 'new' }),
      makeGoal({ id: 'g3', title: 'Hire CFO', status: 'done' }),
      makeGoal({ id: 'g4', title: 'Win tender', status: 'failed' }),
    ]);
    const card = await screen.findByRole('article', { name: 'Grow revenue' });
    const label = within(card).getByText('in progress');
    expect(label).toHaveAttribute('data-color', 'yellow');
    expect(within(card).getByRole('progressbar', { name: 'Progress of Grow revenue' })).toHaveAttribute(
      'aria-valuenow',
      '38',
    );
    expect(within(card).getByRole('progressbar', { name: 'Progress of KPI ARR' })).toHaveAttribute(
      'aria-valuenow',
      '75',
    );
    expect(within(card).getByText('Double ARR')).toBeInTheDocument();
    expect(within(card).getByText('Northwind Ventures')).toBeInTheDocument();
    expect(within(screen.getByRole('article', { name: 'Launch app' })).getByText('new')).toHaveAttribute(
      'data-color',
      'blue',
    );
    expect(within(screen.getByRole('article', { name: 'Hire CFO' })).getByText('done')).toHaveAttribute(
      'data-color',
      'green',
    );
    expect(within(screen.getByRole('article', { name: 'Win tender' })).getByText('failed')).toHaveAttribute(
      'data-color',
      'red',
    );
  });

  it('shows the API’s figures: progress by direction, expected progress, and why a goal is at risk', async () => {
    setup([
      makeGoal({
        id: 'g1',
        title: 'Keep churn low',
        expected_progress: 40,
        kpis: [
          {
            id: 'k1',
            name: 'Monthly churn',
            current_value: 3,
            target_value: 5,
            unit: '%',
            direction: 'lower_is_better',
            last_checkin_date: null,
            stale: false,
            trend: [],
          },
        ],
      }),
      makeGoal({
        id: 'g2',
        title: 'Grow ARR',
        progress: 20,
        expected_progress: 67,
        risk: {
          at_risk: true,
          reasons: [
            '20% done, 67% expected by today',
            'KPI “ARR” is forecast at 2.5 $M by the due date, short of its target of 10 $M',
          ],
        },
      }),
    ]);
    const churn = await screen.findByRole('article', { name: 'Keep churn low' });
    // 3 % against a ceiling of 5 %: met.
    expect(within(churn).getByRole('progressbar', { name: 'Progress of KPI Monthly churn' })).toHaveAttribute(
      'aria-valuenow',
      '100',
    );
    expect(within(churn).getByText('(lower is better)')).toBeInTheDocument();
    expect(within(churn).getByText(/40% expected by today/)).toBeInTheDocument();
    expect(within(churn).queryByText('At risk')).not.toBeInTheDocument();
    const arr = screen.getByRole('article', { name: 'Grow ARR' });
    expect(within(arr).getByText('At risk')).toBeInTheDocument();
    expect(
      within(within(arr).getByRole('list', { name: 'Why Grow ARR is at risk' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      '20% done, 67% expected by today',
      'KPI “ARR” is forecast at 2.5 $M by the due date, short of its target of 10 $M',
    ]);
    expect(within(arr).getByRole('progressbar', { name: 'Progress of Grow ARR' })).toHaveAttribute(
      'aria-valuenow',
      '20',
    );
  });

  it("shows each KPI's trend and stale mark on the card; the dialog adds the goal's open and recently done tasks", async () => {
    const task = (id: string, title: string, status: string) => ({ id, title, status, due_date: null });
    const { callsTo } = setup(
      [
        makeGoal({
          kpis: [
            {
              id: 'k1',
              name: 'ARR',
              current_value: 40,
              target_value: 100,
              unit: null,
              last_checkin_date: '2026-11-20',
              stale: false,
              trend: [
                { date: '2026-11-13', value: 20 },
                { date: '2026-11-20', value: 40 },
              ],
            },
            {
              id: 'k2',
              name: 'NPS',
              current_value: 30,
              target_value: 50,
              unit: null,
              last_checkin_date: '2026-10-01',
              stale: true,
              trend: [{ date: '2026-10-01', value: 30 }],
            },
          ],
        }),
      ],
      [],
      {
        'GET /api/strategic-goals/goal-1/tasks': {
          body: {
            open: [task('t1', 'Call the bank', 'To Do')],
            done: [task('t2', 'Sign the lease', 'Done')],
          },
        },
      },
    );
    const card = await screen.findByRole('article', { name: 'Grow revenue' });
    const arr = within(card).getByRole('figure', { name: 'Trend of ARR' });
    await waitFor(() => expect(arr.querySelectorAll('.kpi-trend-dot')).toHaveLength(2));
    expect(within(card).getAllByText('Stale')).toHaveLength(1);
    expect(within(card).getByText('NPS: no check-in for 14 days')).toBeInTheDocument();
    expect(callsTo('GET', '/api/strategic-goals/goal-1/tasks')).toHaveLength(0); // only the dialog reads them

    await userEvent.click(within(card).getByRole('button', { name: 'Edit Grow revenue' }));
    const dialog = await screen.findByRole('dialog');
    const tasks = within(dialog).getByRole('region', { name: 'Tasks of this goal' });
    expect(await within(tasks).findByRole('link', { name: 'Call the bank' })).toBeInTheDocument();
    expect(within(tasks).getByRole('link', { name: 'Sign the lease' })).toBeInTheDocument();
    expect(within(dialog).getByRole('figure', { name: 'Trend of ARR' })).toHaveAttribute('data-points', '2');
  });

  it('records a check-in from the card (value required, date blank means today); read-only goals offer none', async () => {
    const kpi = {
      id: 'k1',
      name: 'ARR',
      current_value: 40,
      target_value: 100,
      unit: null,
      last_checkin_date: '2026-11-20',
      stale: false,
      trend: [{ date: '2026-11-20', value: 40 }],
    };
    const { callsTo } = setup(
      [
        makeGoal({ kpis: [kpi] }),
        makeGoal({ id: 'goal-2', title: 'Read only', can_edit: false, can_delete: false, kpis: [kpi] }),
      ],
      [],
      {
        'POST /api/strategic-goals/goal-1/kpis/k1/checkins': {
          status: 201,
          body: {
            id: 'c1',
            kpi_id: 'k1',
            value: 55,
            date: '2026-11-24',
            note: 'Closed Acme',
            user_id: 'u',
            created_at: '',
          },
        },
      },
    );
    const card = await screen.findByRole('article', { name: 'Grow revenue' });
    const readOnly = screen.getByRole('article', { name: 'Read only' });
    expect(within(readOnly).queryByRole('button', { name: 'Check in ARR' })).not.toBeInTheDocument();

    await userEvent.click(within(card).getByRole('button', { name: 'Check in ARR' }));
    const dialog = await screen.findByRole('dialog', { name: 'Check in ARR' });
    const value = within(dialog).getByLabelText('Value');
    expect(value).toHaveValue('40');
    await userEvent.clear(value);
    await userEvent.type(value, 'lots');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save check-in' }));
    expect(await within(dialog).findByText('Enter the value as a number.')).toBeInTheDocument();
    expect(callsTo('POST', '/api/strategic-goals/goal-1/kpis/k1/checkins')).toHaveLength(0);

    await userEvent.clear(value);
    await userEvent.type(value, '55');
    await userEvent.type(within(dialog).getByLabelText('Note'), 'Closed Acme');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save check-in' }));
    await waitFor(() =>
      expect(callsTo('POST', '/api/strategic-goals/goal-1/kpis/k1/checkins')).toHaveLength(1),
    );
    expect(callsTo('POST', '/api/strategic-goals/goal-1/kpis/k1/checkins')[0].body).toEqual({
      value: 55,
      note: 'Closed Acme',
    });
    expect(await screen.findByText('Check-in saved')).toBeInTheDocument();
  });

  it('requires title and due date, then creates the goal with its KPIs', async () => {
    const { callsTo } = setup([], [], {
      'POST /api/strategic-goals': { status: 201, body: makeGoal() },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'New goal' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByLabelText('Status')).toHaveValue('new');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save goal' }));
    expect(await within(dialog).findByText('Title and Due Date are required.')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Title'), 'Grow revenue');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save goal' }));
    expect(within(dialog).getByText('Title and Due Date are required.')).toBeInTheDocument();
    expect(callsTo('POST', '/api/strategic-goals')).toHaveLength(0);

    await userEvent.type(within(dialog).getByLabelText('Due date'), '2026-12-31');
    // Fixed: the message goes before the next Save.
    expect(within(dialog).queryByText('Title and Due Date are required.')).not.toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add KPI' }));
    await userEvent.type(within(dialog).getByLabelText('KPI 1 name'), 'ARR');
    await userEvent.type(within(dialog).getByLabelText('Current value of KPI 1'), '50');
    await userEvent.type(within(dialog).getByLabelText('Target value of KPI 1'), '100');
    // Direction: offered per KPI, higher is better unless chosen.
    expect(within(dialog).getByLabelText('Direction of KPI 1')).toHaveValue('higher_is_better');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add KPI' }));
    await userEvent.type(within(dialog).getByLabelText('KPI 2 name'), 'Churn');
    await userEvent.type(within(dialog).getByLabelText('Current value of KPI 2'), '3');
    await userEvent.type(within(dialog).getByLabelText('Target value of KPI 2'), '5');
    await userEvent.selectOptions(within(dialog).getByLabelText('Direction of KPI 2'), 'Lower is better');
    // A start after the due date is refused before the round trip (the server refuses it too).
    await userEvent.type(within(dialog).getByLabelText('Start date'), '2027-01-05');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save goal' }));
    expect(
      await within(dialog).findByText('Start date must be on or before the due date.'),
    ).toBeInTheDocument();
    expect(callsTo('POST', '/api/strategic-goals')).toHaveLength(0);
    await userEvent.clear(within(dialog).getByLabelText('Start date'));
    await userEvent.type(within(dialog).getByLabelText('Start date'), '2026-10-01');
    await userEvent.selectOptions(within(dialog).getByLabelText('Organization'), 'org-2');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save goal' }));
    await waitFor(() => expect(callsTo('POST', '/api/strategic-goals')).toHaveLength(1));
    expect(callsTo('POST', '/api/strategic-goals')[0].body).toEqual({
      title: 'Grow revenue',
      description: null,
      start_date: '2026-10-01',
      due_date: '2026-12-31',
      status: 'new',
      organization_id: 'org-2',
      kpis: [
        { name: 'ARR', current_value: '50', target_value: '100', unit: null, direction: 'higher_is_better' },
        { name: 'Churn', current_value: '3', target_value: '5', unit: null, direction: 'lower_is_better' },
      ],
    });
    expect(await screen.findByText('Goal saved')).toBeInTheDocument();
  });

  it('deletes a goal after confirmation', async () => {
    const { callsTo } = setup([makeGoal()], [], {
      'DELETE /api/strategic-goals/goal-1': { status: 204 },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Grow revenue' }));
    const confirm = await screen.findByRole('alertdialog');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete goal' }));
    await waitFor(() => expect(callsTo('DELETE', '/api/strategic-goals/goal-1')).toHaveLength(1));
    expect(await screen.findByText('Goal deleted')).toBeInTheDocument();
  });
});

describe('Strategy Center: advice', () => {
  it('previews content at 80 px with Show More / Show Less', async () => {
    setup([], [makeAdvice()]);
    const item = await screen.findByRole('article', { name: 'Focus on retention' });
    const preview = within(item).getByTestId('advice-preview');
    expect(preview).toHaveStyle({ maxHeight: '80px' });
    await userEvent.click(within(item).getByRole('button', { name: 'Show More' }));
    expect(preview).not.toHaveStyle({ maxHeight: '80px' });
    await userEvent.click(within(item).getByRole('button', { name: 'Show Less' }));
    expect(preview).toHaveStyle({ maxHeight: '80px' });
  });

  it('generated advice shows the records it used as chips, or says it used none; hand-written advice neither', async () => {
    setup(
      [],
      [
        makeAdvice({
          crew_run_id: 'run-1',
          citations: [
            { type: 'goal', id: 'goal-1', title: 'Grow revenue', url: '/app/strategy?goal=goal-1' },
          ],
        }),
        makeAdvice({ id: 'adv-2', advice_title: 'Nothing to go on', crew_run_id: 'run-2', citations: [] }),
        makeAdvice({ id: 'adv-3', advice_title: 'By hand' }),
      ],
    );
    const cited = await screen.findByRole('article', { name: 'Focus on retention' });
    expect(within(cited).getByRole('link', { name: 'Goal: Grow revenue' })).toHaveAttribute(
      'href',
      '/app/strategy?goal=goal-1',
    );
    const none = screen.getByRole('article', { name: 'Nothing to go on' });
    expect(within(none).getByText('No workspace record used')).toBeInTheDocument();
    const byHand = screen.getByRole('article', { name: 'By hand' });
    expect(within(byHand).queryByText('No workspace record used')).not.toBeInTheDocument();
    expect(within(byHand).queryByRole('list', { name: 'Sources' })).not.toBeInTheDocument();
  });

  it('toasts "Content required" and sends nothing for blank content; saves feedback', async () => {
    const advice = makeAdvice();
    const { callsTo } = setup([], [advice], {
      'PATCH /api/strategic-advice/adv-1/feedback': { body: { ...advice, feedback: 'Useful' } },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'New advice' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Content (markdown)'), '   ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save advice' }));
    expect(await screen.findByText('Content required')).toBeInTheDocument();
    expect(callsTo('POST', '/api/strategic-advice')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    const item = screen.getByRole('article', { name: 'Focus on retention' });
    await userEvent.type(within(item).getByLabelText('Feedback'), 'Useful');
    await userEvent.click(within(item).getByRole('button', { name: 'Save feedback' }));
    expect(await screen.findByText('Feedback saved')).toBeInTheDocument();
    expect(callsTo('PATCH', '/api/strategic-advice/adv-1/feedback')[0].body).toEqual({ feedback: 'Useful' });
  });

  it('edits and deletes advice (toasts "Advice saved", "Advice deleted")', async () => {
    const advice = makeAdvice();
    const { callsTo } = setup([], [advice], {
      'PUT /api/strategic-advice/adv-1': { body: advice },
      'DELETE /api/strategic-advice/adv-1': { status: 204 },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Focus on retention' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.clear(within(dialog).getByLabelText('Advice title'));
    await userEvent.type(within(dialog).getByLabelText('Advice title'), 'Retention first');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save advice' }));
    expect(await screen.findByText('Advice saved')).toBeInTheDocument();
    expect(callsTo('PUT', '/api/strategic-advice/adv-1')[0].body).toMatchObject({
      advice_title: 'Retention first',
    });

    await userEvent.click(screen.getByRole('button', { name: 'Delete Focus on retention' }));
    const confirm = await screen.findByRole('alertdialog');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete advice' }));
    expect(await screen.findByText('Advice deleted')).toBeInTheDocument();
  });
});
