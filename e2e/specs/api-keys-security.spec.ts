import { expect, test } from '@playwright/test';
import { apiToken, bearer, createUserViaApi, loginViaApi, newUserData, pageToken } from '../support/auth.ts';
import { toast } from '../support/ui.ts';

/** Issue 46 row 3: keys end with a password change or "sign out everywhere", and the Profile page says so first. */
test.describe('API keys and account security', () => {
  test('a key made on Profile works, and signing out everywhere ends it with every session', async ({
    page,
    request,
  }) => {
    const user = newUserData('keys', 'Kira');
    await createUserViaApi(request, user, 'user');
    await loginViaApi(page, user.email, user.password);
    const otherSession = await apiToken(request, user.email, user.password);
    await page.goto('/app/profile');

    // Just signed in: no password is asked for.
    const form = page.getByRole('form', { name: 'Create API key' });
    await form.getByLabel('Key name').fill('CLI');
    await form.getByLabel('read:tasks').check();
    await form.getByRole('button', { name: 'Create key' }).click();
    const secret = await page.getByLabel('New API key').inputValue();
    expect(secret).toMatch(/^cck_/);
    expect((await request.get('/api/tasks/', { headers: bearer(secret) })).status()).toBe(200);

    await expect(
      page.getByText(/Changing your password or signing out everywhere revokes all your keys\./),
    ).toBeVisible();
    const card = page.getByText(
      'Every device, this one included, is signed out and all your API keys are revoked',
      {
        exact: false,
      },
    );
    await expect(card.first()).toBeVisible();
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Sign out and revoke keys' }).click();
    await expect(toast(page, 'Signed out everywhere')).toBeVisible();
    await expect(page).toHaveURL(/\/login(\?|$)/);
    expect(await pageToken(page)).toBeNull();

    expect((await request.get('/api/tasks/', { headers: bearer(secret) })).status()).toBe(401);
    expect((await request.get('/api/users/me', { headers: bearer(otherSession) })).status()).toBe(401);
  });

  test('changing the password revokes the keys, as the password form says', async ({ page, request }) => {
    const user = newUserData('keys-pw', 'Paul');
    await createUserViaApi(request, user, 'user');
    const token = await loginViaApi(page, user.email, user.password);
    const made = await request.post('/api/users/me/api-keys', {
      headers: bearer(token),
      data: { name: 'Script', scopes: ['read:tasks'] },
    });
    expect(made.status()).toBe(201);
    const secret = (await made.json()).secret as string;
    await page.goto('/app/profile');
    const form = page.getByRole('form', { name: 'Change password' });
    await expect(
      page.getByText(
        'Other devices are signed out and all your API keys are revoked when your password changes.',
      ),
    ).toBeVisible();
    await form.getByLabel(/current password/i).fill(user.password);
    await form.getByLabel(/^new password/i).fill('brand-new-password-3');
    await form.getByRole('button', { name: /update password/i }).click();
    await expect(toast(page, 'Password Updated')).toBeVisible();
    expect((await request.get('/api/tasks/', { headers: bearer(secret) })).status()).toBe(401);
    // This browser stays signed in.
    expect((await request.get('/api/users/me', { headers: bearer(token) })).status()).toBe(200);
  });
});
