import type { TInvitation } from '@cc/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeOrg, makeUser } from '../../test/fixtures';
import { type Handler, mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';

const invitation = (over: Partial<TInvitation> = {}): TInvitation => ({
  id: 'inv-1',
  organization_id: 'org-b',
  organization_name: 'Tenant B',
  org_access_level: 'manager',
  invited_by_name: 'Bea Boss',
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-20T10:00:00.000Z',
  ...over,
});

function setup(invitations: TInvitation[], extra: Record<string, Handler> = {}) {
  let orgs = [makeOrg({ id: 'org-a', name: 'Tenant A' })];
  let pending = invitations;
  const api = mockApi({
    'GET /api/users/me': { body: makeUser({ user_level: 'user' }) },
    'GET /api/organizations': () => ({ body: orgs }),
    'GET /api/organizations/org-a/users': { body: [] },
    'GET /api/organizations/org-b/users': { body: [] },
    'GET /api/users/me/invitations': () => ({ body: pending }),
    'POST /api/users/me/invitations/inv-1/accept': () => {
      pending = [];
      orgs = [...orgs, makeOrg({ id: 'org-b', name: 'Tenant B', my_access_level: 'manager' })];
      return { status: 204 };
    },
    'POST /api/users/me/invitations/inv-1/decline': () => {
      pending = [];
      return { status: 204 };
    },
    ...extra,
  });
  renderApp({ path: '/app/organization', token: 'tok' });
  return api;
}

describe('organization page: Invitations panel', () => {
  it('lists pending invitations with organization, level, inviter and date', async () => {
    setup([invitation()]);
    const panel = await screen.findByRole('region', { name: 'Invitations' });
    const item = within(panel).getByRole('listitem', { name: 'Invitation to Tenant B' });
    expect(within(item).getByText('Tenant B')).toBeInTheDocument();
    expect(within(item).getByText(/As Manager · invited by Bea Boss/)).toBeInTheDocument();
    expect(within(item).getByRole('button', { name: 'Accept' })).toBeInTheDocument();
    expect(within(item).getByRole('button', { name: 'Decline' })).toBeInTheDocument();
  });

  it('is not shown without pending invitations', async () => {
    setup([]);
    expect(await screen.findByRole('navigation', { name: 'Organizations' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Invitations' })).not.toBeInTheDocument();
  });

  it('accepting says so, and the organizations list refreshes with the new one', async () => {
    const { callsTo } = setup([invitation()]);
    const panel = await screen.findByRole('region', { name: 'Invitations' });
    const nav = await screen.findByRole('navigation', { name: 'Organizations' });
    expect(within(nav).queryByText('Tenant B')).not.toBeInTheDocument();
    await userEvent.click(within(panel).getByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(callsTo('POST', '/api/users/me/invitations/inv-1/accept')).toHaveLength(1));
    expect(await screen.findByText('Invitation Accepted')).toBeInTheDocument();
    expect(await within(nav).findByText('Tenant B')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Invitations' })).not.toBeInTheDocument(),
    );
  });

  it('declining says so and removes the invitation; the organizations stay as they were', async () => {
    const { callsTo } = setup([invitation()]);
    const panel = await screen.findByRole('region', { name: 'Invitations' });
    await userEvent.click(within(panel).getByRole('button', { name: 'Decline' }));
    await waitFor(() => expect(callsTo('POST', '/api/users/me/invitations/inv-1/decline')).toHaveLength(1));
    expect(await screen.findByText('Invitation Declined')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Invitations' })).not.toBeInTheDocument(),
    );
    expect(callsTo('POST', '/api/users/me/invitations/inv-1/accept')).toHaveLength(0);
    const nav = screen.getByRole('navigation', { name: 'Organizations' });
    expect(within(nav).queryByText('Tenant B')).not.toBeInTheDocument();
  });

  it("shows the server's message when accepting fails", async () => {
    setup([invitation()], {
      'POST /api/users/me/invitations/inv-1/accept': {
        status: 409,
        body: { detail: 'This invitation has already been answered.' },
      },
    });
    const panel = await screen.findByRole('region', { name: 'Invitations' });
    await userEvent.click(within(panel).getByRole('button', { name: 'Accept' }));
    expect(await screen.findByText('This invitation has already been answered.')).toBeInTheDocument();
  });
});
