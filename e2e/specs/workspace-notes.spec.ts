import { expect, type Page, test } from '@playwright/test';
import { DEMO, loginViaApi } from '../support/auth.ts';
import { expectNoSeriousA11yViolations } from '../support/axe.ts';
import { toast } from '../support/ui.ts';

async function openNotes(page: Page) {
  await page.goto('/app/notes');
  await expect(page.getByRole('heading', { name: 'Notes', level: 1 })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Loading notes' })).toHaveCount(0);
}

test.describe('notes', () => {
  test.beforeEach(async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce', colorScheme: 'dark' });
  });

  test('write a markdown note, find it by search, and delete it', async ({ page }, testInfo) => {
    const marker = `e2e-note-${Date.now().toString(36)}`;
    await loginViaApi(page, DEMO.maya.email, DEMO.maya.password);
    await openNotes(page);

    await test.step('write an entry: Save stays disabled until there is content', async () => {
      await page.getByRole('button', { name: 'New entry' }).click();
      const dialog = page.getByRole('dialog', { name: 'New note entry' });
      const save = dialog.getByRole('button', { name: 'Save entry' });
      await expect(save).toBeDisabled();
      await dialog.getByLabel('Content').fill(`## Offsite plan\n\nAgenda for **${marker}**`);
      await dialog.getByRole('button', { name: 'Preview' }).click();
      await expect(dialog.getByRole('heading', { name: 'Offsite plan' })).toBeVisible();
      await expectNoSeriousA11yViolations(page, testInfo);
      await save.click();
      await expect(dialog).toBeHidden();
      await expect(toast(page, 'Note entry created.')).toBeVisible();
      await expect(page.getByText(marker)).toBeVisible();
    });

    await test.step('search finds it, and a miss says so', async () => {
      await page.getByLabel('Search').fill(marker.toUpperCase());
      await expect(page.getByTestId('note-content')).toHaveCount(1);
      await expect(page.getByTestId('note-content')).toContainText(marker);
      await page.getByLabel('Search').fill(`${marker}-nothing`);
      await expect(page.getByText('No entries match these filters.')).toBeVisible();
      await page.getByLabel('Search').fill(marker);
      await expect(page.getByTestId('note-content')).toHaveCount(1);
    });

    await test.step('the page passes axe with data', async () => {
      await expectNoSeriousA11yViolations(page, testInfo);
    });

    await test.step('delete it after confirmation', async () => {
      await page.getByRole('button', { name: /^Delete entry of / }).click();
      const confirm = page.getByRole('alertdialog');
      await confirm.getByRole('button', { name: 'Delete entry' }).click();
      await expect(toast(page, 'Note entry deleted.')).toBeVisible();
      await expect(page.getByText('No entries match these filters.')).toBeVisible();
      await page.reload();
      await page.getByLabel('Search').fill(marker);
      await expect(page.getByText('No entries match these filters.')).toBeVisible();
    });
  });
});
