import type { TAgent, TCrew, TFlow, TTool } from '@cc/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { type Handler, mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';

const flags = {
  isAutoGen: false,
  is_public: false,
  created_by: 'user-ceo',
  shared_org_ids: [] as string[],
  can_edit: true,
  can_delete: true,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};
const builtin = { ...flags, isAutoGen: true, created_by: null, can_edit: false, can_delete: false };

const agent = (over: Partial<TAgent> = {}): TAgent => ({
  id: 'agent-1',
  name: 'Strategist',
  description: 'Thinks in quarters',
  role: 'Strategist',
  goal: 'Find the next move',
  backstory: null,
  llmModel: 'gpt-5-chat',
  toolIds: ['tool-1'],
  ...builtin,
  ...over,
});
const tool = (over: Partial<TTool> = {}): TTool => ({
  id: 'tool-1',
  name: 'Internal search',
  description: 'Searches the workspace',
  kind: 'builtin',
  function_name: 'internal_search',
  http: null,
  mcp: null,
  input_schema: { type: 'object' },
  requires_approval: false,
  side_effect_free: false,
  ...builtin,
  ...over,
});
const crew = (over: Partial<TCrew> = {}): TCrew => ({
  id: 'crew-1',
  name: 'Strategic review',
  description: 'Reviews the strategy',
  version: '1.0',
  agentIds: ['agent-1'],
  requires_input: false,
  input_fields: [],
  tasks: [
    {
      position: 0,
      name: 'Review',
      description: 'Review goals',
      expected_output: 'A memo',
      agent_id: 'agent-1',
      agent_name: 'Strategist',
      human_input: false,
    },
  ],
  ...builtin,
  ...over,
});
const flow = (over: Partial<TFlow> = {}): TFlow => ({
  id: 'flow-1',
  name: 'Strategic advice flow',
  description: 'Writes advice',
  version: '1.0',
  steps: [
    {
      position: 0,
      title: 'Analyse',
      name: 'Analyse',
      kind: 'agent',
      prompt: null,
      agent_id: 'agent-1',
      agent: 'Strategist',
      tool_id: null,
      tool: null,
      may_fail: false,
    },
  ],
  ...builtin,
  ...over,
});

const ceo = () => makeUser({ id: 'user-ceo', first_name: 'Olivia', user_level: 'ceo' });

function setup(
  lists: Partial<Record<'crews' | 'agents' | 'tools' | 'flows', unknown[]>> = {},
  extra: Record<string, Handler> = {},
) {
  const api = mockApi({
    'GET /api/users/me': { body: ceo() },
    'GET /api/crews/': { body: lists.crews ?? [crew(), crew({ id: 'crew-2', name: 'My crew', ...flags })] },
    'GET /api/agents/': { body: lists.agents ?? [agent()] },
    'GET /api/tools/': { body: lists.tools ?? [tool()] },
    'GET /api/flows/': { body: lists.flows ?? [flow()] },
    'GET /api/models': { body: [{ id: 'gpt-5-chat' }, { id: 'gpt-5-mini' }] },
    ...extra,
  });
  const app = renderApp({ path: '/app/ai-factory', token: 'tok' });
  return { ...api, ...app };
}

