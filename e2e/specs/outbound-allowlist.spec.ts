import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from '../support/axe.ts';
import { apiToken, bearer, DEMO, loginViaApi } from '../support/auth.ts';
import { toast } from '../support/ui.ts';

const PATH = '/api/admin/outbound-allowlist';

/**
 * Super Admin → Outbound calls (issue 46 row 5): the platform admin lists a side-effect-free
 * destination, finds it again after a reload, and removes it. The destination is unique to the run so
 * the shared app's other journeys (whose model-chosen calls wait for approval) are not affected.
 */
test('the admin adds a side-effect-free destination, sees it after a reload, and removes it', async ({
  page,
  request,
}, testInfo) => {
  const destination = `https://lookup-${Date.now().toString(36)}.example.com/v1/search`;
  await loginViaApi(page, DEMO.admin.email, DEMO.admin.password);
  try {
    await page.goto('/app/admin');
    await page.getByRole('tab', { name: 'Outbound calls' }).click();
    const card = page.getByRole('region', { name: 'Side-effect-free destinations' });
    await expect(card).toContainText(
      "Calls an AI tool makes with arguments a model chose wait for a person's approval unless their method and destination are listed here as side-effect-free.",
    );

    await test.step('a destination with a query is refused with the server’s message', async () => {
      await card.getByLabel('Destination', { exact: true }).fill(`${destination}?q=1`);
      await card.getByRole('button', { name: 'Add destination' }).click();
      await expect(card.getByText('A destination is an http(s) address without query')).toBeVisible();
    });

    await test.step('the admin adds it and it is listed', async () => {
      await card.getByLabel('Method').selectOption('POST');
      await card.getByLabel('Destination', { exact: true }).fill(destination);
      await card.getByLabel('Note (optional)').fill('read-only search');
      await card.getByRole('button', { name: 'Add destination' }).click();
      await expect(toast(page, 'Outbound Calls Saved').first()).toBeVisible();
      await expect(card.getByTestId('outbound-allowlist-row').filter({ hasText: destination })).toContainText(
        'read-only search',
      );
      await expectNoSeriousA11yViolations(page, testInfo);
    });

    await test.step('it is still there after a reload, and Remove takes it off', async () => {
      await page.reload();
      await page.getByRole('tab', { name: 'Outbound calls' }).click();
      const row = card.getByTestId('outbound-allowlist-row').filter({ hasText: destination });
      await expect(row).toContainText('POST');
      await row.getByRole('button', { name: `Remove POST ${destination}` }).click();
      await expect(row).toHaveCount(0);
    });
  } finally {
    // Whatever happened above, leave the shared list without this destination.
    const token = await apiToken(request, DEMO.admin.email, DEMO.admin.password);
    const res = await request.get(PATH, { headers: bearer(token) });
    const { entries } = (await res.json()) as {
      entries: { method: string; destination: string; note: string | null }[];
    };
    const kept = entries.filter((e) => e.destination !== destination);
    if (kept.length !== entries.length)
      await request.put(PATH, {
        headers: bearer(token),
        data: { entries: kept.map(({ method, destination: d, note }) => ({ method, destination: d, note })) },
      });
  }
});
