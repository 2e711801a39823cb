import type { TContact } from '@cc/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeOrg, makeUser } from '../../test/fixtures';
import { type Handler, mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';

let seq = 0;
function makeContact(over: Partial<TContact> = {}): TContact {
  seq += 1;
  const name = over.name ?? `Person ${seq}`;
  return {
    id: `c-${seq}`,
    name,
    role: null,
    avatar_initial: name.charAt(0).toUpperCase(),
    emails: [],
    phones: [],
    notes: null,
    organization_id: 'org-1',
    user_id: 'user-me',
    is_user: false,
    linked_user_id: null,
    created_by_user: null,
    shared_org_ids: ['org-1'],
    shared_organizations: [{ id: 'org-1', name: 'Northwind Ventures', is_owner: true }],
    past_interactions: [],
    can_edit: true,
    can_delete: true,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...over,
  };
}

const ada = () =>
  makeContact({
    id: 'c-ada',
    name: 'Ada Lovelace',
    role: 'Chief Analyst',
    emails: ['ada@engines.io', 'ADA.L@Home.org'],
    phones: ['+44 20 0000'],
    notes: 'Prefers mornings',
  });
const bob = () => makeContact({ id: 'c-bob', name: 'Bob Stone', role: 'Investor', is_user: true });
const cyd = () => makeContact({ id: 'c-cyd', name: 'Cyd Ray', emails: ['cyd@ray.dev'], role: null });

/** The server's list: search on name, role or any e-mail (case-insensitive), then skip/limit. */
function serverPage(contacts: TContact[], q: URLSearchParams): TContact[] {
  const needle = (q.get('search') ?? '').trim().toLowerCase();
  const hit = (c: TContact) =>
    !needle || [c.name, c.role ?? '', ...c.emails].some((text) => text.toLowerCase().includes(needle));
  const skip = Number(q.get('skip') ?? 0);
  return contacts.filter(hit).slice(skip, skip + Number(q.get('limit') ?? 100));
}

function setup(contacts: TContact[], extra: Record<string, Handler> = {}) {
  const api = mockApi({
    'GET /api/users/me': { body: makeUser({ id: 'user-me', organization_id: 'org-1' }) },
    'GET /api/organizations': {
      body: [makeOrg({ id: 'org-1', name: 'Northwind Ventures' }), makeOrg({ id: 'org-2', name: 'Contoso' })],
    },
    'GET /api/contacts/': (call) => ({ body: serverPage(contacts, call.search) }),
    ...extra,
  });
  renderApp({ path: '/app/contacts', token: 'tok' });
  return api;
}

const cardNames = () =>
  within(screen.getByRole('list', { name: 'Contacts' }))
    .getAllByTestId('contact-card')
    .map(
      (b) =>
        b.getAttribute('aria-labelledby') &&
        b.querySelector(`[id="${b.getAttribute('aria-labelledby')}"]`)?.textContent,
    );

async function openCard(name: string) {
  await userEvent.click(await screen.findByRole('button', { name }));
  return within(await screen.findByRole('dialog', { name: new RegExp(name) }));
}

describe('contacts directory: list', () => {
  it('says "No contacts found." with the hint when there are none', async () => {
    setup([]);
    expect(await screen.findByRole('heading', { name: 'Contacts Directory' })).toBeInTheDocument();
    expect(await screen.findByText('No contacts found.')).toBeInTheDocument();
    expect(screen.getByText('Click "Add New Contact" to get started.')).toBeInTheDocument();
  });

  it('searches name, role and any e-mail on the server, case-insensitively', async () => {
    const { callsTo } = setup([ada(), bob(), cyd()]);
    await screen.findByRole('button', { name: 'Ada Lovelace' });
    expect(callsTo('GET', '/api/contacts/')[0].search.toString()).toBe('skip=0&limit=50');
    const box = screen.getByLabelText('Search contacts');
    await userEvent.type(box, 'bOB');
    await waitFor(() => expect(cardNames()).toEqual(['Bob Stone']));
    // one request for the settled text, not one per key
    expect(callsTo('GET', '/api/contacts/').map((c) => c.search.get('search'))).toEqual([null, 'bOB']);
    await userEvent.clear(box);
    await userEvent.type(box, 'INVESTOR');
    await waitFor(() => expect(cardNames()).toEqual(['Bob Stone']));
    await userEvent.clear(box);
    await userEvent.type(box, 'home.ORG');
    await waitFor(() => expect(cardNames()).toEqual(['Ada Lovelace']));
    await userEvent.clear(box);
    await userEvent.type(box, 'zzz');
    expect(await screen.findByText('No contacts match your search.')).toBeInTheDocument();
    expect(screen.queryByText('No contacts found.')).not.toBeInTheDocument();
  });

  it('loads 50 at a time and the next ones on demand', async () => {
    const many = Array.from({ length: 120 }, (_, i) =>
      makeContact({ id: `p-${i}`, name: `Person ${String(i).padStart(3, '0')}` }),
    );
    const { callsTo } = setup(many);
    await screen.findByText('Person 000', {}, { timeout: 5000 });
    expect(cardNames()).toHaveLength(50);
    await userEvent.click(screen.getByText('Load more contacts'));
    await waitFor(() => expect(cardNames()).toHaveLength(100));
    await userEvent.click(screen.getByText('Load more contacts'));
    await waitFor(() => expect(cardNames()).toHaveLength(120));
    expect(cardNames()[119]).toBe('Person 119');
    expect(screen.queryByText('Load more contacts')).not.toBeInTheDocument();
    expect(callsTo('GET', '/api/contacts/').map((c) => c.search.get('skip'))).toEqual(['0', '50', '100']);
  });

  it('shows the card details: initial, not-an-app-user icon, role or N/A, first email and phone, shared with', async () => {
    setup([ada(), bob(), cyd()]);
    const adaCard = await screen.findByRole('button', { name: 'Ada Lovelace' });
    expect(within(adaCard).getByText('A')).toBeInTheDocument();
    expect(within(adaCard).getByLabelText('not an app user')).toBeInTheDocument();
    expect(within(adaCard).getByText('Chief Analyst')).toBeInTheDocument();
    expect(within(adaCard).getByText('ada@engines.io')).toBeInTheDocument();
    expect(within(adaCard).queryByText('ADA.L@Home.org')).not.toBeInTheDocument();
    expect(within(adaCard).getByText('+44 20 0000')).toBeInTheDocument();
    expect(within(adaCard).getByText('Prefers mornings')).toHaveClass('line-clamp-2');
    expect(within(adaCard).getByText('Shared with: Northwind Ventures')).toBeInTheDocument();
    const bobCard = screen.getByRole('button', { name: 'Bob Stone' });
    expect(within(bobCard).queryByLabelText('not an app user')).not.toBeInTheDocument();
    expect(within(screen.getByRole('button', { name: 'Cyd Ray' })).getByText('N/A')).toBeInTheDocument();
  });

  it('toggles between grid (default) and list', async () => {
    setup([ada(), bob()]);
    await screen.findByRole('button', { name: 'Ada Lovelace' });
    const grid = screen.getByRole('button', { name: 'Grid view' });
    const list = screen.getByRole('button', { name: 'List view' });
    expect(grid).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('list', { name: 'Contacts' })).toHaveAttribute('data-view', 'grid');
    await userEvent.click(list);
    expect(list).toHaveAttribute('aria-pressed', 'true');
    expect(grid).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByRole('list', { name: 'Contacts' })).toHaveAttribute('data-view', 'list');
  });

  it('opens the details from the keyboard', async () => {
    setup([ada()]);
    const card = await screen.findByRole('button', { name: 'Ada Lovelace' });
    card.focus();
    await userEvent.keyboard('{Enter}');
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText('Chief Analyst')).toBeInTheDocument();
    expect(dialog.getByText('No past interactions recorded.')).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Edit' })).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Delete Contact' })).toBeInTheDocument();
  });
});

