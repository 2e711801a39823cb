import { expect, type Page, test } from '@playwright/test';
import { DEMO, loginViaApi } from '../support/auth.ts';
import { expectNoSeriousA11yViolations } from '../support/axe.ts';
import { toast } from '../support/ui.ts';

async function openContacts(page: Page) {
  await page.goto('/app/contacts');
  await expect(page.getByRole('heading', { name: 'Contacts Directory' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Loading contacts' })).toHaveCount(0);
}

test.describe('contacts directory', () => {
  test.beforeEach(async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce', colorScheme: 'dark' });
  });

  test('create a contact with two e-mails, work its interactions and notes, then delete it', async ({
    page,
  }, testInfo) => {
    const stamp = Date.now().toString(36);
    const name = `Grace Hopper ${stamp}`;
    const email1 = `grace-${stamp}@navy.example`;
    const email2 = `g.hopper-${stamp}@home.example`;
    await loginViaApi(page, DEMO.ceo.email, DEMO.ceo.password);
    await openContacts(page);

    await test.step('the directory passes axe', async () => {
      await expectNoSeriousA11yViolations(page, testInfo);
    });

    await test.step('create the contact with two e-mail addresses', async () => {
      await page.getByRole('button', { name: 'Add New Contact' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create New Contact' });
      await dialog.getByRole('button', { name: 'Create Contact' }).click();
      await expect(dialog.getByText('Name is required.')).toBeVisible();
      await dialog.getByLabel('Name', { exact: true }).fill(name);
      await dialog.getByLabel('Role/Title').fill('  Rear Admiral  ');
      await dialog.getByLabel('Email address 1', { exact: true }).fill(email1);
      await dialog.getByRole('button', { name: 'Add email address' }).click();
      await dialog.getByLabel('Email address 2', { exact: true }).fill(email2);
      await dialog.getByLabel('Phone number 1', { exact: true }).fill('+1 555 0142');
      await expect(dialog.getByText('(Owner)')).toBeVisible();
      await expectNoSeriousA11yViolations(page, testInfo);
      await dialog.getByRole('button', { name: 'Create Contact' }).click();
      await expect(dialog).toBeHidden();
      const card = page.getByRole('button', { name });
      await expect(card).toBeVisible();
      await expect(card).toContainText('Rear Admiral');
      await expect(card).toContainText(email1);
      await expect(card).toContainText(`Shared with: ${DEMO.orgName}`);
      // new contacts appear at the top, whatever their name
      await expect(page.getByTestId('contact-card').first()).toContainText(name);
    });

    await test.step('search by the second e-mail, case-insensitively, on the server', async () => {
      const searched = page.waitForRequest(
        (r) =>
          r.url().includes('/api/contacts/') &&
          new URL(r.url()).searchParams.get('search') === email2.toUpperCase(),
      );
      await page.getByLabel('Search contacts').fill(email2.toUpperCase());
      await searched;
      await expect(page.getByTestId('contact-card')).toHaveCount(1);
      await expect(page.getByRole('button', { name })).toBeVisible();
      await page.getByLabel('Search contacts').fill(`${stamp}-nobody`);
      await expect(page.getByText('No contacts match your search.')).toBeVisible();
      await page.getByLabel('Search contacts').fill(email2.toUpperCase());
      await expect(page.getByTestId('contact-card')).toHaveCount(1);
    });

    const detail = page.getByRole('dialog', { name: new RegExp(name) });

    await test.step('open it from the keyboard; the dialog passes axe', async () => {
      await page.getByRole('button', { name }).focus();
      await page.keyboard.press('Enter');
      await expect(detail).toBeVisible();
      await expect(detail.getByText('No past interactions recorded.')).toBeVisible();
      await expect(detail.getByText('No general notes.')).toBeVisible();
      await expectNoSeriousA11yViolations(page, testInfo);
    });

    await test.step('add a past interaction, then edit it', async () => {
      await detail.getByRole('button', { name: 'Add Interaction' }).click();
      const add = page.getByRole('dialog', { name: 'Add New Interaction' });
      await expect(add.getByRole('button', { name: 'Add Interaction' })).toBeDisabled();
      await add.getByLabel('Date').fill('2026-02-10');
      await add.getByLabel('Title').fill('Compiler review');
      await add.getByLabel('Content').fill('Discussed COBOL.');
      await add.getByRole('button', { name: 'Add Interaction' }).click();
      await expect(add).toBeHidden();
      await expect(detail.getByText('Compiler review')).toBeVisible();

      await detail.getByRole('button', { name: 'Edit interaction Compiler review' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit Past Interaction' });
      await expect(edit.getByLabel('Content')).toHaveValue('Discussed COBOL.');
      await edit.getByLabel('Title').fill('Compiler review, round two');
      await edit.getByRole('button', { name: 'Save Interaction' }).click();
      await expect(edit).toBeHidden();
      await expect(detail.getByText('Compiler review, round two')).toBeVisible();
    });

    await test.step('edit the general notes inline: saved on blur', async () => {
      await detail.getByRole('button', { name: /No general notes\./ }).click();
      await detail.getByRole('textbox', { name: 'General Notes' }).fill('Prefers nanoseconds on a wire.');
      await detail.getByRole('heading', { name: 'Past Interactions' }).click();
      await expect(detail.getByText('Prefers nanoseconds on a wire.')).toBeVisible();
      await page.reload();
      await page.getByRole('button', { name }).click();
      await expect(detail.getByText('Prefers nanoseconds on a wire.')).toBeVisible();
      await expect(detail.getByText('Compiler review, round two')).toBeVisible();
    });

    await test.step('delete the interaction, then the contact', async () => {
      await detail.getByRole('button', { name: 'Delete interaction Compiler review, round two' }).click();
      const confirmI = page.getByRole('alertdialog', { name: 'Delete Interaction' });
      await confirmI.getByRole('button', { name: 'Delete' }).click();
      await expect(detail.getByText('No past interactions recorded.')).toBeVisible();

      await detail.getByRole('button', { name: 'Delete Contact' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Confirm Contact Deletion' });
      await expect(
        confirm.getByText('Are you sure you want to delete this contact? This action cannot be undone.'),
      ).toBeVisible();
      await confirm.getByRole('button', { name: 'Delete Contact' }).click();
      await expect(detail).toBeHidden();
      await expect(page.getByRole('button', { name })).toHaveCount(0);
      await expect(toast(page, 'Contact deleted')).toBeVisible();
    });
  });
});

test.describe('contacts grid', () => {
  test.use({ viewport: { width: 1366, height: 850 } });

  test('the cards of a row show their names at the same height', async ({ page }) => {
    await loginViaApi(page, DEMO.ceo.email, DEMO.ceo.password);
    await openContacts(page);
    const cards = page.getByTestId('contact-card');
    await expect(cards.first()).toBeVisible();
    const rows = new Map<number, number[]>();
    for (const card of await cards.all()) {
      const box = await card.boundingBox();
      const nameId = await card.getAttribute('aria-labelledby');
      const name = await page.locator(`[id="${nameId}"]`).boundingBox();
      if (!box || !name) continue;
      const top = Math.round(box.y);
      rows.set(top, [...(rows.get(top) ?? []), Math.round(name.y - box.y)]);
    }
    const shared = [...rows.values()].filter((offsets) => offsets.length > 1);
    expect(shared.length, 'at least one row holds several cards').toBeGreaterThan(0);
    for (const offsets of shared) expect(new Set(offsets).size, `name offsets ${offsets}`).toBe(1);
  });
});
