import { expect, test } from '@playwright/test';
import { bearer, DEMO, loginViaApi, pageAs } from '../support/auth.ts';

test.describe('optimistic concurrency', () => {
  test('two tabs edit the same task: the later save shows the other change and keeps the typed text', async ({
    page,
    browser,
    baseURL,
  }) => {
    const title = `Conflict task ${Date.now().toString(36)}`;
    const token = await loginViaApi(page, DEMO.ceo.email, DEMO.ceo.password);
    const created = await page.request.post('/api/tasks', {
      headers: bearer(token),
      data: { title, description: 'Original description' },
    });
    expect(created.status()).toBe(201);
    const id = (await created.json()).id as string;

    const tabB = await pageAs(browser, baseURL!, DEMO.ceo.email, DEMO.ceo.password);
    const openEditor = async (p: typeof page) => {
      await p.goto('/app/my-tasks');
      await p.getByLabel('Search tasks').fill(title);
      await p.getByRole('button', { name: `Edit ${title}` }).click();
      return p.getByRole('dialog');
    };

    // Both tabs open the same version of the task.
    const dialogA = await openEditor(page);
    const dialogB = await openEditor(tabB.page);

    await test.step('tab B saves first', async () => {
      await dialogB.getByLabel('Title').fill(`${title} (B)`);
      await dialogB.getByRole('button', { name: 'Save task' }).click();
      await expect(dialogB).toBeHidden();
    });

    await test.step('tab A saves its own edit: refused, both versions shown, nothing typed lost', async () => {
      await dialogA.getByLabel('Description').fill('Typed in tab A');
      await dialogA.getByRole('button', { name: 'Save task' }).click();
      const banner = dialogA.getByTestId('stale-version');
      await expect(banner).toContainText('This item was changed by someone else');
      await expect(banner).toContainText(`${title} (B)`);
      await expect(dialogA.getByLabel('Description')).toHaveValue('Typed in tab A');
      // Still signed in: a 412 is not a session problem.
      await expect(page.getByText('Session Expired')).toHaveCount(0);
    });

    await test.step('saving again applies tab A’s values on top of the fresh version', async () => {
      await dialogA.getByRole('button', { name: 'Save task' }).click();
      await expect(dialogA).toBeHidden();
      const stored = await (await page.request.get(`/api/tasks/${id}`, { headers: bearer(token) })).json();
      expect(stored.description).toBe('Typed in tab A');
      // Tab A did not touch the title: tab B's stays.
      expect(stored.title).toBe(`${title} (B)`);
      await expect(page.getByRole('article', { name: `${title} (B)` })).toContainText('Typed in tab A');
    });

    await tabB.context.close();
  });
});
