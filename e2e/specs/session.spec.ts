import { expect, test } from '@playwright/test';
import {
  apiToken,
  bearer,
  createUserViaApi,
  DASHBOARD,
  DEMO,
  loginViaUi,
  newUserData,
  pageToken,
  pathRe,
} from '../support/auth.ts';
import { toast } from '../support/ui.ts';

test.describe('expired sessions', () => {
  test('a session revoked on the server logs the user out with "Session Expired"', async ({
    page,
    request,
  }) => {
    await loginViaUi(page, DEMO.leo.email, DEMO.leo.password);
    await expect(page.locator('main')).toContainText(/Welcome back,\s*Leo/);
    const token = await pageToken(page);
    expect(token, 'the page holds a token after signing in').toBeTruthy();

    // Sign this very session out behind the page's back.
    const res = await request.post('/api/auth/logout', { headers: bearer(token!) });
    expect(res.status(), `POST /api/auth/logout: ${await res.text()}`).toBeLessThan(300);
    expect((await request.get('/api/users/me', { headers: bearer(token!) })).status()).toBe(401);

    await page.reload();
    const expired = toast(page, 'Session Expired');
    await expect(expired).toBeVisible();
    await expect(expired).toContainText('Please log in again.');
    await expect(page).toHaveURL(/\/login(\?|$)/);
    expect(await pageToken(page)).toBeNull();

    // Signing in again works.
    await loginViaUi(page, DEMO.leo.email, DEMO.leo.password, {
      gotoLogin: false,
      expectPath: /\/app\/ceodashboard/,
    });
  });

  test('an admin changing the user level revokes the session: the next call shows "Session Expired"', async ({
    page,
    request,
  }) => {
    const user = newUserData('revoked', 'Rina');
    const created = await createUserViaApi(request, user, 'user');
    await loginViaUi(page, user.email, user.password);
    await expect(page).toHaveURL(pathRe(DASHBOARD));
    // Let the dashboard finish its own requests with the still-valid token first.
    await expect(page.locator('main')).toContainText(/Welcome back,\s*Rina/);
    await page.waitForLoadState('networkidle');

    const adminToken = await apiToken(request, DEMO.admin.email, DEMO.admin.password);
    const patch = await request.patch(`/api/users/${created.id}`, {
      headers: bearer(adminToken),
      data: { user_level: 'ceo' },
    });
    expect(patch.status(), `PATCH /api/users/{id}: ${await patch.text()}`).toBe(200);

    // Client-side navigation: the organization page asks the server for data with the revoked token.
    await page.getByRole('button', { name: /profile menu/i }).click();
    await page.getByRole('menuitem', { name: /organization/i }).click();
    await expect(toast(page, 'Session Expired')).toBeVisible();
    await expect(page).toHaveURL(/\/login(\?|$)/);
    expect(await pageToken(page)).toBeNull();
  });
});
