import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';

afterEach(() => window.history.replaceState(null, '', '/'));

describe('an e-mailed invitation link', () => {
  it('keeps the secret through the sign-in and accepts it once signed in', async () => {
    window.history.replaceState(null, '', '/invitation#token=invite-secret');
    const { callsTo } = mockApi({
      'GET /api/users/me': { body: makeUser({ user_level: 'user' }) },
      'POST /api/users/me/invitations/claim': {
        body: { organization_id: 'org-1', organization_name: 'Victim B' },
      },
    });
    const { router } = renderApp({ path: '/invitation', token: 'tok' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/invitation'));
    expect(await screen.findByText('You are now a member of Victim B.')).toBeInTheDocument();
    expect(callsTo('POST', '/api/users/me/invitations/claim').map((c) => c.body)).toEqual([
      { token: 'invite-secret' },
    ]);
    expect(window.location.hash).toBe('');
    expect(sessionStorage.length).toBe(0);
  });

  it('a signed-out visitor is sent to the login page first', async () => {
    window.history.replaceState(null, '', '/invitation#token=invite-secret');
    mockApi({});
    const { router } = renderApp({ path: '/invitation' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toContain('redirect');
    expect(sessionStorage.getItem('cc.invitationSecret')).toBe('invite-secret');
    sessionStorage.clear();
  });
});
