import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';

const CONSEQUENCE =
  'Every device, this one included, is signed out and all your API keys are revoked: tools using them stop working at once.';

describe('Sign out everywhere on the Profile page', () => {
  it('says what it does, asks first, then ends the sessions and keys and signs this browser out', async () => {
    const api = mockApi({
      'GET /api/users/me': { body: makeUser() },
      'GET /api/users/me/api-keys': { body: [] },
      'POST /api/auth/logout-everywhere': { status: 204 },
      'POST /api/auth/logout': {
        status: 401,
        body: { detail: 'Your session has expired. Please log in again.' },
      },
    });
    renderApp({ path: '/app/profile', token: 'tok' });
    expect(await screen.findByText(CONSEQUENCE)).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Sign out everywhere' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText(CONSEQUENCE)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/auth/logout-everywhere')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Sign out and revoke keys' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/auth/logout-everywhere')).toHaveLength(1));
    await waitFor(() => expect(window.localStorage.getItem('authToken')).toBeNull());
  });
});
