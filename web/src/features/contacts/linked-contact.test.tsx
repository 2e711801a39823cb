import type { TContact } from '@cc/contract';
import { screen, within } from '@testing-library/react';
import { expect, it } from 'vitest';
import { makeOrg, makeUser } from '../../test/fixtures';
import { type Handler, mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';

const contact = (id: string, name: string): TContact => ({
  id,
  name,
  role: 'Investor',
  avatar_initial: name.charAt(0),
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
});

function open(path: string, extra: Record<string, Handler>) {
  mockApi({
    'GET /api/users/me': { body: makeUser({ id: 'user-me', organization_id: 'org-1' }) },
    'GET /api/organizations': { body: [makeOrg({ id: 'org-1', name: 'Northwind Ventures' })] },
    // The first page does not hold the linked contact: the link must open it anyway.
    'GET /api/contacts/': { body: [contact('c-1', 'Ann Other')] },
    ...extra,
  });
  renderApp({ path, token: 'tok' });
}

it('?contact=<id> (a citation link) opens that contact, even one beyond the loaded page', async () => {
  open('/app/contacts?contact=c-9', { 'GET /api/contacts/c-9': { body: contact('c-9', 'Zed Investor') } });
  const dialog = await screen.findByRole('dialog', { name: /Zed Investor/ });
  expect(within(dialog).getByText('Investor')).toBeInTheDocument();
});

it('a contact of another organization (404) shows that the record is not available', async () => {
  open('/app/contacts?contact=c-x', {
    'GET /api/contacts/c-x': { status: 404, body: { detail: 'Not found' } },
  });
  expect(await screen.findByText('This record is not available')).toBeInTheDocument();
  expect(screen.queryByRole('dialog')).toBeNull();
});
