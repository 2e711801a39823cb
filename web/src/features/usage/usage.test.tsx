import type { TBudget, TMyUsage, TUsageGroup, TUsageSummary } from '@cc/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../../lib/query-client';
import { makeOrg, makeUser } from '../../test/fixtures';
import { mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';
import { BudgetHint } from './components/budget-hint';

const figures = { calls: 3, input_tokens: 300, output_tokens: 120, cost_usd: 4.5 };
const ROWS: Record<TUsageGroup, TUsageSummary['rows']> = {
  day: [{ key: '2026-11-24', label: '2026-11-24', ...figures }],
  user: [{ key: 'u-1', label: 'Maya Chen', ...figures }],
  organization: [{ key: 'org-1', label: 'Northwind Ventures', ...figures }],
  model: [{ key: 'gpt-5', label: 'gpt-5', ...figures }],
  feature: [{ key: 'chat', label: 'chat', ...figures }],
};
const summary = (group: TUsageGroup): TUsageSummary => ({
  group_by: group,
  since: '2026-11-01',
  until: '2026-11-30',
  organization_id: null,
  rows: ROWS[group],
  total: figures,
});
const budget = (over: Partial<TBudget> = {}): TBudget => ({
  monthly_usd: 50,
  used_usd: 4.5,
  remaining_usd: 45.5,
  resets_on: '2026-12-01',
  ...over,
});
const myUsage = (b: TBudget): TMyUsage => ({
  month: '2026-11',
  total: figures,
  by_feature: ROWS.feature,
  by_model: ROWS.model,
  budget: b,
  charged_organization_id: 'org-1',
  run_confirm_usd: 1,
});

describe('Usage & spend on Super Admin', () => {
  it('shows spend per day and the tables of the month; a budget is edited in place', async () => {
    const api = mockApi({
      'GET /api/users/me': { body: makeUser({ user_level: 'admin' }) },
      'GET /api/users/': { body: [] },
      'GET /api/organizations': { body: [makeOrg()] },
      'GET /api/usage/summary': (call) => ({ body: summary(call.search.get('group_by') as TUsageGroup) }),
      'GET /api/organizations/org-1/budget': { body: budget({ used_usd: 42, remaining_usd: 8 }) },
      'PUT /api/organizations/org-1/budget': (call) => ({
        body: budget({ monthly_usd: (call.body as { monthly_usd: number }).monthly_usd }),
      }),
    });
    renderApp({ path: '/app/admin', token: 'tok' });
    await userEvent.click(await screen.findByRole('tab', { name: 'Usage & spend' }));
    expect(await screen.findByText('Spend per day')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Usage & spend' })).toBeInTheDocument();
    const byPerson = await screen.findByRole('region', { name: 'By person' });
    expect(within(byPerson).getByText('Maya Chen')).toBeInTheDocument();
    expect(within(byPerson).getByText('$4.50')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'By model' })).toHaveTextContent('gpt-5');
    expect(screen.getByRole('region', { name: 'By feature' })).toHaveTextContent('chat');
    expect(screen.getByTestId('spend-chart')).toHaveTextContent('2026-11-24: $4.50');
    // The day's bar, drawn once the chart's chunk has loaded, says its day and amount.
    await waitFor(
      () =>
        expect(document.querySelector('[data-day="2026-11-24"] rect title')).toHaveTextContent(
          '2026-11-24: $4.50',
        ),
      { timeout: 8000 },
    );
    // 42 of 50 is 84 %: administrators are warned.
    expect(
      await screen.findByText('Northwind Ventures has used 84% of its monthly AI budget ($42.00 of $50.00).'),
    ).toBeInTheDocument();
    // The month picked is the range asked for.
    const calls = api.callsTo('GET', '/api/usage/summary');
    expect(calls[0].search.get('since')).toMatch(/^\d{4}-\d{2}-01$/);

    const input = screen.getByLabelText('Monthly budget for Northwind Ventures (USD)');
    await waitFor(() => expect(input).toHaveValue('50'));
    await userEvent.clear(input);
    await userEvent.type(input, '75');
    await userEvent.click(
      within(screen.getByRole('region', { name: 'By organization' })).getByRole('button', { name: 'Save' }),
    );
    await waitFor(() => expect(api.callsTo('PUT', '/api/organizations/org-1/budget')).toHaveLength(1));
    expect(api.callsTo('PUT', '/api/organizations/org-1/budget')[0].body).toEqual({ monthly_usd: 75 });
    expect(await screen.findByText('Budget Saved')).toBeInTheDocument();
  });
});

