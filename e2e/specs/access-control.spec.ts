import { expect, test } from '@playwright/test';
import { DASHBOARD, DEMO, loginViaApi, loginViaUi, pathRe } from '../support/auth.ts';

test.describe('route guards and role-dependent navigation', () => {
  test('a non-admin cannot reach /app/admin and sees no Super Admin or Factory link', async ({ page }) => {
    await loginViaApi(page, DEMO.maya.email, DEMO.maya.password);
    await page.goto('/app/admin');
    await expect(page).toHaveURL(pathRe(DASHBOARD));
    await expect(page.getByRole('heading', { name: /super admin/i })).toHaveCount(0);

    const main = page.getByRole('navigation', { name: /main/i });
    await expect(main.getByRole('link', { name: /dashboard/i })).toBeVisible();
    await expect(page.getByRole('link', { name: /factory/i })).toHaveCount(0);

    await page.getByRole('button', { name: /profile menu/i }).click();
    const menu = page.getByRole('menu');
    await expect(menu.getByRole('menuitem', { name: /^profile$/i })).toBeVisible();
    await expect(menu.getByRole('menuitem', { name: /organization/i })).toBeVisible();
    await expect(menu.getByRole('menuitem', { name: /super admin/i })).toHaveCount(0);
  });

  test('the admin sees the Super Admin and Factory links and can open /app/admin', async ({ page }) => {
    await loginViaApi(page, DEMO.admin.email, DEMO.admin.password);
    await page.goto(DASHBOARD);
    await expect(
      page.getByRole('navigation', { name: /main/i }).getByRole('link', { name: /factory/i }),
    ).toBeVisible();
    await page.getByRole('button', { name: /profile menu/i }).click();
    await page.getByRole('menuitem', { name: /super admin/i }).click();
    await expect(page).toHaveURL(pathRe('/app/admin'));
    await expect(page.getByRole('heading', { name: /super admin/i })).toBeVisible();
  });

  test('the ceo sees the Factory link but no Super Admin link', async ({ page }) => {
    await loginViaApi(page, DEMO.ceo.email, DEMO.ceo.password);
    await page.goto(DASHBOARD);
    await expect(
      page.getByRole('navigation', { name: /main/i }).getByRole('link', { name: /factory/i }),
    ).toBeVisible();
    await page.getByRole('button', { name: /profile menu/i }).click();
    await expect(page.getByRole('menuitem', { name: /^profile$/i })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: /super admin/i })).toHaveCount(0);
  });

  test('an anonymous visitor of /app/strategy signs in and comes back to /app/strategy', async ({ page }) => {
    await page.goto('/app/strategy');
    await expect(page).toHaveURL(/\/login\?redirect=/);
    const redirect = new URL(page.url()).searchParams.get('redirect');
    expect(redirect).toBe('/app/strategy');
    await loginViaUi(page, DEMO.maya.email, DEMO.maya.password, {
      gotoLogin: false,
      expectPath: '/app/strategy',
    });
  });

  test('an anonymous visitor of /waitlist is sent to /login', async ({ page }) => {
    await page.goto('/waitlist');
    await expect(page).toHaveURL(/\/login(\?|$)/);
  });

  test('an approved user opening /waitlist is sent to the dashboard', async ({ page }) => {
    await loginViaApi(page, DEMO.leo.email, DEMO.leo.password);
    await page.goto('/waitlist');
    await expect(page).toHaveURL(pathRe(DASHBOARD));
  });
});
