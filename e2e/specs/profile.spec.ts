import { expect, test } from '@playwright/test';
import {
  bearer,
  createUserViaApi,
  DASHBOARD,
  getMe,
  loginViaApi,
  loginViaUi,
  newUserData,
  pathRe,
} from '../support/auth.ts';
import { toast } from '../support/ui.ts';

test.describe('profile', () => {
  test('role and objectives are saved and still there after a reload', async ({ page, request }) => {
    const user = newUserData('profile', 'Priya');
    await createUserViaApi(request, user, 'user');
    const token = await loginViaApi(page, user.email, user.password);
    await page.goto('/app/profile');

    const form = page.getByRole('form', { name: /profile/i });
    await expect(form.getByLabel(/^email/i)).toHaveValue(user.email);
    await expect(form.getByLabel(/^email/i)).not.toBeEditable();
    const save = form.getByRole('button', { name: /save/i });
    await expect(save, 'Save is disabled until the form is changed').toBeDisabled();

    await form.getByLabel(/^role/i).fill('Chief of Staff');
    await form.getByLabel(/^objectives/i).fill('  Grow ARR to 10M  \n\nHire a CFO\n');
    await expect(save).toBeEnabled();
    await save.click();
    await expect(toast(page, 'Profile Updated')).toBeVisible();

    await page.reload();
    await expect(form.getByLabel(/^role/i)).toHaveValue('Chief of Staff');
    await expect(form.getByLabel(/^objectives/i)).toHaveValue('Grow ARR to 10M\nHire a CFO');

    const me = await getMe(request, token);
    expect(me.profile?.role).toBe('Chief of Staff');
    expect(me.profile?.objectives).toEqual(['Grow ARR to 10M', 'Hire a CFO']);
  });

  test('changing the password needs the current one; the new one then signs in', async ({
    page,
    request,
    browser,
    baseURL,
  }) => {
    const user = newUserData('password', 'Pavel');
    const newPassword = 'brand-new-password-2';
    await createUserViaApi(request, user, 'user');
    await loginViaApi(page, user.email, user.password);
    await page.goto('/app/profile');

    const form = page.getByRole('form', { name: /password/i });
    const submit = form.getByRole('button', { name: /update|save|change/i });
    await expect(submit).toBeDisabled();

    await test.step('a wrong current password is refused', async () => {
      await form.getByLabel(/current password/i).fill('not-my-password');
      await form.getByLabel(/^new password/i).fill(newPassword);
      await submit.click();
      await expect(toast(page, 'Update Failed')).toBeVisible();
      const res = await request.post('/api/auth/token', {
        form: { username: user.email, password: newPassword },
      });
      expect(res.status()).toBe(401);
    });

    await test.step('too short a new password shows the rule', async () => {
      await form.getByLabel(/current password/i).fill(user.password);
      await form.getByLabel(/^new password/i).fill('short');
      await submit.click();
      await expect(form.getByText('Password must be at least 8 characters')).toBeVisible();
    });

    await test.step('the right current password changes it', async () => {
      await form.getByLabel(/current password/i).fill(user.password);
      await form.getByLabel(/^new password/i).fill(newPassword);
      await submit.click();
      await expect(toast(page, 'Password Updated')).toBeVisible();
    });

    await test.step('the old password no longer works, the new one signs in', async () => {
      const old = await request.post('/api/auth/token', {
        form: { username: user.email, password: user.password },
      });
      expect(old.status()).toBe(401);
      const context = await browser.newContext({ baseURL });
      const p = await context.newPage();
      await loginViaUi(p, user.email, newPassword);
      await expect(p).toHaveURL(pathRe(DASHBOARD));
      await expect(p.locator('main')).toContainText(/Welcome back,\s*Pavel/);
      const token = await p.evaluate(() => localStorage.getItem('authToken'));
      expect((await request.get('/api/users/me', { headers: bearer(token!) })).status()).toBe(200);
      await context.close();
    });
  });
});
