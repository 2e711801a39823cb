import { expect } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { type MockOpenAI, startMockOpenAI } from '../../../test/mock-openai.ts';

/** Shared by the advice and task-suggestion tests (not a test file itself). */

/** The date `offset` days from today (YYYY-MM-DD). */
export const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

export interface ProviderWorkspace {
  mock: MockOpenAI;
  t: TestApp;
  ceo: TestUser;
  /** The lagging KPI "EU customers" (1 of 5) of the ceo's goal "Expand to Europe", due in 30 days. */
  kpiId: string;
  close(): Promise<void>;
}

/** An app whose models are served by the mock OpenAI-compatible server, with a ceo behind on one KPI. */
export async function startProviderWorkspace(env: Record<string, string> = {}): Promise<ProviderWorkspace> {
  const mock = await startMockOpenAI({ models: ['gpt-5-chat'] });
  const t = await createTestApp({ OPENAI_BASE_URL: mock.url, OPENAI_API_KEY: 'test-key', ...env });
  const ceo = await t.createUser('ceo');
  const goal = await t.req({
    method: 'POST',
    url: '/api/strategic-goals/',
    token: ceo.token,
    body: {
      title: 'Expand to Europe',
      start_date: day(-335),
      due_date: day(30),
      kpis: [{ name: 'EU customers', current_value: 1, target_value: 5 }],
    },
  });
  expect(goal.statusCode, goal.body).toBe(201);
  return {
    mock,
    t,
    ceo,
    kpiId: goal.json().kpis[0].id as string,
    close: async () => {
      await t.close();
      await mock.close();
    },
  };
}
