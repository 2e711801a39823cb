import type { TConnection } from '@cc/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';

const MAIL: TConnection = {
  id: 'c1',
  kind: 'imap',
  name: 'Work mail',
  url: null,
  host: 'imap.fastmail.com',
  port: 993,
  tls: true,
  username: 'exec@corp.example',
  has_password: true,
  mail_days: 30,
  status: 'error',
  last_synced_at: '2026-11-28T09:00:00Z',
  last_error: 'imap.fastmail.com refused the user name or password.',
  created_at: '2026-11-20T10:00:00Z',
  updated_at: '2026-11-28T09:00:00Z',
};

describe('Profile → Connections', () => {
  it('lists connections with status and last error; Test, Sync now and Disconnect (after confirming) call the API', async () => {
    let listed = [MAIL];
    const api = mockApi({
      'GET /api/users/me': { body: makeUser() },
      'GET /api/connections/': () => ({ body: listed }),
      'POST /api/connections/c1/test': {
        body: { ok: true, detail: 'Signed in to imap.fastmail.com.' },
      },
      'POST /api/connections/c1/sync': { status: 202, body: MAIL },
      'DELETE /api/connections/c1': () => {
        listed = [];
        return { status: 204 };
      },
    });
    renderApp({ path: '/app/profile?tab=connections', token: 'tok' });
    const list = await screen.findByRole('list', { name: 'Your connections' });
    const row = within(list).getByRole('listitem', { name: 'Work mail' });
    expect(within(row).getByText('Error')).toBeInTheDocument();
    expect(
      within(row).getByText(/Mail \(IMAP, read-only\) · imap\.fastmail\.com · exec@corp\.example/),
    ).toBeInTheDocument();
    expect(within(row).getByText('imap.fastmail.com refused the user name or password.')).toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(within(row).getByRole('button', { name: 'Test' }));
    expect(await within(row).findByText('Signed in to imap.fastmail.com.')).toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: 'Sync now' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/connections/c1/sync')).toHaveLength(1));

    await user.click(within(row).getByRole('button', { name: 'Disconnect' }));
    expect(api.callsTo('DELETE', '/api/connections/c1')).toHaveLength(0);
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText(/everything imported from it will be deleted/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Disconnect' }));
    await waitFor(() => expect(api.callsTo('DELETE', '/api/connections/c1')).toHaveLength(1));
    expect(await screen.findByText('No connections yet.')).toBeInTheDocument();
  });

  it('adds a mailbox with only the fields its kind needs', async () => {
    const api = mockApi({
      'GET /api/users/me': { body: makeUser() },
      'GET /api/connections/': { body: [] },
      'POST /api/connections/': { status: 201, body: { ...MAIL, status: 'never_synced', last_error: null } },
    });
    renderApp({ path: '/app/profile?tab=connections', token: 'tok' });
    const user = userEvent.setup();
    const form = await screen.findByRole('form', { name: 'Add a connection' });
    await user.selectOptions(within(form).getByLabelText('Kind'), 'imap');
    expect(within(form).queryByLabelText('CalDAV address')).not.toBeInTheDocument();
    await user.type(within(form).getByLabelText('Name'), 'Work mail');
    await user.click(within(form).getByRole('button', { name: 'Connect' }));
    expect(await within(form).findByText('Enter the user name and password')).toBeInTheDocument();
    await user.type(within(form).getByLabelText('Mail server'), 'imap.fastmail.com');
    await user.type(within(form).getByLabelText('User name'), 'exec@corp.example');
    await user.type(within(form).getByLabelText('Password'), 'app-password');
    await user.click(within(form).getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/connections/')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/connections/')[0].body).toEqual({
      kind: 'imap',
      name: 'Work mail',
      host: 'imap.fastmail.com',
      port: 993,
      tls: true,
      username: 'exec@corp.example',
      password: 'app-password',
      mail_days: 30,
    });
  });
});
