import { expect, test } from '@playwright/test';
import { startOidcProvider, type TestOidcProvider } from '../../server/test/oidc-provider.ts';
import { DEMO_PASSWORD, type RunningServer, startBuiltServer } from '../support/server.ts';

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

  test('an existing account is linked only once its password is typed', async ({ page }) => {
    // The demo ceo's e-mail is verified here, but nobody signed in with its password since: the
    // provider alone does not make the account the visitor's.
    await page.goto(`${app.baseURL}/login`);
    await page.getByRole('link', { name: 'Sign in with Acme ID' }).click();
    await page.locator('input[name="login"]').fill('ceo@demo.example');
    await page.locator('input[name="password"]').fill('anything');
    await page.locator('button[type="submit"]').click();
    await page.locator('button[type="submit"]').click();
    await expect(page.getByRole('heading', { name: 'Link single sign-on' })).toBeVisible();
    await page.getByLabel('Password of the existing account').fill('not-the-password');
    await page.getByRole('button', { name: 'Link and sign in' }).click();
    await expect(page.getByRole('alert')).toContainText('Incorrect password');
    await page.getByLabel('Password of the existing account').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Link and sign in' }).click();
    await expect(page).toHaveURL(/\/app\//);
    await page.goto(`${app.baseURL}/app/profile`);
    await expect(page.getByLabel('Email')).toHaveValue('ceo@demo.example');
  });
});
