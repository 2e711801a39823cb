import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';

function setup(orgs: unknown[] = []) {
  const api = mockApi({
    'GET /api/organizations': { body: orgs },
    'GET /api/users/me': { body: makeUser({ id: 'user-ceo', user_level: 'ceo' }) },
    'GET /api/crews/': { body: [] },
    'GET /api/agents/': { body: [] },
    'GET /api/tools/': { body: [] },
    'GET /api/flows/': { body: [] },
    'GET /api/models': { body: [] },
    'POST /api/tools/': { status: 201, body: { id: 'tool-9' } },
  });
  renderApp({ path: '/app/ai-factory', token: 'tok' });
  return api;
}

describe('the tool dialog: requires approval (issue 19)', () => {
  it('gates POST endpoints by default, not GET or built-in ones, and sends the choice', async () => {
    const { callsTo } = setup();
    await userEvent.click(await screen.findByRole('button', { name: 'Create New Tool' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create New Tool' });
    const gate = () => within(dialog).getByRole('checkbox', { name: 'Requires approval before each call' });
    expect(gate()).not.toBeChecked();
    await userEvent.click(within(dialog).getByRole('radio', { name: 'HTTP endpoint' }));
    expect(gate()).toBeChecked();
    await userEvent.selectOptions(within(dialog).getByLabelText('Method'), 'GET');
    expect(gate()).not.toBeChecked();
    await userEvent.selectOptions(within(dialog).getByLabelText('Method'), 'POST');
    expect(gate()).toBeChecked();

    // The owner may turn it off; the choice is sent as is.
    await userEvent.click(gate());
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Webhook');
    await userEvent.type(within(dialog).getByLabelText('Endpoint URL'), 'https://hooks.example.com/x');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Tool' }));
    await waitFor(() => expect(callsTo('POST', '/api/tools/')).toHaveLength(1));
    expect(callsTo('POST', '/api/tools/')[0].body).toMatchObject({
      name: 'Webhook',
      kind: 'http',
      http: { url: 'https://hooks.example.com/x', method: 'POST' },
      requires_approval: false,
    });
  });

  it("shares with the owner's own organizations only when ticked", async () => {
    const { callsTo } = setup([
      { id: 'org-a', name: 'Acme', my_access_level: 'admin' },
      { id: 'org-x', name: 'Not mine', my_access_level: null },
    ]);
    await userEvent.click(await screen.findByRole('button', { name: 'Create New Tool' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create New Tool' });
    const share = await within(dialog).findByRole('group', { name: 'Share with organizations' });
    expect(within(share).queryByLabelText('Not mine')).toBeNull();
    await userEvent.click(within(share).getByLabelText('Acme'));
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Shared search');
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Built-in function' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Tool' }));
    await waitFor(() => expect(callsTo('POST', '/api/tools/')).toHaveLength(1));
    expect(callsTo('POST', '/api/tools/')[0].body).toMatchObject({
      name: 'Shared search',
      shared_org_ids: ['org-a'],
    });
  });
});

describe('the tool dialog: the kind is chosen, never defaulted (issue 47 item 4)', () => {
  it('starts with no kind chosen and sends nothing until the person picks one', async () => {
    const { callsTo } = setup();
    await userEvent.click(await screen.findByRole('button', { name: 'Create New Tool' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create New Tool' });
    const kinds = within(dialog).getAllByRole('radio');
    expect(kinds.map((r) => r.closest('label')?.textContent)).toEqual([
      'Built-in function',
      'HTTP endpoint',
      'MCP server',
    ]);
    for (const r of kinds) expect(r).not.toBeChecked();
    // Nothing of any kind is shown before the choice.
    expect(within(dialog).queryByLabelText('Function')).toBeNull();
    expect(within(dialog).queryByLabelText('Endpoint URL')).toBeNull();

    await userEvent.type(within(dialog).getByLabelText('Name'), 'Search');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Tool' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Choose what the tool runs');
    expect(callsTo('POST', '/api/tools/')).toHaveLength(0);

    await userEvent.click(within(dialog).getByRole('radio', { name: 'Built-in function' }));
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    // Function names are shown as labels, never as identifiers.
    const fn = within(dialog).getByLabelText('Function');
    const options = within(fn)
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(options).toContain('Internal search');
    expect(options.some((o) => o?.includes('_'))).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Tool' }));
    await waitFor(() => expect(callsTo('POST', '/api/tools/')).toHaveLength(1));
    expect(callsTo('POST', '/api/tools/')[0].body).toMatchObject({
      name: 'Search',
      kind: 'builtin',
      function_name: 'internal_search',
    });
  });
});

describe('the tool dialog: MCP server (issue 22 section 3)', () => {
  it('offers kind "MCP server" with a URL and headers, and sends them', async () => {
    const { callsTo } = setup();
    await userEvent.click(await screen.findByRole('button', { name: 'Create New Tool' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create New Tool' });
    await userEvent.click(within(dialog).getByRole('radio', { name: 'MCP server' }));
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Tickets');
    // Without a URL it is not sent.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Tool' }));
    expect(await within(dialog).findByText('An MCP server needs an http:// or https:// URL')).toBeVisible();
    expect(callsTo('POST', '/api/tools/')).toHaveLength(0);

    await userEvent.type(within(dialog).getByLabelText('MCP server URL'), 'https://mcp.example.com/mcp');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add header' }));
    await userEvent.type(within(dialog).getByLabelText('Header 1 name'), 'Authorization');
    const value = within(dialog).getByLabelText('Header 1 value');
    expect(value).toHaveAttribute('type', 'password');
    await userEvent.type(value, 'Bearer s3cret');
    // The owner names the tools that only read (issue 46 row 5): only those skip the approval.
    await userEvent.type(
      within(dialog).getByLabelText('Read-only tools (names, comma-separated)'),
      'lookup_ticket, , lookup_ticket,list_queues',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Tool' }));
    await waitFor(() => expect(callsTo('POST', '/api/tools/')).toHaveLength(1));
    expect(callsTo('POST', '/api/tools/')[0].body).toMatchObject({
      name: 'Tickets',
      kind: 'mcp',
      mcp: {
        url: 'https://mcp.example.com/mcp',
        headers: { Authorization: 'Bearer s3cret' },
        read_only_tools: ['lookup_ticket', 'list_queues'],
      },
    });
  });
});
