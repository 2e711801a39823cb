import { expect, test } from '@playwright/test';
import {
  apiToken,
  DASHBOARD,
  DEMO,
  findUserByEmail,
  loginViaUi,
  newUserData,
  pageAs,
  pathRe,
} from '../support/auth.ts';
import { chooseOption, escapeRe, rowWith } from '../support/ui.ts';

test.describe('sign up, waitlist and approval', () => {
  test('a new user signs up, waits, is approved in Super Admin and lands on the dashboard', async ({
    page,
    browser,
    baseURL,
    request,
  }) => {
    const user = newUserData('signup', 'Zara');

    await test.step('sign up → /waitlist thanks the user by name', async () => {
      await page.goto('/signup');
      await page.getByLabel(/^email/i).fill(user.email);
      await page.getByLabel(/^first name/i).fill(user.firstName);
      await page.getByLabel(/^last name/i).fill(user.lastName);
      await page.getByLabel(/^password/i).fill(user.password);
      await page.getByLabel(/^confirm password/i).fill(user.password);
      await page.getByRole('button', { name: /^(sign up|create account|register)$/i }).click();

      await expect(page).toHaveURL(pathRe('/waitlist'));
      await expect(page.getByRole('heading', { name: /you['’]re on the waitlist!/i })).toBeVisible();
      await expect(page.locator('body')).toContainText(user.firstName);
      await expect(page.locator('body')).toContainText(user.email);
      await expect(page.getByRole('button', { name: /logout/i })).toBeVisible();
      // The address is not verified yet; this server has no mail server, so a new link cannot go out.
      await expect(page.getByText('Please confirm your e-mail address')).toBeVisible();
      await page.getByRole('button', { name: 'Send the link again' }).click();
      await expect(page.getByText('Link Not Sent')).toBeVisible();
    });

    await test.step('a waitlisted user is confined to /waitlist', async () => {
      await page.goto('/app/ceodashboard');
      await expect(page).toHaveURL(pathRe('/waitlist'));
    });

    await test.step('the server created the account as waitlisted', async () => {
      const adminToken = await apiToken(request, DEMO.admin.email, DEMO.admin.password);
      const row = await findUserByEmail(request, adminToken, user.email);
      expect(row?.user_level).toBe('waitlisted');
    });
    await page.context().close();

    await test.step('the admin approves the user in Super Admin', async () => {
      const admin = await pageAs(browser, baseURL!, DEMO.admin.email, DEMO.admin.password);
      const p = admin.page;
      await p.goto('/app/admin');
      await expect(p.getByRole('heading', { name: /super admin/i })).toBeVisible();
      const search = p
        .getByRole('searchbox')
        .or(p.getByPlaceholder(/search/i))
        .first();
      await search.fill(user.email);
      const row = rowWith(p, user.email);
      await expect(row).toHaveCount(1);
      await expect(row).toContainText(/waitlisted/i);

      await row.getByRole('button', { name: /approve/i }).click();
      // "Approve" may set the level at once, or open the Edit User dialog to confirm the level.
      const dialog = p.getByRole('dialog');
      await expect(dialog.or(row.filter({ hasNotText: /waitlisted/i })).first()).toBeVisible();
      if (await dialog.isVisible()) {
        await chooseOption(p, dialog.getByLabel(/level/i), /^user$/i);
        await dialog
          .getByRole('button', { name: /^(save|save changes|update|update user|approve)$/i })
          .click();
        await expect(dialog).toBeHidden();
      }
      await expect(row).not.toContainText(/waitlisted/i);
      await expect(row.getByRole('cell', { name: /^user$/i })).toBeVisible();

      const approved = await findUserByEmail(request, admin.token, user.email);
      expect(approved?.user_level).toBe('user');
      await admin.context.close();
    });

    await test.step('the approved user signs in and lands on the dashboard with a greeting', async () => {
      const context = await browser.newContext({ baseURL });
      const p = await context.newPage();
      await loginViaUi(p, user.email, user.password);
      await expect(p).toHaveURL(pathRe(DASHBOARD));
      await expect(p.locator('main')).toContainText(
        new RegExp(`Welcome back,\\s*${escapeRe(user.firstName)}`),
      );
      await context.close();
    });
  });
});
