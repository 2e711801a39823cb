import { expect, type Page, test } from '@playwright/test';
import { DEMO, loginViaApi, newUserData } from '../support/auth.ts';
import { expectNoSeriousA11yViolations } from '../support/axe.ts';

/** Open a page, wait until it has rendered its data, then scan it. */
async function settle(page: Page, path: string, heading: RegExp) {
  await page.goto(path);
  await expect(page.getByRole('heading', { name: heading }).first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  // No skeletons left.
  await expect(page.locator('[data-slot="skeleton"], .animate-pulse')).toHaveCount(0);
}

test.describe('accessibility (axe, WCAG 2 A/AA): no serious or critical violation', () => {
  test.beforeEach(async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce', colorScheme: 'dark' });
  });

  const publicPages: [string, RegExp][] = [
    ['/', /./],
    ['/login', /welcome back|log ?in|sign ?in/i],
    ['/signup', /sign ?up|create|request|beta/i],
  ];
  for (const [path, heading] of publicPages) {
    test(`public page ${path}`, async ({ page }, testInfo) => {
      await settle(page, path, heading);
      await expectNoSeriousA11yViolations(page, testInfo);
    });
  }

  test('waitlist page /waitlist', async ({ page, request }, testInfo) => {
    const user = newUserData('a11y-waitlist', 'Wes');
    const res = await request.post('/api/users/register', {
      data: {
        email: user.email,
        password: user.password,
        first_name: user.firstName,
        last_name: user.lastName,
      },
    });
    expect(res.status(), `POST /api/users/register: ${await res.text()}`).toBeLessThan(300);
    await loginViaApi(page, user.email, user.password);
    await settle(page, '/waitlist', /you['’]re on the waitlist!/i);
    await expect(page.locator('body')).toContainText(user.firstName);
    await expectNoSeriousA11yViolations(page, testInfo);
  });

  const appPages: [string, RegExp, keyof typeof DEMO][] = [
    ['/app/ceodashboard', /welcome back,/i, 'ceo'],
    ['/app/profile', /profile/i, 'maya'],
    ['/app/organization', /organization/i, 'ceo'],
    ['/app/admin', /super admin/i, 'admin'],
  ];
  for (const [path, heading, who] of appPages) {
    test(`app page ${path} (as ${who})`, async ({ page }, testInfo) => {
      const account = DEMO[who] as { email: string; password: string };
      await loginViaApi(page, account.email, account.password);
      await settle(page, path, heading);
      await expectNoSeriousA11yViolations(page, testInfo);
    });
  }
});

test.describe('accessibility of the dialogs in these journeys', () => {
  test.beforeEach(async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce', colorScheme: 'dark' });
  });

  test('Super Admin with the Edit User dialog open', async ({ page }, testInfo) => {
    await loginViaApi(page, DEMO.admin.email, DEMO.admin.password);
    await settle(page, '/app/admin', /super admin/i);
    await page
      .getByRole('row')
      .filter({ hasText: DEMO.maya.email })
      .getByRole('button', { name: /edit/i })
      .click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectNoSeriousA11yViolations(page, testInfo);
  });

  test('Organization with the Add member dialog open', async ({ page }, testInfo) => {
    await loginViaApi(page, DEMO.ceo.email, DEMO.ceo.password);
    await settle(page, '/app/organization', /organization/i);
    await page.getByRole('button', { name: /^add (member|user)$/i }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectNoSeriousA11yViolations(page, testInfo);
  });

  test('the profile menu open', async ({ page }, testInfo) => {
    await loginViaApi(page, DEMO.admin.email, DEMO.admin.password);
    await settle(page, '/app/ceodashboard', /welcome back,/i);
    await page.getByRole('button', { name: /profile menu/i }).click();
    await expect(page.getByRole('menu')).toBeVisible();
    await expectNoSeriousA11yViolations(page, testInfo);
  });
});
