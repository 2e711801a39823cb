import type { TModelProviders } from '@cc/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';

const NO_KEY = { set: false, last4: null, unreadable: false };
const providers = (over: Partial<TModelProviders> = {}): TModelProviders => ({
  compatible: { source: null, base_url: null, key: NO_KEY },
  openai: { source: null, key: NO_KEY },
  google: { source: null, key: NO_KEY },
  default_model: { model: 'gpt-5-chat', source: null },
  offline: true,
  ...over,
});
const admin = {
  'GET /api/users/me': { body: makeUser({ user_level: 'admin' }) },
  'GET /api/users/': { body: [] },
  'GET /api/organizations': { body: [] },
  'GET /api/admin/model-prices': {
    body: { models: [], endpoint_models: [], offered_models: [], default_price: null },
  },
};

describe('Super Admin → Models', () => {
  it('tests an endpoint (listing its models), then saves it with its key', async () => {
    const saved = providers({
      compatible: {
        source: 'settings',
        base_url: 'http://127.0.0.1:5555/v1',
        key: { set: true, last4: 'abcd', unreadable: false },
      },
      offline: false,
    });
    let current = providers();
    const api = mockApi({
      ...admin,
      'GET /api/admin/model-providers': () => ({ body: current }),
      'POST /api/admin/model-providers/test': { body: { models: ['mock-model', 'other-model'] } },
      'PUT /api/admin/model-providers': () => {
        current = saved;
        return { body: saved };
      },
    });
    renderApp({ path: '/app/admin?tab=models', token: 'tok' });
    const card = await screen.findByRole('region', { name: 'Model providers' });
    await userEvent.type(await within(card).findByLabelText('Base URL'), 'http://127.0.0.1:5555/v1');
    await userEvent.type(within(card).getByLabelText('API key'), 'sk-typed-key-0123abcd');
    await userEvent.click(within(card).getByRole('button', { name: 'Test' }));
    const listed = await within(card).findByTestId('provider-test-models');
    expect(listed).toHaveTextContent('The endpoint lists 2 models:');
    expect(
      within(listed)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['mock-model', 'other-model']);
    expect(api.callsTo('POST', '/api/admin/model-providers/test')[0].body).toEqual({
      base_url: 'http://127.0.0.1:5555/v1',
      api_key: 'sk-typed-key-0123abcd',
    });
    await userEvent.click(within(card).getByRole('button', { name: 'Save provider' }));
    await waitFor(() => expect(api.callsTo('PUT', '/api/admin/model-providers')).toHaveLength(1));
    expect(api.callsTo('PUT', '/api/admin/model-providers')[0].body).toEqual({
      compatible: { base_url: 'http://127.0.0.1:5555/v1', api_key: 'sk-typed-key-0123abcd' },
    });
    expect(await within(card).findByText('Key set, ending in …abcd')).toBeInTheDocument();
    expect(within(card).getByLabelText('API key')).toHaveValue('');
  });

  it("shows a failed test's detail", async () => {
    mockApi({
      ...admin,
      'GET /api/admin/model-providers': { body: providers() },
      'POST /api/admin/model-providers/test': {
        status: 422,
        body: {
          detail:
            'Could not reach 127.0.0.1:9 (ECONNREFUSED): check the base URL and that the server is running.',
        },
      },
    });
    renderApp({ path: '/app/admin?tab=models', token: 'tok' });
    const card = await screen.findByRole('region', { name: 'Model providers' });
    await userEvent.type(await within(card).findByLabelText('Base URL'), 'http://127.0.0.1:9/v1');
    await userEvent.click(within(card).getByRole('button', { name: 'Test' }));
    expect(await within(card).findByRole('alert')).toHaveTextContent(
      'Could not reach 127.0.0.1:9 (ECONNREFUSED)',
    );
  });

  it('shows what the environment sets as read-only rows, without fields', async () => {
    mockApi({
      ...admin,
      'GET /api/admin/model-providers': {
        body: providers({
          compatible: {
            source: 'environment',
            base_url: 'http://gpu:8000/v1',
            key: { set: true, last4: '9876', unreadable: false },
          },
          google: { source: 'environment', key: { set: true, last4: 'wxyz', unreadable: false } },
          default_model: { model: 'gpt-5', source: 'environment' },
          offline: false,
        }),
      },
    });
    renderApp({ path: '/app/admin?tab=models', token: 'tok' });
    const card = await screen.findByRole('region', { name: 'Model providers' });
    const rows = await within(card).findAllByTestId('environment-row');
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('OPENAI_BASE_URL'),
      expect.stringContaining('GOOGLE_GENERATIVE_AI_API_KEY'),
      expect.stringContaining('AI_DEFAULT_MODEL'),
    ]);
    expect(rows[0]).toHaveTextContent('http://gpu:8000/v1 — Key set, ending in …9876.');
    expect(within(card).queryByLabelText('Base URL')).toBeNull();
    expect(within(card).queryByLabelText('Gemini API key')).toBeNull();
    // OpenAI's own key is not set by the environment here: its field stays.
    expect(within(card).getByLabelText('OpenAI API key')).toBeInTheDocument();
  });
});

describe('the offline-engine banner', () => {
  const factory = (level: string, offline: boolean) =>
    mockApi({
      'GET /api/users/me': { body: makeUser({ user_level: level }) },
      'GET /api/models': {
        body: [
          {
            id: 'gpt-5-chat',
            name: 'GPT-5 Chat',
            engine: offline ? 'offline' : 'openai',
            available: true,
            is_default: true,
          },
        ],
      },
      'GET /api/ai/capabilities': { body: { internet_search: false, offline, default_model: 'gpt-5-chat' } },
      'GET /api/crews/': { body: [] },
      'GET /api/agents/': { body: [] },
      'GET /api/tools/': { body: [] },
      'GET /api/flows/': { body: [] },
    });

  it('links the platform admin to Super Admin → Models', async () => {
    factory('admin', true);
    renderApp({ path: '/app/ai-factory', token: 'tok' });
    const banner = await screen.findByTestId('offline-model-banner');
    expect(banner).toHaveTextContent(
      'AI answers come from the built-in offline engine: no model is connected.',
    );
    expect(within(banner).getByRole('link', { name: 'Connect one in Super Admin → Models' })).toHaveAttribute(
      'href',
      '/app/admin?tab=models',
    );
  });

  it('tells everyone else whom to ask, and is gone once a model is connected', async () => {
    factory('ceo', true);
    const { unmount } = renderApp({ path: '/app/ai-factory', token: 'tok' });
    const banner = await screen.findByTestId('offline-model-banner');
    expect(banner).toHaveTextContent('Ask an administrator to connect a model.');
    expect(within(banner).queryByRole('link')).toBeNull();
    unmount();

    factory('ceo', false);
    renderApp({ path: '/app/ai-factory', token: 'tok' });
    expect(await screen.findByText('Available Crews')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('offline-model-banner')).toBeNull());
  });
});
