import { expect, test } from '@playwright/test';
import { apiToken, DEMO, findUserByEmail, loginViaApi, uniqueEmail } from '../support/auth.ts';
import { chooseOption, rowWith, toast } from '../support/ui.ts';

test.describe('Super Admin', () => {
  test.beforeEach(async ({ page }) => {
    await loginViaApi(page, DEMO.admin.email, DEMO.admin.password);
    await page.goto('/app/admin');
    await expect(page.getByRole('heading', { name: /super admin/i })).toBeVisible();
  });

  test('the user table: columns, search and the delete rule', async ({ page }) => {
    for (const col of [/^name$/i, /^email$/i, /^organization$/i, /^role/i, /^created at$/i]) {
      await expect(page.getByRole('columnheader', { name: col })).toBeVisible();
    }
    const search = page
      .getByRole('searchbox')
      .or(page.getByPlaceholder(/search/i))
      .first();

    await search.fill(DEMO.orgName);
    await expect(rowWith(page, DEMO.maya.email)).toBeVisible();
    await expect(rowWith(page, DEMO.leo.email)).toBeVisible();

    await search.fill('Olivia');
    await expect(rowWith(page, DEMO.ceo.email)).toBeVisible();
    await expect(rowWith(page, DEMO.maya.email)).toHaveCount(0);

    await search.fill('no-such-user-anywhere');
    await expect(page.getByText('No users found.')).toBeVisible();

    await search.fill('');
    // Delete is hidden for the current user and for admin or ceo users, offered for the others.
    await expect(rowWith(page, DEMO.admin.email).getByRole('button', { name: /delete/i })).toHaveCount(0);
    await expect(rowWith(page, DEMO.ceo.email).getByRole('button', { name: /delete/i })).toHaveCount(0);
    await expect(rowWith(page, DEMO.maya.email).getByRole('button', { name: /delete/i })).toHaveCount(1);
    await expect(rowWith(page, DEMO.maya.email).getByRole('button', { name: /edit/i })).toHaveCount(1);
  });

  test('Create User makes a waitlisted account by default; Edit User changes its level', async ({
    page,
    request,
  }) => {
    const email = uniqueEmail('created');
    await page.getByRole('button', { name: /^create user$/i }).click();
    const create = page.getByRole('dialog', { name: /create user/i });
    await create.getByLabel(/^email/i).fill(email);
    await create.getByLabel(/^password/i).fill('e2e-password-1');
    await create.getByLabel(/^first name/i).fill('Cora');
    await create.getByLabel(/^last name/i).fill('Created');
    await create.getByRole('button', { name: /^create( user)?$/i }).click();
    await expect(toast(page, 'User Created')).toBeVisible();
    await expect(create).toBeHidden();

    const row = rowWith(page, email);
    await expect(row.getByRole('cell', { name: /^waitlisted$/i })).toBeVisible();

    await row.getByRole('button', { name: /edit/i }).click();
    const edit = page.getByRole('dialog', { name: /edit user/i });
    await expect(edit.getByLabel(/^email/i)).toHaveValue(email);
    await chooseOption(page, edit.getByLabel(/user level/i), /^ceo$/i);
    await edit.getByRole('button', { name: /^(save|save changes|update|update user)$/i }).click();
    await expect(toast(page, 'User Updated')).toBeVisible();
    await expect(row.getByRole('cell', { name: /^ceo$/i })).toBeVisible();

    const adminToken = await apiToken(request, DEMO.admin.email, DEMO.admin.password);
    expect((await findUserByEmail(request, adminToken, email))?.user_level).toBe('ceo');
  });
});

test.describe('Super Admin on a short screen', () => {
  for (const viewport of [
    { width: 375, height: 640 },
    { width: 1366, height: 600 },
  ]) {
    test(`the Edit User dialog fits ${viewport.width}×${viewport.height} with Save in view`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport);
      await loginViaApi(page, DEMO.admin.email, DEMO.admin.password);
      await page.goto('/app/admin');
      await page
        .getByRole('row')
        .filter({ hasText: DEMO.maya.email })
        .getByRole('button', { name: /edit/i })
        .click();
      const dialog = page.getByRole('dialog', { name: 'Edit User' });
      await expect(dialog).toBeVisible();
      // Polled: the dialog zooms in as it opens.
      await expect
        .poll(async () => {
          const box = await dialog.boundingBox();
          return box !== null && box.y >= 0 && box.y + box.height <= viewport.height;
        })
        .toBe(true);
      await expect(dialog.getByRole('button', { name: 'Save changes' })).toBeInViewport({ ratio: 1 });
    });
  }
});
