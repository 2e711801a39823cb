import { expect, test } from '@playwright/test';
import { type MockOpenAI, startMockOpenAI } from '../../server/test/mock-openai.ts';
import { DEMO, pageAs } from '../support/auth.ts';
import { type RunningServer, startBuiltServer } from '../support/server.ts';
import { toast } from '../support/ui.ts';

/**
 * Super Admin → Models (issue 47 item 3): the admin connects a model server from the screen and a chat
 * answers with it. The journey starts its own app (a model server on loopback must be allow-listed, and
 * the shared app stays on the offline engine for the other journeys) beside a mock OpenAI-compatible
 * server.
 */
test.describe('models from the screen', () => {
  let mock: MockOpenAI;
  let app: RunningServer;

  test.beforeAll(async () => {
    // gpt-5-chat is not among its models: the chat's gpt-5-chat is answered by the default model.
    mock = await startMockOpenAI({ models: ['other-model', 'mock-model'] });
    app = await startBuiltServer({ AI_HTTP_ALLOWLIST: '127.0.0.1' });
  });
  test.afterAll(async () => {
    await app?.stop();
    await mock?.close();
  });

  test('the admin connects an endpoint, offers and prices a model, makes it default, and chat uses it', async ({
    browser,
  }) => {
    const { context, page } = await pageAs(browser, app.baseURL, DEMO.admin.email, DEMO.admin.password);
    try {
      await test.step('the AI Factory says only the offline engine answers, and links to Models', async () => {
        await page.goto('/app/ai-factory');
        const banner = page.getByTestId('offline-model-banner');
        await expect(banner).toContainText('AI answers come from the built-in offline engine');
        await banner.getByRole('link', { name: 'Connect one in Super Admin → Models' }).click();
        await expect(page.getByRole('tab', { name: 'Models' })).toHaveAttribute('aria-selected', 'true');
      });

      const providers = page.getByRole('region', { name: 'Model providers' });
      await test.step('Test lists the endpoint’s models; Save keeps the key write-only', async () => {
        await providers.getByLabel('Base URL').fill(mock.url);
        await providers.getByLabel('API key', { exact: true }).fill('sk-e2e-screen-key-7788');
        await providers.getByRole('button', { name: 'Test' }).click();
        const listed = providers.getByTestId('provider-test-models');
        await expect(listed).toContainText('The endpoint lists 2 models');
        await expect(listed.getByRole('listitem')).toHaveText(['other-model', 'mock-model']);
        await providers.getByRole('button', { name: 'Save provider' }).click();
        await expect(toast(page, 'Models Saved').first()).toBeVisible();
        await expect(providers.getByText('Key set, ending in …7788')).toBeVisible();
        await expect(providers.getByLabel('API key', { exact: true })).toHaveValue('');
      });

      await test.step('the model is offered and priced on the Models and prices card', async () => {
        const prices = page.getByRole('region', { name: 'Models and prices' });
        await prices.getByRole('checkbox', { name: 'Offer mock-model' }).check();
        await prices.getByLabel('Input price of mock-model').fill('0.1');
        await prices.getByLabel('Output price of mock-model').fill('0.2');
        await prices.getByRole('button', { name: 'Save models' }).click();
        await expect(toast(page, 'Prices and offered models updated.')).toBeVisible();
      });

      await test.step('it becomes the default model', async () => {
        const select = providers.getByRole('combobox', { name: 'Default model' });
        await expect(select.locator('option', { hasText: 'mock-model' })).toHaveCount(1);
        await select.selectOption('mock-model');
        await providers.getByRole('button', { name: 'Set default' }).click();
        await expect(toast(page, 'The default model is mock-model.')).toBeVisible();
      });

      await test.step('a conversation answers with the mock model, and the banner is gone', async () => {
        await page.goto('/app/run');
        await page.getByRole('button', { name: 'New Interaction' }).click();
        await expect(page).toHaveURL(/\/app\/conversations\/[0-9a-f-]{36}$/);
        const input = page.getByLabel('Message', { exact: true });
        await input.fill('Hello there');
        await input.press('Enter');
        const reply = page
          .getByRole('log', { name: 'Messages' })
          .locator('[data-sender="assistant"]')
          .first();
        await expect(reply).toHaveAttribute('data-status', 'complete', { timeout: 30_000 });
        await expect(reply).toContainText('Hello from the mock model.');
        await expect(page.getByTestId('offline-model-banner')).toHaveCount(0);
        const sent = mock.chatRequests().at(-1);
        expect(sent?.body?.model).toBe('mock-model');
        expect(sent?.headers.authorization).toBe('Bearer sk-e2e-screen-key-7788');
      });
    } finally {
      await context.close();
    }
  });
});
