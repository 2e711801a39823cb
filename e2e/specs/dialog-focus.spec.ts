import { expect, type Page, test } from '@playwright/test';
import { DEMO, loginViaApi } from '../support/auth.ts';

/** Opens a dialog with `opener`, closes it with `close`, and expects focus back on the opener. */
async function focusComesBack(page: Page, opener: string, close: (page: Page) => Promise<void>) {
  const button = page.getByRole('button', { name: opener, exact: true });
  await button.click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await close(page);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(button).toBeFocused();
}

test.describe('dialogs return focus to the control that opened them', () => {
  test.beforeEach(async ({ page }) => {
    await loginViaApi(page, DEMO.ceo.email, DEMO.ceo.password);
  });

  test('Notes: "New entry" closed with Escape, then with Close', async ({ page }) => {
    await page.goto('/app/notes');
    await focusComesBack(page, 'New entry', (p) => p.keyboard.press('Escape'));
    await focusComesBack(page, 'New entry', (p) =>
      p.getByRole('dialog').getByRole('button', { name: 'Close' }).click(),
    );
  });

  test('Contacts: "Add New Contact" closed with Escape', async ({ page }) => {
    await page.goto('/app/contacts');
    await focusComesBack(page, 'Add New Contact', (p) => p.keyboard.press('Escape'));
  });
});
