import type { TAdvice, TGoal } from '@cc/contract';
import userEvent from '@testing-library/user-event';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeGoalFixture, makeOrg, makeUser } from '../../test/fixtures';
import { type Handler, mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';

const goal: TGoal = makeGoalFixture({
  id: 'goal-7',
  user_id: 'user-ceo',
  title: 'Open Berlin office',
  description: null,
  due_date: '2026-12-31',
  status: 'in_progress',
  organization_id: null,
  organization_name: null,
  kpis: [
    {
      id: 'kpi-7',
      name: 'Hires in Berlin',
      current_value: 2,
      target_value: 10,
      unit: null,
      last_checkin_date: null,
      stale: false,
      trend: [],
    },
  ],
  progress: 20,
  can_edit: true,
  can_delete: true,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
});

const advice = (id: string, title: string): TAdvice => ({
  id,
  advice_title: title,
  content: 'Hire locally first.',
  feedback: null,
  crew_run_id: null,
  citations: [],
  user_id: 'user-ceo',
  organization_id: null,
  can_edit: true,
  created_at: '2026-02-01T00:00:00.000Z',
  updated_at: '2026-02-01T00:00:00.000Z',
});

function open(path: string, extra: Record<string, Handler> = {}, list: TAdvice[] = []) {
  mockApi({
    'GET /api/users/me': { body: makeUser({ id: 'user-ceo', user_level: 'ceo' }) },
    'GET /api/strategic-goals': { body: [] },
    'GET /api/strategic-advice': { body: list },
    'GET /api/organizations': { body: [makeOrg()] },
    'GET /api/strategic-goals/goal-7/tasks': { body: { open: [], done: [] } },
    ...extra,
  });
  return renderApp({ path, token: 'tok' });
}

describe('Strategy Center: citation links', () => {
  it('?goal=<id> opens that goal to read; Edit opens its dialog', async () => {
    const { router } = open('/app/strategy?goal=goal-7', {
      'GET /api/strategic-goals/goal-7': { body: goal },
    });
    const read = await screen.findByRole('dialog', { name: 'Open Berlin office' });
    expect(within(read).queryAllByRole('textbox')).toHaveLength(0);
    expect(within(read).getByText('Due date')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await userEvent.click(within(read).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit goal' });
    expect(within(dialog).getByLabelText('Title')).toHaveValue('Open Berlin office');
  });

  it('a goal the reader may not edit opens to read without an Edit button', async () => {
    open('/app/strategy?goal=goal-7', {
      'GET /api/strategic-goals/goal-7': { body: { ...goal, can_edit: false } },
    });
    const read = await screen.findByRole('dialog', { name: 'Open Berlin office' });
    expect(within(read).queryByRole('button', { name: 'Edit' })).toBeNull();
  });

  it('?kpi=<id> opens the goal the KPI belongs to', async () => {
    open('/app/strategy?kpi=kpi-7', {
      'GET /api/strategic-goals': (call) =>
        call.search.get('include_completed') === 'true' ? { body: [goal] } : { body: [] },
    });
    expect(await screen.findByRole('dialog', { name: 'Open Berlin office' })).toBeInTheDocument();
  });

  it('?advice=<id> marks that advice item in the list, even when it is not on the loaded page', async () => {
    open(
      '/app/strategy?advice=adv-old',
      { 'GET /api/strategic-advice/adv-old': { body: advice('adv-old', 'Berlin hiring plan') } },
      [advice('adv-new', 'Newer advice')],
    );
    const item = await screen.findByRole('article', { name: 'Berlin hiring plan' });
    await waitFor(() => expect(item).toHaveAttribute('aria-current', 'true'));
    expect(screen.getByRole('article', { name: 'Newer advice' })).not.toHaveAttribute('aria-current');
  });

  it('a goal of another organization (404) shows "This record is not available" and no dialog', async () => {
    open('/app/strategy?goal=goal-x', {
      'GET /api/strategic-goals/goal-x': { status: 404, body: { detail: 'Goal not found' } },
    });
    expect(await screen.findByText('This record is not available')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('a KPI no visible goal has shows "This record is not available"', async () => {
    open('/app/strategy?kpi=kpi-x');
    expect(await screen.findByText('This record is not available')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
