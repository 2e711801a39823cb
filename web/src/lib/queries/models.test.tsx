import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';
import { readModels } from './models';

const conversation = {
  id: 'c1',
  name: 'Board prep',
  created_at: '2026-03-01T10:00:00.000Z',
  updated_at: '2026-03-01T10:00:00.000Z',
};
const model = (id: string) => ({ id, name: id, engine: 'openai', available: true, is_default: false });

describe('the shared models query', () => {
  it('the model list is filtered to the spec four and falls back to all four', () => {
    const list = [
      { id: 'gpt-5', name: 'GPT-5', engine: 'openai', available: true, is_default: false },
      { id: 'llama3', name: 'llama3', engine: 'openai-compatible', available: true, is_default: false },
    ];
    expect(readModels(list).models).toEqual(['gpt-5']);
    expect(
      readModels({ models: list, capabilities: { internet_search: false, offline: false } }),
    ).toMatchObject({
      models: ['gpt-5'],
      internetSearch: false,
    });
    expect(readModels([]).models).toEqual(['gpt-5-chat', 'gpt-5', 'gpt-5-mini', 'gemini-2.5-pro']);
  });

  // Regression: AI Factory and the chat once cached different shapes under ['models'], so after a
  // visit to the Factory the chat's model select was empty until the entry went stale (5 min).
  it("after AI Factory's model list, the chat's model select (same QueryClient) still lists the models", async () => {
    const api = mockApi({
      'GET /api/users/me': { body: makeUser({ user_level: 'ceo' }) },
      'GET /api/crews/': { body: [] },
      'GET /api/agents/': { body: [] },
      'GET /api/tools/': { body: [] },
      'GET /api/flows/': { body: [] },
      'GET /api/models': { body: [model('gpt-5'), model('gpt-5-mini'), model('not-in-the-spec')] },
      'GET /api/ai/capabilities': {
        body: { internet_search: false, offline: false, default_model: 'gpt-5' },
      },
      'GET /api/conversations/c1': { body: conversation },
      'GET /api/conversations/c1/messages': { body: { items: [], has_more: false, cursor: '0' } },
    });
    const { router } = renderApp({ path: '/app/ai-factory', token: 'tok' });

    // The Factory's agent form offers the served models: the Factory has read (and cached) them.
    await userEvent.click(await screen.findByRole('button', { name: 'Create New Agent' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create New Agent' });
    const factoryModel = within(dialog).getByLabelText('Model');
    await waitFor(() =>
      expect(
        within(factoryModel)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['gpt-5', 'gpt-5-mini']),
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await router.navigate('/app/conversations/c1');
    await screen.findByText('Start a new conversation');
    await userEvent.click(screen.getByRole('button', { name: 'More Settings' }));
    const chatModel = screen.getByLabelText('Model');
    expect(
      within(chatModel)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['gpt-5', 'gpt-5-mini']);
    expect(chatModel).toHaveValue('gpt-5');
    // One cache entry served both screens: the list was read once.
    expect(api.callsTo('GET', '/api/models')).toHaveLength(1);
  });
});
