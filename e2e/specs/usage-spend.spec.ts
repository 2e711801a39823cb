import { expect, test } from '@playwright/test';
import { apiToken, bearer, DEMO, getMe, loginViaApi, pageAs } from '../support/auth.ts';
import { toast } from '../support/ui.ts';

/** Starts a conversation as the page's user and sends one message; returns the message box. */
async function chatOnce(page: import('@playwright/test').Page, text: string) {
  await page.goto('/app/run');
  await page.getByRole('button', { name: 'New Interaction' }).click();
  await expect(page).toHaveURL(/\/app\/conversations\/[0-9a-f-]{36}$/);
  const input = page.getByLabel('Message', { exact: true });
  await input.fill(text);
  await input.press('Enter');
  return input;
}

test.describe('spend governance', () => {
  test('an admin sets a budget; the member hits it in chat and sees why', async ({
    page,
    browser,
    baseURL,
    request,
  }) => {
    const ceoToken = await apiToken(request, DEMO.ceo.email, DEMO.ceo.password);
    const leo = await getMe(request, await apiToken(request, DEMO.leo.email, DEMO.leo.password));
    const orgs = (await (await request.get('/api/organizations', { headers: bearer(ceoToken) })).json()) as {
      id: string;
      name: string;
    }[];
    const org = orgs.find((o) => o.name === DEMO.orgName);
    expect(org).toBeTruthy();
    const budgetUrl = `/api/organizations/${org?.id}/users/${leo.id}/budget`;
    try {
      // Leo uses the AI once, so he shows in his organization's spend table.
      const member = await pageAs(browser, baseURL as string, DEMO.leo.email, DEMO.leo.password);
      await chatOnce(member.page, 'What should I focus on today?');
      await expect(member.page.locator('[data-sender="assistant"]').first()).toHaveAttribute(
        'data-status',
        'complete',
        { timeout: 30_000 },
      );

      await test.step("the organization's admin sets Leo's monthly budget on the Usage & spend tab", async () => {
        await loginViaApi(page, DEMO.ceo.email, DEMO.ceo.password);
        await page.goto('/app/organization');
        // One tab per organization she administers (another spec may have made her a second one).
        await page.getByRole('tab', { name: /^Usage & spend(: Northwind Ventures)?$/ }).click();
        const people = page.getByRole('region', { name: 'By person' });
        const name = `${DEMO.leo.firstName} ${DEMO.leo.lastName}`;
        await expect(people.getByRole('cell', { name, exact: true })).toBeVisible();
        const input = people.getByLabel(`Monthly budget for ${name} (USD)`);
        await input.fill('0');
        await people
          .getByRole('row', { name: new RegExp(name) })
          .getByRole('button', { name: 'Save' })
          .click();
        await expect(toast(page, 'Budget Saved')).toBeVisible();
      });

      await test.step('Leo sends a message: refused with the budget message', async () => {
        const input = await chatOnce(member.page, 'One more question');
        await expect(
          member.page.getByText(/^Monthly AI budget reached: \$0\.00 of \$0\.00 used; it resets on 1 \w+\.$/),
        ).toBeVisible();
        // The message comes back into the box, unsent.
        await expect(input).toHaveValue('One more question');
        await expect(member.page.getByTestId('budget-hint')).toContainText(
          'AI budget left this month: $0.00 of $0.00.',
        );
      });
      await member.context.close();
    } finally {
      await request.put(budgetUrl, { headers: bearer(ceoToken), data: { monthly_usd: null } });
    }
  });

  test("the Super Admin's usage chart shows today's spend", async ({ page }) => {
    await loginViaApi(page, DEMO.admin.email, DEMO.admin.password);
    await page.goto('/app/admin');
    await page.getByRole('tab', { name: 'Usage & spend' }).click();
    const chart = page.getByTestId('spend-chart');
    await expect(chart.locator('svg')).toBeVisible();
    const today = new Date().toISOString().slice(0, 10);
    // The day's bar is on the axis, and the chart's text alternative names the day and its spend.
    await expect(chart.locator('svg').getByText(today.slice(8), { exact: true })).toBeVisible();
    await expect(chart.locator(`g[data-day="${today}"] rect title`)).toHaveText(
      /^\d{4}-\d{2}-\d{2}: \$\d+\.\d{2,4}$/,
    );
    await expect(chart.locator('figcaption')).toContainText(`${today}: $`);
    await expect(page.getByTestId('usage-total')).toContainText('model calls');
    await expect(page.getByRole('region', { name: 'By feature' })).toContainText('Chat');
  });

  test('the Super Admin sets the default price of unpriced endpoint models on the Models tab', async ({
    page,
    request,
  }) => {
    const adminToken = await apiToken(request, DEMO.admin.email, DEMO.admin.password);
    try {
      await loginViaApi(page, DEMO.admin.email, DEMO.admin.password);
      await page.goto('/app/admin');
      // The prices card sits on Super Admin's Models tab (issue 47 item 3), beside the providers.
      await page.getByRole('tab', { name: 'Models' }).click();
      const card = page.getByRole('region', { name: 'Models and prices' });
      await expect(card.getByRole('cell', { name: 'gpt-5-mini', exact: true })).toBeVisible();
      // The built-in models are always offered.
      await expect(card.getByRole('row', { name: /gpt-5-mini/ })).toContainText('Always');
      await card.getByLabel('Default input price').fill('0.5');
      await card.getByLabel('Default output price').fill('2');
      await card.getByRole('button', { name: 'Save models' }).click();
      await expect(toast(page, 'Models Saved')).toBeVisible();
      await page.reload();
      await page.getByRole('tab', { name: 'Models' }).click();
      await expect(page.getByLabel('Default output price')).toHaveValue('2');
      const table = await (
        await request.get('/api/admin/model-prices', { headers: bearer(adminToken) })
      ).json();
      expect(table.default_price).toEqual({ input_per_million_usd: 0.5, output_per_million_usd: 2 });
    } finally {
      await request.put('/api/admin/model-prices', {
        headers: bearer(adminToken),
        data: { models: [], default_price: null },
      });
    }
  });
});
