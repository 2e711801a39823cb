import { expect, test } from '@playwright/test';
import { DASHBOARD, DEMO, loginViaApi, loginViaUi, pathRe } from '../support/auth.ts';
import { CONTACT_EMAIL } from '../support/server.ts';

test.describe('public pages and the sign-in forms', () => {
  test('the landing page pitches the beta, links to Login and Sign Up and shows the contact address', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(page.getByRole('link', { name: /^log ?in$/i }).first()).toBeVisible();
    await expect(page.getByRole('link', { name: /^sign ?up$/i }).first()).toBeVisible();
    await expect(page.locator('footer')).toContainText(CONTACT_EMAIL);
    await page
      .getByRole('link', { name: /^sign ?up$/i })
      .first()
      .click();
    await expect(page).toHaveURL(pathRe('/signup'));
  });

  test('sign-up validation messages', async ({ page }) => {
    await page.goto('/signup');
    const submit = page.getByRole('button', { name: /^(sign up|create account|register)$/i });
    await submit.click();
    await expect(page.getByText('Please fill in all fields.')).toBeVisible();

    await page.getByLabel(/^email/i).fill('someone@e2e.example');
    await page.getByLabel(/^first name/i).fill('Some');
    await page.getByLabel(/^last name/i).fill('One');
    await page.getByLabel(/^password/i).fill('secret-1');
    await page.getByLabel(/^confirm password/i).fill('secret-2');
    await submit.click();
    await expect(page.getByText('Passwords do not match.')).toBeVisible();

    await page.getByLabel(/^password/i).fill('abc');
    await page.getByLabel(/^confirm password/i).fill('abc');
    await submit.click();
    await expect(page.getByText('Password must be at least 6 characters long.')).toBeVisible();
    await expect(page).toHaveURL(pathRe('/signup'));
  });

  test('login validation and a wrong password keep the user on /login', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByLabel(/remember me/i)).toBeVisible();
    await page.getByRole('button', { name: /^(log ?in|sign ?in)$/i }).click();
    await expect(page.getByText('Please enter both email and password.')).toBeVisible();

    await loginViaUi(page, DEMO.maya.email, 'not-the-password', { gotoLogin: false, expectPath: null });
    await expect(page.getByRole('alert').filter({ hasText: /./ }).first()).toBeVisible();
    await expect(page).toHaveURL(pathRe('/login'));
    expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();
  });

  test('a signed-in user opening /login or /signup goes to the dashboard', async ({ page }) => {
    await loginViaApi(page, DEMO.maya.email, DEMO.maya.password);
    await page.goto('/login');
    await expect(page).toHaveURL(pathRe(DASHBOARD));
    await page.goto('/signup');
    await expect(page).toHaveURL(pathRe(DASHBOARD));
  });

  test('"Remember me" signs in and stores the token under authToken', async ({ page }) => {
    await loginViaUi(page, DEMO.leo.email, DEMO.leo.password, { rememberMe: true });
    expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeTruthy();
  });
});
