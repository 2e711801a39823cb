import type { TOutboundAllowlist } from '@cc/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { formatDate } from '../../lib/format';
import { makeUser } from '../../test/fixtures';
import { mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';

const PATH = '/api/admin/outbound-allowlist';
const SEARCH = {
  method: 'GET' as const,
  destination: 'https://api.example.com/v1/search',
  note: 'read-only search',
  created_at: '2026-11-20T10:00:00.000Z',
};
const WEATHER = {
  method: 'POST' as const,
  destination: 'https://weather.example.org',
  note: null,
  created_at: '2026-11-21T10:00:00.000Z',
};
const admin = { 'GET /api/users/me': { body: makeUser({ user_level: 'admin' }) } };

/** A server that keeps the list the PUT sends (dates of new entries are the server's). */
function serverWith(entries: TOutboundAllowlist['entries']) {
  let current = entries;
  return mockApi({
    ...admin,
    [`GET ${PATH}`]: () => ({ body: { entries: current } }),
    [`PUT ${PATH}`]: (call) => {
      const sent = (
        call.body as { entries: { method: 'GET' | 'POST'; destination: string; note: string | null }[] }
      ).entries;
      current = sent.map((e) => ({
        ...e,
        created_at:
          current.find((c) => c.method === e.method && c.destination === e.destination)?.created_at ??
          '2026-11-29T09:00:00.000Z',
      }));
      return { body: { entries: current } };
    },
  });
}

async function openTab() {
  renderApp({ path: '/app/admin?tab=outbound', token: 'tok' });
  return screen.findByRole('region', { name: 'Side-effect-free destinations' });
}

describe('Super Admin → Outbound calls', () => {
  it('is a tab of Super Admin that explains the rule and lists method, destination, note and date', async () => {
    serverWith([SEARCH, WEATHER]);
    const card = await openTab();
    expect(screen.getByRole('tab', { name: 'Outbound calls' })).toHaveAttribute('aria-selected', 'true');
    expect(card).toHaveTextContent(
      "Calls an AI tool makes with arguments a model chose wait for a person's approval unless their method and destination are listed here as side-effect-free.",
    );
    const rows = await within(card).findAllByTestId('outbound-allowlist-row');
    expect(rows.map((r) => Array.from(r.querySelectorAll('td')).map((td) => td.textContent))).toEqual([
      [
        'GET',
        'https://api.example.com/v1/search',
        'read-only search',
        formatDate(SEARCH.created_at),
        'Remove',
      ],
      ['POST', 'https://weather.example.org', '—', formatDate(WEATHER.created_at), 'Remove'],
    ]);
  });

  it('adds an entry by sending the whole list, then shows it', async () => {
    const api = serverWith([SEARCH]);
    const card = await openTab();
    await within(card).findAllByTestId('outbound-allowlist-row');
    await userEvent.selectOptions(within(card).getByLabelText('Method'), 'POST');
    await userEvent.type(within(card).getByLabelText('Destination'), 'https://lookup.example.com/v2/');
    await userEvent.type(within(card).getByLabelText('Note (optional)'), 'idempotent lookup');
    await userEvent.click(within(card).getByRole('button', { name: 'Add destination' }));
    await waitFor(() => expect(api.callsTo('PUT', PATH)).toHaveLength(1));
    expect(api.callsTo('PUT', PATH)[0].body).toEqual({
      entries: [
        { method: 'GET', destination: SEARCH.destination, note: SEARCH.note },
        { method: 'POST', destination: 'https://lookup.example.com/v2/', note: 'idempotent lookup' },
      ],
    });
    await waitFor(() => expect(within(card).getAllByTestId('outbound-allowlist-row')).toHaveLength(2));
    expect(within(card).getByLabelText('Destination')).toHaveValue('');
  });

  it('removes an entry by sending the list without it', async () => {
    const api = serverWith([SEARCH, WEATHER]);
    const card = await openTab();
    await userEvent.click(
      await within(card).findByRole('button', { name: `Remove GET ${SEARCH.destination}` }),
    );
    await waitFor(() => expect(api.callsTo('PUT', PATH)).toHaveLength(1));
    expect(api.callsTo('PUT', PATH)[0].body).toEqual({
      entries: [{ method: 'POST', destination: WEATHER.destination, note: null }],
    });
    await waitFor(() => expect(within(card).getAllByTestId('outbound-allowlist-row')).toHaveLength(1));
    expect(within(card).queryByText(SEARCH.destination)).toBeNull();
  });

  it("shows the server's 422 message under the field and keeps what was typed", async () => {
    const msg =
      'A destination is an http(s) address without query, fragment or credentials (e.g. https://api.example.com/v1/search)';
    mockApi({
      ...admin,
      [`GET ${PATH}`]: { body: { entries: [SEARCH] } },
      [`PUT ${PATH}`]: {
        status: 422,
        body: { detail: [{ loc: ['body', 'entries', '1', 'destination'], msg, type: 'custom' }] },
      },
    });
    const card = await openTab();
    await within(card).findAllByTestId('outbound-allowlist-row');
    const field = within(card).getByLabelText('Destination');
    await userEvent.type(field, 'https://api.example.com/search?q=1');
    await userEvent.click(within(card).getByRole('button', { name: 'Add destination' }));
    expect(await within(card).findByText(msg)).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(msg);
    expect(field).toHaveValue('https://api.example.com/search?q=1');
    expect(within(card).getAllByTestId('outbound-allowlist-row')).toHaveLength(1);
  });

  it('shows a 422 detail that names no field of the new entry above the form', async () => {
    mockApi({
      ...admin,
      [`GET ${PATH}`]: { body: { entries: [] } },
      [`PUT ${PATH}`]: { status: 422, body: { detail: 'The list may hold at most 200 entries.' } },
    });
    const card = await openTab();
    expect(await within(card).findByTestId('outbound-allowlist-empty')).toBeInTheDocument();
    await userEvent.type(within(card).getByLabelText('Destination'), 'https://x.example.com');
    await userEvent.click(within(card).getByRole('button', { name: 'Add destination' }));
    expect(await within(card).findByRole('alert')).toHaveTextContent(
      'The list may hold at most 200 entries.',
    );
  });
});
