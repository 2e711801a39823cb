import { expect, test } from '@playwright/test';
import { startOidcProvider, type TestOidcProvider } from '../../server/test/oidc-provider.ts';
import { type RunningServer, startBuiltServer } from '../support/server.ts';

/**
 * Single sign-on through a real OpenID Connect provider's own pages: this journey starts its own app
 * (configured with the provider) beside the shared one.
 */
test.describe('single sign-on', () => {
  let idp: TestOidcProvider;
  let app: RunningServer;

  test.beforeAll(async () => {
    idp = await startOidcProvider();
    app = await startBuiltServer({
      OIDC_ISSUER_URL: idp.issuer,
      OIDC_CLIENT_ID: idp.clientId,
      OIDC_CLIENT_SECRET: idp.clientSecret,
      OIDC_BUTTON_LABEL: 'Acme ID',
      OIDC_ALLOWED_DOMAINS: 'acme.example',
    });
    idp.serve(`${app.baseURL}/api/auth/oidc/callback`);
  });
  test.afterAll(async () => {
    await app?.stop();
    await idp?.close();
  });

  test('signs in through the provider’s login page and lands in the app', async ({ page }) => {
    await page.goto(`${app.baseURL}/login`);
    await page.getByRole('link', { name: 'Sign in with Acme ID' }).click();
    // The provider's development login page: any login name is an account of that name.
    await page.locator('input[name="login"]').fill('dana@acme.example');
    await page.locator('input[name="password"]').fill('anything');
    await page.locator('button[type="submit"]').click();
    // Its consent page.
    await page.locator('button[type="submit"]').click();
    await expect(page).toHaveURL(/\/app\//);
    await page.goto(`${app.baseURL}/app/profile`);
    await expect(page.getByLabel('Email')).toHaveValue('dana@acme.example');
  });

  test('a first sign-in from another domain waits on the waitlist', async ({ page }) => {
    await page.goto(`${app.baseURL}/login`);
    await page.getByRole('link', { name: 'Sign in with Acme ID' }).click();
    await page.locator('input[name="login"]').fill('visitor@elsewhere.example');
    await page.locator('input[name="password"]').fill('anything');
    await page.locator('button[type="submit"]').click();
    await page.locator('button[type="submit"]').click();
    await expect(page).toHaveURL(/\/waitlist/);
  });
});
