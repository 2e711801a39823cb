import type { TUser } from '@cc/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeOrg, makeUser } from '../../test/fixtures';
import { type Handler, mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';
import { canDeleteUser, filterUsers } from './components/user-rules';

const me = makeUser({
  id: 'u-admin',
  user_level: 'admin',
  first_name: 'Alex',
  last_name: 'Morgan',
  email: 'admin@x.co',
});
const ceo = makeUser({
  id: 'ceo',
  user_level: 'ceo',
  first_name: 'Olivia',
  last_name: 'Chen',
  email: 'ceo@x.co',
});
const otherAdmin = makeUser({
  id: 'adm2',
  user_level: 'admin',
  first_name: 'Sam',
  last_name: 'Ops',
  email: 'ops@x.co',
});
const maya = makeUser({
  id: 'maya',
  user_level: 'user',
  first_name: 'Maya',
  last_name: 'Patel',
  email: 'maya@x.co',
  organization_id: 'org-1',
  organization_name: 'Northwind Ventures',
});
const wait = makeUser({
  id: 'wait',
  user_level: 'waitlisted',
  first_name: 'Wendy',
  last_name: 'Wait',
  email: 'wendy@y.co',
  organization_id: null,
  organization_name: 'Contoso Labs',
});
const ALL = [me, ceo, otherAdmin, maya, wait];

function setup(users: TUser[] | Handler = ALL, extra: Record<string, Handler> = {}) {
  const api = mockApi({
    'GET /api/users/me': { body: me },
    'GET /api/users/': Array.isArray(users) ? { body: users } : users,
    'GET /api/organizations': { body: [makeOrg(), makeOrg({ id: 'org-2', name: 'Contoso Labs' })] },
    ...extra,
  });
  renderApp({ path: '/app/admin', token: 'tok' });
  return api;
}

const rowOf = (name: string) => screen.getByText(name, { selector: 'td' }).closest('tr') as HTMLElement;

describe('super admin rules', () => {
  it('hides Delete for the current user and for admin or ceo accounts', () => {
    expect(canDeleteUser(me, 'u-admin')).toBe(false);
    expect(canDeleteUser(ceo, 'u-admin')).toBe(false);
    expect(canDeleteUser(otherAdmin, 'u-admin')).toBe(false);
    expect(canDeleteUser(maya, 'u-admin')).toBe(true);
    expect(canDeleteUser(wait, 'u-admin')).toBe(true);
  });

  it('searches name, e-mail and organization name, case-insensitively', () => {
    expect(filterUsers(ALL, 'PATEL').map((u) => u.id)).toEqual(['maya']);
    expect(filterUsers(ALL, 'wendy@').map((u) => u.id)).toEqual(['wait']);
    expect(filterUsers(ALL, 'contoso').map((u) => u.id)).toEqual(['wait']);
    expect(filterUsers(ALL, '  ')).toHaveLength(ALL.length);
  });
});

describe('super admin page', () => {
  it('lists users with role labels, and offers Edit always but Delete only where allowed', async () => {
    setup();
    await screen.findByRole('table');
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['Name', 'Email', 'Organization', 'Role', 'Created At', 'Actions']);
    expect(within(rowOf('Olivia Chen')).getByText('CEO')).toBeInTheDocument();
    expect(within(rowOf('Wendy Wait')).getByText('Waitlisted')).toBeInTheDocument();
    for (const name of ['Alex Morgan', 'Olivia Chen', 'Sam Ops', 'Maya Patel', 'Wendy Wait']) {
      expect(screen.getByRole('button', { name: `Edit ${name}` })).toBeInTheDocument();
    }
    for (const name of ['Alex Morgan', 'Olivia Chen', 'Sam Ops']) {
      expect(screen.queryByRole('button', { name: `Delete ${name}` })).not.toBeInTheDocument();
    }
    expect(screen.getByRole('button', { name: 'Delete Maya Patel' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete Wendy Wait' })).toBeInTheDocument();
  });

  it('filters as you type and says "No users found."', async () => {
    setup();
    await screen.findByRole('table');
    const search = screen.getByLabelText('Search users');
    await userEvent.type(search, 'northwind');
    expect(screen.getAllByRole('row')).toHaveLength(
      1 + ALL.filter((u) => u.organization_name === 'Northwind Ventures').length,
    );
    await userEvent.clear(search);
    await userEvent.type(search, 'zzz-nobody');
    expect(screen.getByText('No users found.')).toBeInTheDocument();
  });

  it('shows "Failed to load data" when the list cannot load', async () => {
    setup({ status: 500, body: { detail: 'boom' } });
    expect(await screen.findByText('Failed to load data', {}, { timeout: 8000 })).toBeInTheDocument();
  });

  it('approves a waitlisted user by setting the level to User', async () => {
    const { callsTo } = setup(ALL, { 'PATCH /api/users/wait': { body: { ...wait, user_level: 'user' } } });
    await userEvent.click(await screen.findByRole('button', { name: 'Approve Wendy Wait' }));
    await waitFor(() => expect(callsTo('PATCH', '/api/users/wait')).toHaveLength(1));
    expect(callsTo('PATCH', '/api/users/wait')[0].body).toEqual({ user_level: 'user' });
    expect(await screen.findByText('User Updated')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Approve Maya Patel' })).not.toBeInTheDocument();
  });

  it('edits a user, sending only the changed fields', async () => {
    const { callsTo } = setup(ALL, { 'PATCH /api/users/maya': { body: maya } });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Maya Patel' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit User' });
    await userEvent.selectOptions(within(dialog).getByLabelText('User level'), 'ceo');
    await userEvent.selectOptions(within(dialog).getByLabelText('Organization'), 'org-2');
    const objectives = within(dialog).getByLabelText('Objectives');
    await userEvent.clear(objectives);
    await userEvent.type(objectives, 'Close the round\n\n  Hire a CFO ');
    const prompts = within(dialog).getByLabelText('Custom prompts (JSON)');
    await userEvent.clear(prompts);
    await userEvent.type(prompts, '{{ broken');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(callsTo('PATCH', '/api/users/maya')).toHaveLength(1));
    // maya has no custom prompts, so invalid JSON ({} after parsing) is no change.
    expect(callsTo('PATCH', '/api/users/maya')[0].body).toEqual({
      user_level: 'ceo',
      organization_id: 'org-2',
      objectives: ['Close the round', 'Hire a CFO'],
    });
    expect(await screen.findByText('User Updated')).toBeInTheDocument();
  });

  it('locks the user level when admins edit themselves, and still sends their other changes', async () => {
    const { callsTo } = setup(ALL, { 'PATCH /api/users/u-admin': { body: me } });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Alex Morgan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit User' });
    expect(within(dialog).getByLabelText('User level')).toBeDisabled();
    await userEvent.type(within(dialog).getByLabelText('Role'), 'Platform owner');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(callsTo('PATCH', '/api/users/u-admin')).toHaveLength(1));
    expect(callsTo('PATCH', '/api/users/u-admin')[0].body).toEqual({ role: 'Platform owner' });
  });

  it('says "No Changes" for an untouched edit and never sends a blank password', async () => {
    const { callsTo } = setup();
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Maya Patel' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit User' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('No Changes')).toBeInTheDocument();
    expect(callsTo('PATCH', '/api/users/maya')).toHaveLength(0);
  });

  it('creates a user: Email and Password required, waitlisted by default', async () => {
    let fail = true;
    const { callsTo } = setup(ALL, {
      'POST /api/users/': () => (fail ? { status: 500, body: undefined } : { status: 201, body: makeUser() }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Create User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create User' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create User' }));
    expect(await within(dialog).findByText('Email is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Password is required')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('User level')).toHaveValue('waitlisted');

    await userEvent.type(within(dialog).getByLabelText('Email'), 'new@x.co');
    await userEvent.type(within(dialog).getByLabelText('Password'), 'long-enough-1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create User' }));
    expect(await screen.findByText('Creation Failed')).toBeInTheDocument();
    expect(screen.getByText('Could not create user.')).toBeInTheDocument();

    fail = false;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create User' }));
    expect(await screen.findByText('User Created')).toBeInTheDocument();
    expect(callsTo('POST', '/api/users/')[1].body).toEqual({
      email: 'new@x.co',
      password: 'long-enough-1',
      first_name: null,
      last_name: null,
      user_level: 'waitlisted',
      organization_id: null,
    });
  });

  it('deletes a user after confirmation', async () => {
    const { callsTo } = setup(ALL, { 'DELETE /api/users/maya': { status: 204 } });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Maya Patel' }));
    const confirm = await screen.findByRole('alertdialog');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete user' }));
    await waitFor(() => expect(callsTo('DELETE', '/api/users/maya')).toHaveLength(1));
    expect(await screen.findByText('User Deleted')).toBeInTheDocument();
  });
});