describe('own usage on the Profile page', () => {
  it('shows this month and the remaining budget', async () => {
    mockApi({
      'GET /api/users/me': { body: makeUser() },
      'GET /api/organizations': { body: [] },
      'GET /api/users/me/usage': { body: myUsage(budget()) },
    });
    renderApp({ path: '/app/profile', token: 'tok' });
    expect(await screen.findByText('Your AI usage')).toBeInTheDocument();
    expect(await screen.findByTestId('my-usage-total')).toHaveTextContent(
      'This month: $4.50 in 3 model calls.',
    );
    expect(screen.getByTestId('my-budget')).toHaveTextContent(
      'Remaining budget: $45.50 of $50.00 (resets on 2026-12-01).',
    );
  });
});

describe('remaining budget above the chat box', () => {
  const show = (b: TBudget) => {
    mockApi({ 'GET /api/users/me/usage': { body: myUsage(b) } });
    render(
      <QueryClientProvider client={createQueryClient()}>
        <BudgetHint replying={false} />
      </QueryClientProvider>,
    );
  };

  it('appears under 20 % left', async () => {
    show(budget({ used_usd: 45, remaining_usd: 5 }));
    expect(await screen.findByTestId('budget-hint')).toHaveTextContent(
      'AI budget left this month: $5.00 of $50.00.',
    );
  });

  it('stays hidden with more left, or without a budget', async () => {
    show(budget({ used_usd: 30, remaining_usd: 20 }));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('budget-hint')).not.toBeInTheDocument();
  });
});

describe('the organization AI use is charged to, on the Profile page', () => {
  it('is chosen among the person’s organizations and saved', async () => {
    const api = mockApi({
      'GET /api/users/me': { body: makeUser() },
      'GET /api/organizations': {
        body: [makeOrg(), makeOrg({ id: 'org-2', name: 'Contoso', my_access_level: 'user' })],
      },
      'GET /api/users/me/usage': { body: myUsage(budget()) },
      'PUT /api/users/me/primary-organization': (call) => ({ body: call.body }),
    });
    renderApp({ path: '/app/profile', token: 'tok' });
    const select = await screen.findByLabelText('Charge my AI use to');
    expect(select).toHaveValue('org-1');
    await userEvent.selectOptions(select, 'org-2');
    await waitFor(() => expect(api.callsTo('PUT', '/api/users/me/primary-organization')).toHaveLength(1));
    expect(api.callsTo('PUT', '/api/users/me/primary-organization')[0].body).toEqual({
      organization_id: 'org-2',
    });
  });
});

describe('models and prices on Super Admin', () => {
  it('offers an endpoint model, leaves an unpriced one unpriced and sets the default price', async () => {
    const table = {
      models: [
        { model: 'gpt-5', input_per_million_usd: 1.25, output_per_million_usd: 10, priced: true },
        { model: 'local-llm', input_per_million_usd: 0, output_per_million_usd: 0, priced: false },
      ],
      endpoint_models: ['local-llm'],
      offered_models: [],
      default_price: null,
    };
    const api = mockApi({
      'GET /api/users/me': { body: makeUser({ user_level: 'admin' }) },
      'GET /api/users/': { body: [] },
      'GET /api/organizations': { body: [] },
      'GET /api/usage/summary': (call) => ({ body: summary(call.search.get('group_by') as TUsageGroup) }),
      'GET /api/admin/model-prices': { body: table },
      'PUT /api/admin/model-prices': { body: table },
      'GET /api/admin/model-providers': {
        body: {
          compatible: { source: null, base_url: null, key: { set: false, last4: null, unreadable: false } },
          openai: { source: null, key: { set: false, last4: null, unreadable: false } },
          google: { source: null, key: { set: false, last4: null, unreadable: false } },
          default_model: { model: 'gpt-5-chat', source: null },
          offline: true,
        },
      },
    });
    renderApp({ path: '/app/admin', token: 'tok' });
    // The prices card sits on the Models tab, below the providers (issue 47 item 3).
    await userEvent.click(await screen.findByRole('tab', { name: 'Models' }));
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Offer local-llm' }));
    await userEvent.type(screen.getByLabelText('Default input price'), '0.5');
    await userEvent.type(screen.getByLabelText('Default output price'), '2');
    await userEvent.click(screen.getByRole('button', { name: 'Save models' }));
    await waitFor(() => expect(api.callsTo('PUT', '/api/admin/model-prices')).toHaveLength(1));
    expect(api.callsTo('PUT', '/api/admin/model-prices')[0].body).toEqual({
      models: [{ model: 'gpt-5', input_per_million_usd: 1.25, output_per_million_usd: 10 }],
      offered_models: ['local-llm'],
      default_price: { input_per_million_usd: 0.5, output_per_million_usd: 2 },
    });
    expect(await screen.findByText('Models Saved')).toBeInTheDocument();
  });
});
