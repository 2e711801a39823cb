import type { TOrganization, TOrgMember, TUser } from '@cc/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeMember, makeOrg, makeUser } from '../../test/fixtures';
import { type Handler, mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';

function setup(
  me: TUser,
  orgs: TOrganization[],
  members: TOrgMember[] = [],
  extra: Record<string, Handler> = {},
) {
  const api = mockApi({
    'GET /api/users/me': { body: me },
    'GET /api/organizations': { body: orgs },
    'GET /api/users/me/invitations': { body: [] },
    ...Object.fromEntries(orgs.map((o) => [`GET /api/organizations/${o.id}/users`, { body: members }])),
    ...extra,
  });
  renderApp({ path: '/app/organization', token: 'tok' });
  return api;
}

async function membersTable() {
  return within(await screen.findByRole('table'));
}

describe('organization page: who sees what', () => {
  it('says "No organization assigned." to a user without one, with no way to create one', async () => {
    setup(makeUser({ user_level: 'user' }), []);
    expect(await screen.findByText('No organization assigned.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /New organization/ })).not.toBeInTheDocument();
  });

  it('lets ceo and admin create an organization (name required)', async () => {
    const created = makeOrg({ id: 'org-9', name: 'Contoso' });
    const { callsTo } = setup(makeUser({ user_level: 'ceo' }), [], [], {
      'POST /api/organizations': { status: 201, body: created },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'New organization' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Organization name'), '   ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create organization' }));
    expect(await within(dialog).findByText('Organization name is required')).toBeInTheDocument();
    expect(callsTo('POST', '/api/organizations')).toHaveLength(0);

    await userEvent.type(within(dialog).getByLabelText('Organization name'), ' Contoso ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create organization' }));
    await waitFor(() => expect(callsTo('POST', '/api/organizations')).toHaveLength(1));
    expect(callsTo('POST', '/api/organizations')[0].body).toEqual({ name: 'Contoso' });
  });

  it('deletes an organization without asking for it (or its members) again', async () => {
    const first = makeOrg({ id: 'org-1', name: 'Northwind Ventures' });
    const second = makeOrg({ id: 'org-2', name: 'Contoso' });
    let deleted = false;
    const { calls, callsTo } = setup(makeUser({ user_level: 'ceo' }), [first, second], [makeMember()], {
      'GET /api/organizations': () => ({ body: deleted ? [second] : [first, second] }),
      'GET /api/organizations/org-1/users': () =>
        deleted ? { status: 404, body: { detail: 'Organization not found' } } : { body: [makeMember()] },
      'DELETE /api/organizations/org-1': () => {
        deleted = true;
        return { status: 204 };
      },
    });
    await membersTable();
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Delete organization' }));
    expect(await screen.findByText('Organization Deleted')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Contoso' })).toBeInTheDocument());
    await waitFor(() => expect(callsTo('GET', '/api/organizations/org-2/users').length).toBeGreaterThan(0));
    const after = calls.slice(calls.findIndex((c) => c.method === 'DELETE') + 1);
    expect(after.filter((c) => c.path.includes('org-1'))).toEqual([]);
  });

  it('shows members read-only to someone who cannot manage the organization', async () => {
    const org = makeOrg({ can_manage: false, can_edit: false, my_access_level: 'user' });
    setup(makeUser({ user_level: 'user' }), [org], [makeMember({ first_name: 'Leo', last_name: 'Garcia' })]);
    const table = await membersTable();
    expect(table.getByText('Leo Garcia')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Add member/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Edit Leo Garcia/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Remove Leo Garcia/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Rename' })).not.toBeInTheDocument();
  });

  it('marks invites "invited" and offers no edit or delete for them', async () => {
    const invite = makeMember({
      user_id: null,
      email: 'new@x.co',
      first_name: null,
      last_name: null,
      is_invite: true,
    });
    const member = makeMember({ first_name: 'Leo', last_name: 'Garcia' });
    setup(makeUser({ user_level: 'ceo' }), [makeOrg()], [invite, member]);
    const table = await membersTable();
    const inviteRow = table.getByText('new@x.co', { selector: 'td' }).closest('tr')!;
    expect(within(inviteRow).getByText('invited')).toBeInTheDocument();
    expect(within(inviteRow).queryByRole('button')).not.toBeInTheDocument();
    expect(table.getByRole('button', { name: 'Edit Leo Garcia' })).toBeInTheDocument();
    expect(table.getByRole('button', { name: 'Remove Leo Garcia' })).toBeInTheDocument();
  });
});

describe('organization members: add, edit, remove', () => {
  it('validates the add form and sends the default access level', async () => {
    const { callsTo } = setup(makeUser({ user_level: 'ceo' }), [makeOrg()], [], {
      'POST /api/organizations/org-1/users': { status: 201, body: makeMember({ email: 'ann@x.co' }) },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Add member' }));
    const dialog = await screen.findByRole('dialog');
    const submit = within(dialog).getByRole('button', { name: 'Add member' });
    await userEvent.click(submit);
    expect(await within(dialog).findByText('Email is required')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Email'), 'not-an-email');
    await userEvent.click(submit);
    expect(await within(dialog).findByText('Invalid email address')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Access level')).toHaveValue('user');
    expect(callsTo('POST', '/api/organizations/org-1/users')).toHaveLength(0);

    await userEvent.clear(within(dialog).getByLabelText('Email'));
    await userEvent.type(within(dialog).getByLabelText('Email'), 'ann@x.co');
    await userEvent.click(submit);
    await waitFor(() => expect(callsTo('POST', '/api/organizations/org-1/users')).toHaveLength(1));
    expect(callsTo('POST', '/api/organizations/org-1/users')[0].body).toEqual({
      email: 'ann@x.co',
      org_access_level: 'user',
    });
  });

  it('says "No Changes" when nothing changed, and sends only what changed', async () => {
    const member = makeMember({
      user_id: 'u-leo',
      first_name: 'Leo',
      last_name: 'Garcia',
      email: 'leo@x.co',
    });
    const { callsTo } = setup(makeUser({ user_level: 'admin' }), [makeOrg()], [member], {
      'PATCH /api/organizations/org-1/users/u-leo': { body: { ...member, org_access_level: 'manager' } },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Leo Garcia' }));
    let dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('No Changes')).toBeInTheDocument();
    expect(screen.getByText('No user information was changed.')).toBeInTheDocument();
    expect(callsTo('PATCH', '/api/organizations/org-1/users/u-leo')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Edit Leo Garcia' }));
    dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('New password'), 'short');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await within(dialog).findByText('Password must be at least 8 characters')).toBeInTheDocument();
    await userEvent.clear(within(dialog).getByLabelText('New password'));
    await userEvent.selectOptions(within(dialog).getByLabelText('Access level'), 'manager');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(callsTo('PATCH', '/api/organizations/org-1/users/u-leo')).toHaveLength(1));
    expect(callsTo('PATCH', '/api/organizations/org-1/users/u-leo')[0].body).toEqual({
      org_access_level: 'manager',
    });
  });

  it('offers e-mail, name and password only when the row says the account is editable', async () => {
    const foreign = makeMember({
      user_id: 'u-ann',
      first_name: 'Ann',
      last_name: 'Lee',
      email: 'ann@x.co',
      can_edit_account: false,
    });
    const managed = makeMember({
      user_id: 'u-bo',
      first_name: 'Bo',
      last_name: 'Ray',
      can_edit_account: true,
    });
    const { callsTo } = setup(makeUser({ user_level: 'ceo' }), [makeOrg()], [foreign, managed], {
      'PATCH /api/organizations/org-1/users/u-ann': { body: { ...foreign, org_access_level: 'manager' } },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Ann Lee' }));
    let dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByLabelText('Email')).not.toBeInTheDocument();
    expect(within(dialog).queryByLabelText('New password')).not.toBeInTheDocument();
    expect(within(dialog).queryByLabelText('First name')).not.toBeInTheDocument();
    expect(within(dialog).getByText(/this account is not managed by this organization/)).toBeInTheDocument();
    await userEvent.selectOptions(within(dialog).getByLabelText('Access level'), 'manager');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(callsTo('PATCH', '/api/organizations/org-1/users/u-ann')).toHaveLength(1));
    expect(callsTo('PATCH', '/api/organizations/org-1/users/u-ann')[0].body).toEqual({
      org_access_level: 'manager',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await userEvent.click(screen.getByRole('button', { name: 'Edit Bo Ray' }));
    dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByLabelText('Email')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('New password')).toBeInTheDocument();
  });

  it("offers no edit or remove for a member the caller may not change (the organization's ceo)", async () => {
    const ceo = makeMember({
      user_id: 'u-ceo',
      first_name: 'Olivia',
      last_name: 'Chen',
      user_level: 'ceo',
      can_edit_account: false,
      can_change_access: false,
    });
    const staff = makeMember({
      user_id: 'u-leo',
      first_name: 'Leo',
      last_name: 'Garcia',
      can_edit_account: false,
    });
    setup(
      makeUser({ user_level: 'user' }),
      [makeOrg({ can_edit: false, my_access_level: 'admin' })],
      [ceo, staff],
    );
    const table = await membersTable();
    expect(table.getByText('Olivia Chen')).toBeInTheDocument();
    expect(table.queryByRole('button', { name: 'Edit Olivia Chen' })).not.toBeInTheDocument();
    expect(table.queryByRole('button', { name: 'Remove Olivia Chen' })).not.toBeInTheDocument();
    expect(table.getByRole('button', { name: 'Edit Leo Garcia' })).toBeInTheDocument();
    expect(table.getByRole('button', { name: 'Remove Leo Garcia' })).toBeInTheDocument();
  });

  it('says an invitation was sent after adding a member', async () => {
    setup(makeUser({ user_level: 'ceo' }), [makeOrg()], [], {
      'POST /api/organizations/org-1/users': {
        status: 201,
        body: makeMember({ email: 'ann@x.co', user_id: null, is_invite: true, can_edit_account: false }),
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Add member' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Email'), 'ann@x.co');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add member' }));
    expect(await screen.findByText('Invitation Sent')).toBeInTheDocument();
    expect(screen.getByText('ann@x.co is invited and joins once they accept.')).toBeInTheDocument();
  });

  it('removes a member after confirmation', async () => {
    const member = makeMember({ user_id: 'u-leo', first_name: 'Leo', last_name: 'Garcia' });
    const { callsTo } = setup(makeUser({ user_level: 'ceo' }), [makeOrg()], [member], {
      'DELETE /api/organizations/org-1/users/u-leo': { status: 204 },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Remove Leo Garcia' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(callsTo('DELETE', '/api/organizations/org-1/users/u-leo')).toHaveLength(0);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(callsTo('DELETE', '/api/organizations/org-1/users/u-leo')).toHaveLength(1));
    expect(await screen.findByText('Member Removed')).toBeInTheDocument();
  });
});
