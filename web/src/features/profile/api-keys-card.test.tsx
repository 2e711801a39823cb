import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';

const KEY = {
  id: 'k1',
  name: 'Desktop assistant',
  prefix: 'cck_0123456789ab',
  scopes: ['read:tasks'],
  created_at: '2026-11-20T10:00:00Z',
  last_used_at: null,
  expires_at: null,
};

describe('API keys on the Profile page', () => {
  it('creates a key with the chosen scopes and shows its secret once', async () => {
    let listed = [KEY];
    const api = mockApi({
      'GET /api/users/me': { body: makeUser() },
      'GET /api/users/me/api-keys': () => ({ body: listed }),
      'POST /api/users/me/api-keys': (call) => {
        const created = { ...KEY, id: 'k2', name: 'CLI', scopes: (call.body as { scopes: string[] }).scopes };
        listed = [created, KEY];
        return { status: 201, body: { ...created, secret: 'cck_0123456789ab_SECRETSECRETSECRETSECRET' } };
      },
    });
    renderApp({ path: '/app/profile', token: 'tok' });
    const list = await screen.findByRole('list', { name: 'Your API keys' });
    expect(within(list).getByText('Desktop assistant')).toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Key name'), 'CLI');
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    expect(await screen.findByText('Choose at least one scope')).toBeInTheDocument();
    await user.click(screen.getByLabelText('read:tasks'));
    await user.click(screen.getByLabelText('write:notes'));
    await user.click(screen.getByRole('button', { name: 'Create key' }));

    expect(await screen.findByLabelText('New API key')).toHaveValue(
      'cck_0123456789ab_SECRETSECRETSECRETSECRET',
    );
    expect(api.callsTo('POST', '/api/users/me/api-keys')[0].body).toMatchObject({
      name: 'CLI',
      scopes: ['read:tasks', 'write:notes'],
      expires_at: null,
    });
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByLabelText('New API key')).not.toBeInTheDocument();
    await waitFor(() => expect(within(list).getByText('CLI')).toBeInTheDocument());
  });

  it('revokes a key after confirmation', async () => {
    let listed = [KEY];
    const api = mockApi({
      'GET /api/users/me': { body: makeUser() },
      'GET /api/users/me/api-keys': () => ({ body: listed }),
      'DELETE /api/users/me/api-keys/k1': () => {
        listed = [];
        return { status: 204 };
      },
    });
    renderApp({ path: '/app/profile', token: 'tok' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Revoke' }));
    await user.click(await screen.findByRole('button', { name: 'Revoke key' }));
    await waitFor(() => expect(api.callsTo('DELETE', '/api/users/me/api-keys/k1')).toHaveLength(1));
    expect(await screen.findByText('No API keys yet.')).toBeInTheDocument();
  });

  it('asks for the current password when the server wants it, and sends it', async () => {
    const api = mockApi({
      'GET /api/users/me': { body: makeUser() },
      'GET /api/users/me/api-keys': { body: [] },
      'POST /api/users/me/api-keys': (call) => {
        if (!(call.body as { current_password?: string }).current_password) {
          return {
            status: 422,
            body: {
              detail: [
                {
                  loc: ['body', 'current_password'],
                  msg: 'Enter your current password to create an API key (you signed in more than 10 minutes ago).',
                  type: 'password_required',
                },
              ],
            },
          };
        }
        return {
          status: 201,
          body: { ...KEY, id: 'k3', name: 'CLI', secret: 'cck_0123456789ab_NEWSECRETNEWSECRETNEW' },
        };
      },
    });
    renderApp({ path: '/app/profile', token: 'tok' });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Key name'), 'CLI');
    await user.click(screen.getByLabelText('read:tasks'));
    expect(
      screen.queryByLabelText('Current password', { selector: '#api-key-password' }),
    ).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    expect(
      await screen.findByText(
        'Enter your current password to create an API key (you signed in more than 10 minutes ago).',
      ),
    ).toBeInTheDocument();
    // Still signed in: a 422 is not a session problem.
    expect(window.localStorage.getItem('authToken')).toBe('tok');
    const field = screen.getByLabelText('Current password', { selector: '#api-key-password' });
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    expect(await screen.findByText('Enter your current password')).toBeInTheDocument();
    await user.type(field, 'correct-horse-9');
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    expect(await screen.findByLabelText('New API key')).toHaveValue('cck_0123456789ab_NEWSECRETNEWSECRETNEW');
    const calls = api.callsTo('POST', '/api/users/me/api-keys');
    expect(calls).toHaveLength(2);
    expect(calls[1].body).toMatchObject({ name: 'CLI', current_password: 'correct-horse-9' });
  });

  it('says before it happens that a password change and signing out everywhere revoke the keys', async () => {
    mockApi({
      'GET /api/users/me': { body: makeUser() },
      'GET /api/users/me/api-keys': { body: [] },
    });
    renderApp({ path: '/app/profile', token: 'tok' });
    expect(
      await screen.findByText(
        'Other devices are signed out and all your API keys are revoked when your password changes.',
      ),
    ).toBeInTheDocument();
    expect(
      screen.getByText(/Changing your password or signing out everywhere revokes all your keys\./),
    ).toBeInTheDocument();
  });

  it('shows the /mcp address of this origin and a client configuration to copy, with the new key filled in', async () => {
    mockApi({
      'GET /api/users/me': { body: makeUser() },
      'GET /api/users/me/api-keys': { body: [KEY] },
      'POST /api/users/me/api-keys': {
        status: 201,
        body: { ...KEY, id: 'k2', name: 'CLI', secret: 'cck_0123456789ab_SECRETSECRETSECRETSECRET' },
      },
    });
    renderApp({ path: '/app/profile', token: 'tok' });
    const address = `${window.location.origin}/mcp`;
    expect(await screen.findByLabelText('MCP address')).toHaveValue(address);
    const config = JSON.parse(
      (screen.getByLabelText('MCP client configuration') as HTMLTextAreaElement).value,
    );
    expect(config).toEqual({
      mcpServers: {
        'command-centre': { type: 'http', url: address, headers: { Authorization: 'Bearer <your API key>' } },
      },
    });

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Copy MCP client configuration' }));
    expect(JSON.parse(await navigator.clipboard.readText())).toEqual(config);
    await user.click(screen.getByRole('button', { name: 'Copy MCP address' }));
    expect(await navigator.clipboard.readText()).toBe(address);

    await user.type(screen.getByLabelText('Key name'), 'CLI');
    await user.click(screen.getByLabelText('read:tasks'));
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    await screen.findByLabelText('New API key');
    const filled = JSON.parse(
      (screen.getByLabelText('MCP client configuration') as HTMLTextAreaElement).value,
    );
    expect(filled.mcpServers['command-centre'].headers.Authorization).toBe(
      'Bearer cck_0123456789ab_SECRETSECRETSECRETSECRET',
    );
  });
});
