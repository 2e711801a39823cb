import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';
import { browserTimeZone } from './components/brief-schedule-form';

describe('brief schedule on the Profile page', () => {
  it('offers weekdays at 07:30 in the browser’s zone, off, and saves the schedule turned on', async () => {
    const user = makeUser({ user_level: 'ceo' });
    const { callsTo } = mockApi({
      'GET /api/users/me': { body: user },
      'PATCH /api/users/me': (call) => ({ body: { ...user, ...(call.body as object) } }),
    });
    renderApp({ path: '/app/profile', token: 'tok' });

    const on = await screen.findByRole('checkbox', { name: 'Send me a scheduled brief' });
    expect(on).not.toBeChecked();
    for (const day of ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'])
      expect(screen.getByRole('checkbox', { name: day })).toBeChecked();
    for (const day of ['Sat', 'Sun']) expect(screen.getByRole('checkbox', { name: day })).not.toBeChecked();
    expect(screen.getByLabelText('Time')).toHaveValue('07:30');
    expect(screen.getByLabelText('Time zone')).toHaveValue(browserTimeZone());

    await userEvent.click(on);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Sat' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save schedule' }));
    expect(await screen.findByText('Brief schedule saved')).toBeInTheDocument();
    expect(callsTo('PATCH', '/api/users/me')[0].body).toEqual({
      brief_schedule: {
        enabled: true,
        weekdays: [1, 2, 3, 4, 5, 6],
        time: '07:30',
        timezone: browserTimeZone(),
      },
    });
  });

  it('shows the saved schedule and refuses an unknown time zone or no day', async () => {
    const user = makeUser({
      user_level: 'ceo',
      brief_schedule: { enabled: true, weekdays: [1], time: '06:45', timezone: 'Europe/Berlin' },
    });
    const { callsTo } = mockApi({ 'GET /api/users/me': { body: user } });
    renderApp({ path: '/app/profile', token: 'tok' });

    expect(await screen.findByRole('checkbox', { name: 'Send me a scheduled brief' })).toBeChecked();
    expect(screen.getByLabelText('Time')).toHaveValue('06:45');
    const zone = screen.getByLabelText('Time zone');
    expect(zone).toHaveValue('Europe/Berlin');
    await userEvent.clear(zone);
    await userEvent.type(zone, 'Mars/Olympus');
    expect(screen.getByText('Unknown time zone')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save schedule' })).toBeDisabled();

    await userEvent.clear(zone);
    await userEvent.type(zone, 'UTC');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Mon' }));
    expect(screen.getByText('Pick at least one day')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save schedule' })).toBeDisabled());
    expect(callsTo('PATCH', '/api/users/me')).toHaveLength(0);
  });
});
