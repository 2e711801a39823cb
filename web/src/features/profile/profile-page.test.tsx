import type { TUser } from '@cc/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';

function setup(user: TUser, patch?: Parameters<typeof mockApi>[0][string]) {
  const api = mockApi({
    'GET /api/users/me': { body: user },
    'PATCH /api/users/me':
      patch ?? ((call) => ({ body: { ...user, profile: { ...user.profile, ...(call.body as object) } } })),
  });
  renderApp({ path: '/app/profile', token: 'tok' });
  return api;
}

describe('profile form', () => {
  it('keeps Save disabled until something changes, then sends only the changed fields', async () => {
    const user = makeUser({
      email: 'maya@demo.example',
      profile: { role: 'Head of Growth', objectives: ['Grow revenue'] },
    });
    const { callsTo } = setup(user);
    const save = await screen.findByRole('button', { name: 'Save profile' });
    expect(save).toBeDisabled();

    const email = screen.getByLabelText('Email');
    expect(email).toHaveValue('maya@demo.example');
    expect(email).toHaveAttribute('readonly');

    await userEvent.clear(screen.getByLabelText('Role'));
    await userEvent.type(screen.getByLabelText('Role'), 'COO');
    await userEvent.type(screen.getByLabelText('Objectives'), '\n  Hire a CFO  \n\n');
    expect(save).toBeEnabled();
    await userEvent.click(save);

    expect(await screen.findByText('Profile Updated')).toBeInTheDocument();
    const [call] = callsTo('PATCH', '/api/users/me');
    expect(call.body).toEqual({ role: 'COO', objectives: ['Grow revenue', 'Hire a CFO'] });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save profile' })).toBeDisabled());
  });

  it('hides custom prompts from non-admins and never sends them', async () => {
    const { callsTo } = setup(makeUser({ user_level: 'ceo' }));
    await screen.findByRole('button', { name: 'Save profile' });
    expect(screen.queryByLabelText('Custom prompts (JSON)')).not.toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Behavior notes'), 'Prefers short briefs');
    await userEvent.click(screen.getByRole('button', { name: 'Save profile' }));
    await screen.findByText('Profile Updated');
    expect(callsTo('PATCH', '/api/users/me')[0].body).toEqual({ behavior_notes: 'Prefers short briefs' });
  });

  it('lets admins edit custom prompts as JSON (invalid JSON becomes {})', async () => {
    const admin = makeUser({ user_level: 'admin', profile: { custom_prompts: { tone: 'formal' } } });
    const { callsTo } = setup(admin);
    const prompts = await screen.findByLabelText('Custom prompts (JSON)');
    expect(prompts).toHaveValue(JSON.stringify({ tone: 'formal' }, null, 2));
    await userEvent.clear(prompts);
    await userEvent.type(prompts, 'not json');
    expect(screen.getByText(/it will be saved as/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save profile' }));
    await screen.findByText('Profile Updated');
    expect(callsTo('PATCH', '/api/users/me')[0].body).toEqual({ custom_prompts: {} });
  });

  it('shows "Update Failed" when the server refuses', async () => {
    setup(makeUser(), {
      status: 422,
      body: { detail: [{ loc: ['body', 'role'], msg: 'Too long', type: 'too_big' }] },
    });
    await userEvent.type(await screen.findByLabelText('Role'), 'x');
    await userEvent.click(screen.getByRole('button', { name: 'Save profile' }));
    expect(await screen.findByText('Update Failed')).toBeInTheDocument();
    expect(screen.getByText('Could not update profile.')).toBeInTheDocument();
  });
});

describe('password form', () => {
  it('validates: required, at least 8 characters, and warns "No password entered"', async () => {
    const { callsTo } = setup(makeUser());
    const save = await screen.findByRole('button', { name: 'Update password' });
    expect(save).toBeDisabled();

    await userEvent.type(screen.getByLabelText('Current password'), 'old-password');
    await userEvent.click(save);
    expect(await screen.findByText('Password is required')).toBeInTheDocument();
    expect(await screen.findByText('No password entered')).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('New password'), 'short');
    // The field's message follows the field: "required" goes as soon as something is typed.
    expect(screen.queryByText('Password is required')).not.toBeInTheDocument();
    await userEvent.click(save);
    expect(await screen.findByText('Password must be at least 8 characters')).toBeInTheDocument();
    expect(callsTo('PATCH', '/api/users/me')).toHaveLength(0);
  });

  it('shows the current-password lockout (429) in the password form and stays signed in', async () => {
    const detail = 'Too many wrong current passwords. Please try again in 15 minutes.';
    setup(makeUser(), { status: 429, body: { detail } });
    await userEvent.type(await screen.findByLabelText('Current password'), 'right-one');
    await userEvent.type(screen.getByLabelText('New password'), 'brand-new-pass');
    await userEvent.click(screen.getByRole('button', { name: 'Update password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(detail);
    expect(localStorage.getItem('authToken')).toBe('tok');
    expect(screen.queryByText('Session Expired')).toBeNull();
  });

  it('sends the new and the current password, and shows the server detail on failure', async () => {
    const user = makeUser();
    let attempt = 0;
    const { callsTo } = setup(user, () => {
      attempt += 1;
      return attempt === 1
        ? { status: 400, body: { detail: 'Current password is incorrect.' } }
        : { body: user };
    });
    await userEvent.type(await screen.findByLabelText('Current password'), 'wrong-one');
    await userEvent.type(screen.getByLabelText('New password'), 'brand-new-pass');
    await userEvent.click(screen.getByRole('button', { name: 'Update password' }));
    expect(await screen.findByText('Could not update password. Please try again.')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Current password is incorrect.');
    expect(callsTo('PATCH', '/api/users/me')[0].body).toEqual({
      password: 'brand-new-pass',
      current_password: 'wrong-one',
    });

    await userEvent.clear(screen.getByLabelText('Current password'));
    expect(screen.queryByText('Current password is incorrect.')).not.toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Current password'), 'right-one');
    await userEvent.click(screen.getByRole('button', { name: 'Update password' }));
    expect(await screen.findByText('Password Updated')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('New password')).toHaveValue(''));
  });
});