describe('AI Factory', () => {
  it('shows the four sections, their empty texts and 340 px cards', async () => {
    setup({ crews: [], agents: [], tools: [], flows: [] });
    expect(await screen.findByText('No crews found.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Available Crews' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Available Flows' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Available Agents' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Available Tools' })).toBeInTheDocument();
    expect(await screen.findByText('No flows found.')).toBeInTheDocument();
    expect(await screen.findByText('No agents found.')).toBeInTheDocument();
    expect(await screen.findByText('No tools found.')).toBeInTheDocument();
  });

  it('marks built-ins Auto-Generated without a delete button; cards expand', async () => {
    setup();
    const builtIn = await screen.findByRole('article', { name: 'Strategic review' });
    expect(builtIn.className).toContain('min-h-[340px]');
    expect(within(builtIn).getByText('Auto-Generated')).toBeInTheDocument();
    expect(within(builtIn).queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
    expect(within(builtIn).getByText('Built-in: cannot be deleted')).toBeInTheDocument();
    const mine = screen.getByRole('article', { name: 'My crew' });
    expect(within(mine).queryByText('Auto-Generated')).not.toBeInTheDocument();
    expect(within(mine).getByRole('button', { name: 'Delete My crew' })).toBeInTheDocument();

    const toggle = within(builtIn).getByRole('button', { name: 'Show details of Strategic review' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(toggle);
    expect(within(builtIn).getByText('Review goals')).toBeInTheDocument();
    expect(within(builtIn).getByRole('button', { name: 'Hide details of Strategic review' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
  });

  it('create dialogs show the spec validation messages', async () => {
    const { callsTo } = setup();
    await screen.findByRole('article', { name: 'Strategic review' });

    await userEvent.click(screen.getByRole('button', { name: 'Create New Agent' }));
    let dialog = await screen.findByRole('dialog', { name: 'Create New Agent' });
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Analyst');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Agent' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Name, role and goal are required');
    await userEvent.type(within(dialog).getByLabelText('Role'), 'Analyst');
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Name, role and goal are required');
    await userEvent.type(within(dialog).getByLabelText('Goal'), 'Find the numbers');
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await userEvent.click(screen.getByRole('button', { name: 'Create New Crew' }));
    dialog = await screen.findByRole('dialog', { name: 'Create New Crew' });
    expect(within(dialog).getByLabelText('Version')).toHaveValue('1.0');
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Board prep');
    await userEvent.clear(within(dialog).getByLabelText('Version'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Crew' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Name and version are required');
    // The message goes once its field is fixed, before the next Save.
    await userEvent.type(within(dialog).getByLabelText('Version'), '2');
    expect(within(dialog).queryByText('Name and version are required')).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await userEvent.click(screen.getByRole('button', { name: 'Create New Tool' }));
    dialog = await screen.findByRole('dialog', { name: 'Create New Tool' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Tool' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Name is required');
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Lookup');
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await userEvent.click(screen.getByRole('button', { name: 'Create New Flow' }));
    dialog = await screen.findByRole('dialog', { name: 'Create New Flow' });
    expect(within(dialog).getByLabelText('Version')).toHaveValue('1.0');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Flow' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Name is required');
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Review');
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();

    expect(callsTo('POST', '/api/agents/')).toHaveLength(0);
    expect(callsTo('POST', '/api/crews/')).toHaveLength(0);
    expect(callsTo('POST', '/api/tools/')).toHaveLength(0);
    expect(callsTo('POST', '/api/flows/')).toHaveLength(0);
  });

  it('creates a crew with ordered tasks, input fields and agents', async () => {
    const { callsTo } = setup(
      {},
      { 'POST /api/crews/': { status: 201, body: crew({ id: 'crew-9', name: 'Board prep' }) } },
    );
    await screen.findByRole('article', { name: 'Strategic review' });
    await userEvent.click(screen.getByRole('button', { name: 'Create New Crew' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create New Crew' });
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Board prep');
    await userEvent.type(within(dialog).getByLabelText('Task 1 name'), 'Gather the numbers');
    await userEvent.type(within(dialog).getByLabelText('Task 1 description'), 'Collect numbers');
    await userEvent.type(within(dialog).getByLabelText('Task 1 expected output'), 'A table');
    await userEvent.selectOptions(within(dialog).getByLabelText('Task 1 agent'), 'agent-1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add task' }));
    await userEvent.type(within(dialog).getByLabelText('Task 2 description'), 'Write the memo');
    await userEvent.click(within(dialog).getByLabelText('Ask a person before task 2'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Move task 2 up' }));
    await userEvent.click(within(dialog).getByLabelText('Requires input before it starts'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add input field' }));
    await userEvent.type(within(dialog).getByLabelText('Field 1 name'), 'quarter');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Crew' }));

    await waitFor(() => expect(callsTo('POST', '/api/crews/')).toHaveLength(1));
    expect(callsTo('POST', '/api/crews/')[0].body).toEqual({
      name: 'Board prep',
      version: '1.0',
      description: null,
      agentIds: ['agent-1'],
      requires_input: true,
      input_fields: [{ name: 'quarter', required: true }],
      tasks: [
        { description: 'Write the memo', expected_output: null, agent_id: null, human_input: true },
        {
          name: 'Gather the numbers',
          description: 'Collect numbers',
          expected_output: 'A table',
          agent_id: 'agent-1',
          human_input: false,
        },
      ],
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('creates a flow with a wait-for-human step', async () => {
    const { callsTo } = setup({}, { 'POST /api/flows/': { status: 201, body: flow({ id: 'flow-9' }) } });
    await screen.findByRole('article', { name: 'Strategic review' });
    await userEvent.click(screen.getByRole('button', { name: 'Create New Flow' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create New Flow' });
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Approval');
    await userEvent.type(within(dialog).getByLabelText('Step 1 title'), 'Draft');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add human step' }));
    await userEvent.type(within(dialog).getByLabelText('Step 2 title'), 'Approve');
    await userEvent.type(within(dialog).getByLabelText('Step 2 question for the person'), 'Ship it?');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Flow' }));
    await waitFor(() => expect(callsTo('POST', '/api/flows/')).toHaveLength(1));
    expect(callsTo('POST', '/api/flows/')[0].body).toEqual({
      name: 'Approval',
      description: null,
      version: '1.0',
      steps: [
        { title: 'Draft', kind: 'agent', prompt: null, agent_id: null, tool_id: null, may_fail: false },
        {
          title: 'Approve',
          kind: 'wait_for_human',
          prompt: 'Ship it?',
          agent_id: null,
          tool_id: null,
          may_fail: false,
        },
      ],
    });
  });

  it.each([
    [
      'crew',
      'My crew',
      '/api/crews/c-mine',
      'Delete Crew',
      'Are you sure you want to delete this crew? Its tasks will be deleted with it. This action cannot be undone.',
    ],
    [
      'agent',
      'My agent',
      '/api/agents/a-mine',
      'Delete Agent',
      'Are you sure you want to delete this agent? Crews and flows that use it can no longer run its steps. This action cannot be undone.',
    ],
    [
      'tool',
      'My tool',
      '/api/tools/t-mine',
      'Delete Tool',
      'Are you sure you want to delete this tool? Agents that use it lose access to it. This action cannot be undone.',
    ],
    [
      'flow',
      'My flow',
      '/api/flows/f-mine',
      'Delete Flow',
      'Are you sure you want to delete this flow? This action cannot be undone.',
    ],
  ])('the %s delete confirmation names its type and deletes', async (_kind, name, path, title, text) => {
    const { callsTo } = setup(
      {
        crews: [crew({ id: 'c-mine', name: 'My crew', ...flags })],
        agents: [agent({ id: 'a-mine', name: 'My agent', ...flags })],
        tools: [tool({ id: 't-mine', name: 'My tool', ...flags })],
        flows: [flow({ id: 'f-mine', name: 'My flow', ...flags })],
      },
      { [`DELETE ${path}`]: { body: { ok: true } } },
    );
    await userEvent.click(await screen.findByRole('button', { name: `Delete ${name}` }));
    const dialog = await screen.findByRole('alertdialog', { name: title });
    expect(dialog).toHaveTextContent(text);
    await userEvent.click(within(dialog).getByRole('button', { name: title }));
    await waitFor(() => expect(callsTo('DELETE', path)).toHaveLength(1));
  });

  it('Run creates a conversation named after the crew and opens it', async () => {
    const { callsTo, router } = setup(
      {},
      { 'POST /api/conversations/': { status: 201, body: { id: 'conv-7', name: 'Strategic review' } } },
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Run Strategic review' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/conversations/conv-7'));
    expect(callsTo('POST', '/api/conversations/')[0].body).toEqual({ name: 'Strategic review' });
    expect(router.state.location.state).toEqual({
      startRun: { kind: 'crew', id: 'crew-1', name: 'Strategic review' },
    });
  });

  it('a failed Run says "Failed to start flow"', async () => {
    setup({}, { 'POST /api/conversations/': { status: 500, body: { detail: 'boom' } } });
    await userEvent.click(await screen.findByRole('button', { name: 'Run Strategic advice flow' }));
    expect(await screen.findByText('Failed to start flow')).toBeInTheDocument();
  });
});
