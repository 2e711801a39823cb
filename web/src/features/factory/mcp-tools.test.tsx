import type { TTool } from '@cc/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';
import { httpGating, mcpToolLabel } from './components/factory-cards';

const mcpTool: TTool = {
  id: 'tool-mcp',
  name: 'Tickets',
  description: 'Support desk',
  kind: 'mcp',
  function_name: null,
  http: null,
  mcp: {
    url: 'https://mcp.example.com/mcp',
    header_names: ['Authorization'],
    tools: [
      {
        name: 'lookup_ticket',
        description: null,
        read_only: true,
        read_only_hint: false,
        ref: 'tool-mcp:lookup_ticket',
      },
      {
        name: 'create_ticket',
        description: null,
        read_only: false,
        read_only_hint: true,
        ref: 'tool-mcp:create_ticket',
      },
    ],
  },
  input_schema: {},
  requires_approval: false,
  side_effect_free: false,
  isAutoGen: false,
  is_public: false,
  created_by: 'user-ceo',
  shared_org_ids: [],
  can_edit: true,
  can_delete: true,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

function setup() {
  const api = mockApi({
    'GET /api/organizations': { body: [] },
    'GET /api/users/me': { body: makeUser({ id: 'user-ceo', user_level: 'ceo' }) },
    'GET /api/crews/': { body: [] },
    'GET /api/agents/': { body: [] },
    'GET /api/tools/': { body: [mcpTool] },
    'GET /api/flows/': { body: [] },
    'GET /api/models': { body: [] },
    'POST /api/agents/': { status: 201, body: { id: 'agent-9' } },
  });
  renderApp({ path: '/app/ai-factory', token: 'tok' });
  return api;
}

describe('MCP servers in the Factory (issue 22 section 3)', () => {
  it('the card shows the server, its header names and its tools; an agent can be given one of them', async () => {
    const { callsTo } = setup();
    const card = await screen.findByRole('article', { name: 'Tickets' });
    expect(within(card).getByText('MCP server')).toBeInTheDocument();
    await userEvent.click(within(card).getByRole('button', { name: 'Show details of Tickets' }));
    expect(within(card).getByText('https://mcp.example.com/mcp')).toBeInTheDocument();
    expect(within(card).getByText('Authorization')).toBeInTheDocument();
    // The server's readOnlyHint is shown as its claim; only the owner's mark makes a tool read-only.
    expect(
      within(card).getByText('create_ticket (needs approval; the server says it only reads)'),
    ).toBeInTheDocument();
    expect(within(card).getByText('lookup_ticket (read-only)')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Create New Agent' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create New Agent' });
    expect(within(dialog).getByLabelText('Tickets (all tools)')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByLabelText('Tickets: lookup_ticket'));
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Desk agent');
    await userEvent.type(within(dialog).getByLabelText('Role'), 'Support');
    await userEvent.type(within(dialog).getByLabelText('Goal'), 'Answer tickets');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Agent' }));
    await waitFor(() => expect(callsTo('POST', '/api/agents/')).toHaveLength(1));
    expect(callsTo('POST', '/api/agents/')[0].body).toMatchObject({ toolIds: ['tool-mcp:lookup_ticket'] });
  });
});

describe('what the tool card says about approvals (issue 46 row 5)', () => {
  it('an HTTP tool says whether an administrator allow-listed its method and endpoint', () => {
    expect(httpGating({ requires_approval: false, side_effect_free: true })).toBe(
      'Side-effect-free (allow-listed by an administrator): no approval needed',
    );
    expect(httpGating({ requires_approval: false, side_effect_free: false })).toBe(
      'Each call waits for approval (this destination is not on the allow-list)',
    );
    expect(httpGating({ requires_approval: true, side_effect_free: true })).toBe(
      'Each call waits for approval',
    );
  });

  it("an MCP server's claim is a hint; only the owner's mark says read-only", () => {
    expect(mcpToolLabel({ name: 'a', read_only: true, read_only_hint: false })).toBe('a (read-only)');
    expect(mcpToolLabel({ name: 'b', read_only: false, read_only_hint: true })).toBe(
      'b (needs approval; the server says it only reads)',
    );
    expect(mcpToolLabel({ name: 'c', read_only: false, read_only_hint: false })).toBe('c (needs approval)');
  });
});