describe('contact form', () => {
  it('requires a name, keeps one row, drops blank e-mails and phones, and puts the new contact on top', async () => {
    const created = makeContact({ id: 'c-new', name: 'Zed Zimmer', emails: ['zed@z.io', 'z2@z.io'] });
    const { callsTo } = setup([ada(), bob()], { 'POST /api/contacts/': { status: 201, body: created } });
    await userEvent.click(await screen.findByRole('button', { name: 'Add New Contact' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Create New Contact' }));

    await userEvent.click(dialog.getByRole('button', { name: 'Create Contact' }));
    expect(await dialog.findByText('Name is required.')).toBeInTheDocument();
    expect(callsTo('POST', '/api/contacts/')).toHaveLength(0);

    // One row stays.
    expect(dialog.getByRole('button', { name: 'Remove email address 1' })).toBeDisabled();
    await userEvent.click(dialog.getByRole('button', { name: 'Add email address' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Add email address' }));
    expect(dialog.getAllByLabelText(/^Email address \d$/)).toHaveLength(3);
    await userEvent.click(dialog.getByRole('button', { name: 'Remove email address 3' }));
    expect(dialog.getAllByLabelText(/^Email address \d$/)).toHaveLength(2);
    await userEvent.click(dialog.getByRole('button', { name: 'Add phone number' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Remove phone number 2' }));
    expect(dialog.getByRole('button', { name: 'Remove phone number 1' })).toBeDisabled();

    // Sharing: the owner organization is marked and always shared.
    expect(dialog.getByRole('group', { name: 'Share with Organizations' })).toBeInTheDocument();
    expect(dialog.getByText('(Owner)')).toBeInTheDocument();
    expect(dialog.getByLabelText(/Northwind Ventures/)).toBeChecked();
    expect(dialog.getByLabelText(/Northwind Ventures/)).toBeDisabled();
    await userEvent.click(dialog.getByLabelText('Contoso'));

    await userEvent.type(dialog.getByLabelText('Name'), '  Zed Zimmer ');
    await userEvent.type(dialog.getByLabelText('Role/Title'), '  Founder  ');
    await userEvent.type(dialog.getByLabelText('Email address 2'), 'zed@z.io');
    await userEvent.click(dialog.getByRole('button', { name: 'Create Contact' }));
    await waitFor(() => expect(callsTo('POST', '/api/contacts/')).toHaveLength(1));
    expect(callsTo('POST', '/api/contacts/')[0].body).toEqual({
      name: 'Zed Zimmer',
      role: 'Founder',
      emails: ['zed@z.io'],
      phones: [],
      organization_id: 'org-1',
      shared_org_ids: ['org-1', 'org-2'],
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(cardNames()).toEqual(['Zed Zimmer', 'Ada Lovelace', 'Bob Stone']);
  });

  it('refuses a malformed e-mail before sending', async () => {
    const { callsTo } = setup([]);
    await userEvent.click(await screen.findByRole('button', { name: 'Add New Contact' }));
    const dialog = within(await screen.findByRole('dialog'));
    await userEvent.type(dialog.getByLabelText('Name'), 'Zed');
    await userEvent.type(dialog.getByLabelText('Email address 1'), 'not-an-email');
    await userEvent.click(dialog.getByRole('button', { name: 'Create Contact' }));
    expect(await dialog.findByText('Invalid email address')).toBeInTheDocument();
    expect(callsTo('POST', '/api/contacts/')).toHaveLength(0);
  });

  it('says "Failed to save contact." when the save fails', async () => {
    setup([], { 'POST /api/contacts/': { status: 500, body: { detail: 'down' } } });
    await userEvent.click(await screen.findByRole('button', { name: 'Add New Contact' }));
    const dialog = within(await screen.findByRole('dialog'));
    await userEvent.type(dialog.getByLabelText('Name'), 'Zed');
    await userEvent.click(dialog.getByRole('button', { name: 'Create Contact' }));
    expect(await screen.findByText('Failed to save contact.')).toBeInTheDocument();
    expect(screen.getByText('Please try again.')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Create New Contact' })).toBeInTheDocument();
  });

  it('edits with PATCH (changed fields only) and replaces the card in place', async () => {
    const a = ada();
    const { callsTo } = setup([a, bob()], {
      'PATCH /api/contacts/c-ada': { body: { ...a, name: 'Ada King', emails: ['ada@engines.io'] } },
    });
    const detail = await openCard('Ada Lovelace');
    await userEvent.click(detail.getByRole('button', { name: 'Edit' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit Contact' }));
    expect(dialog.getByLabelText('Email address 2')).toHaveValue('ADA.L@Home.org');
    await userEvent.clear(dialog.getByLabelText('Name'));
    await userEvent.type(dialog.getByLabelText('Name'), 'Ada King');
    await userEvent.clear(dialog.getByLabelText('Email address 2'));
    await userEvent.click(dialog.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(callsTo('PATCH', '/api/contacts/c-ada')).toHaveLength(1));
    expect(callsTo('PATCH', '/api/contacts/c-ada')[0].body).toEqual({
      name: 'Ada King',
      emails: ['ada@engines.io'],
    });
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Edit Contact' })).not.toBeInTheDocument(),
    );
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(cardNames()).toEqual(['Ada King', 'Bob Stone']));
  });

  it('deletes after "Confirm Contact Deletion" and removes the card', async () => {
    const { callsTo } = setup([ada(), bob()], { 'DELETE /api/contacts/c-ada': { status: 204 } });
    const detail = await openCard('Ada Lovelace');
    await userEvent.click(detail.getByRole('button', { name: 'Delete Contact' }));
    const confirm = within(await screen.findByRole('alertdialog', { name: 'Confirm Contact Deletion' }));
    expect(
      confirm.getByText('Are you sure you want to delete this contact? This action cannot be undone.'),
    ).toBeInTheDocument();
    await userEvent.click(confirm.getByRole('button', { name: 'Delete Contact' }));
    await waitFor(() => expect(callsTo('DELETE', '/api/contacts/c-ada')).toHaveLength(1));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(cardNames()).toEqual(['Bob Stone']);
  });

  it('after a delete the next page starts one row earlier, so no contact is skipped', async () => {
    const many = Array.from({ length: 60 }, (_, i) =>
      makeContact({ id: `p-${i}`, name: `Person ${String(i).padStart(3, '0')}` }),
    );
    const { callsTo } = setup(many, {
      'DELETE /api/contacts/p-0': () => {
        many.shift();
        return { status: 204 };
      },
    });
    await userEvent.click(await screen.findByText('Person 000', {}, { timeout: 5000 }));
    const detail = within(await screen.findByRole('dialog', { name: /Person 000/ }));
    await userEvent.click(detail.getByRole('button', { name: 'Delete Contact' }));
    const confirm = within(await screen.findByRole('alertdialog', { name: 'Confirm Contact Deletion' }));
    await userEvent.click(confirm.getByRole('button', { name: 'Delete Contact' }));
    await waitFor(() => expect(cardNames()).toHaveLength(49));
    await userEvent.click(screen.getByText('Load more contacts'));
    await waitFor(() => expect(cardNames()).toHaveLength(59));
    expect(cardNames()[49]).toBe('Person 050');
    expect(callsTo('GET', '/api/contacts/').at(-1)?.search.get('skip')).toBe('49');
  });
});

describe('contact details: general notes and past interactions', () => {
  it('saves the general notes on blur, only when they changed', async () => {
    const a = ada();
    const { callsTo } = setup([a], {
      'PATCH /api/contacts/c-ada': ({ body }) => ({ body: { ...a, ...(body as object) } }),
    });
    const detail = await openCard('Ada Lovelace');
    await userEvent.click(detail.getByRole('button', { name: /Prefers mornings/ }));
    const field = detail.getByRole('textbox', { name: 'General Notes' });
    expect(field).toHaveFocus();
    fireEvent.blur(field);
    await new Promise((r) => setTimeout(r, 50));
    expect(callsTo('PATCH', '/api/contacts/c-ada')).toHaveLength(0);

    await userEvent.click(detail.getByRole('button', { name: /Prefers mornings/ }));
    await userEvent.type(detail.getByRole('textbox', { name: 'General Notes' }), ' and tea');
    fireEvent.blur(detail.getByRole('textbox', { name: 'General Notes' }));
    await waitFor(() => expect(callsTo('PATCH', '/api/contacts/c-ada')).toHaveLength(1));
    expect(callsTo('PATCH', '/api/contacts/c-ada')[0].body).toEqual({ notes: 'Prefers mornings and tea' });
    expect(await detail.findByText('Prefers mornings and tea')).toBeInTheDocument();
  });

  it('shows "No general notes." when there are none', async () => {
    setup([bob()]);
    const detail = await openCard('Bob Stone');
    expect(detail.getByText('No general notes.')).toBeInTheDocument();
  });

  it('validates the interaction dialog and adds the interaction', async () => {
    const a = ada();
    let fail = true;
    const { callsTo } = setup([a], {
      'POST /api/contacts/c-ada/past-interactions': ({ body }) =>
        fail
          ? { status: 500, body: { detail: 'down' } }
          : {
              status: 201,
              body: {
                ...a,
                past_interactions: [
                  { id: 'i1', ...(body as { date: string; summary: string }), notes: null },
                ],
              },
            },
    });
    const detail = await openCard('Ada Lovelace');
    await userEvent.click(detail.getByRole('button', { name: 'Add Interaction' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add New Interaction' }));
    const submit = dialog.getByRole('button', { name: 'Add Interaction' });
    expect(submit).toBeDisabled();

    dialog.getByLabelText('Title').focus();
    await userEvent.tab();
    expect(await dialog.findByText('Title is required.')).toBeInTheDocument();
    fireEvent.change(dialog.getByLabelText('Date'), { target: { value: '' } });
    expect(await dialog.findByText('Date is required.')).toBeInTheDocument();
    await userEvent.type(dialog.getByLabelText('Title'), 'Intro call');
    expect(submit).toBeDisabled();
    fireEvent.change(dialog.getByLabelText('Date'), { target: { value: '2026-02-10' } });
    expect(submit).toBeEnabled();

    await userEvent.click(submit);
    expect(await screen.findByText('Failed to save interaction. Please try again.')).toBeInTheDocument();
    fail = false;
    await userEvent.click(submit);
    await waitFor(() => expect(callsTo('POST', '/api/contacts/c-ada/past-interactions')).toHaveLength(2));
    expect(callsTo('POST', '/api/contacts/c-ada/past-interactions')[1].body).toEqual({
      date: '2026-02-10',
      summary: 'Intro call',
    });
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Add New Interaction' })).not.toBeInTheDocument(),
    );
    expect(await detail.findByText('Intro call')).toBeInTheDocument();
    expect(detail.queryByText('No past interactions recorded.')).not.toBeInTheDocument();
  });

  it('edits and deletes a past interaction', async () => {
    const a = makeContact({
      id: 'c-ada',
      name: 'Ada Lovelace',
      past_interactions: [
        {
          id: 'i1',
          date: '2026-02-10',
          summary: 'Intro call',
          notes: 'Went well',
          updated_at: '2026-02-10T00:00:00.000Z',
        },
      ],
    });
    const { callsTo } = setup([a], {
      'PUT /api/contacts/c-ada/past-interactions/i1': ({ body }) => ({
        body: { ...a, past_interactions: [{ id: 'i1', notes: null, ...(body as object) }] },
      }),
      'DELETE /api/contacts/c-ada/past-interactions/i1': { status: 204 },
    });
    const detail = await openCard('Ada Lovelace');
    await userEvent.click(detail.getByRole('button', { name: 'Edit interaction Intro call' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit Past Interaction' }));
    expect(dialog.getByLabelText('Content')).toHaveValue('Went well');
    await userEvent.clear(dialog.getByLabelText('Title'));
    await userEvent.type(dialog.getByLabelText('Title'), 'Second call');
    await userEvent.click(dialog.getByRole('button', { name: 'Save Interaction' }));
    await waitFor(() => expect(callsTo('PUT', '/api/contacts/c-ada/past-interactions/i1')).toHaveLength(1));
    expect(callsTo('PUT', '/api/contacts/c-ada/past-interactions/i1')[0].body).toEqual({
      date: '2026-02-10',
      summary: 'Second call',
      notes: 'Went well',
    });
    expect(await detail.findByText('Second call')).toBeInTheDocument();

    await userEvent.click(detail.getByRole('button', { name: 'Delete interaction Second call' }));
    const confirm = within(await screen.findByRole('alertdialog', { name: 'Delete Interaction' }));
    expect(confirm.getByText('Are you sure you want to delete this past interaction?')).toBeInTheDocument();
    await userEvent.click(confirm.getByRole('button', { name: 'Delete' }));
    expect(await detail.findByText('No past interactions recorded.')).toBeInTheDocument();
  });
});
