import { expect, type Page, test } from '@playwright/test';
import { bearer, DEMO, getMe, loginViaApi } from '../support/auth.ts';
import { toast } from '../support/ui.ts';

/** The fact (a list item of the brief's sections) with this text. */
const factOf = (page: Page, text: string) =>
  page.getByRole('article', { name: 'Brief' }).getByRole('listitem').filter({ hasText: text });

test.describe('executive brief', () => {
  test('the ceo turns the schedule on, generates a brief and follows a citation to the record', async ({
    page,
    request,
  }) => {
    const token = await loginViaApi(page, DEMO.ceo.email, DEMO.ceo.password);
    const me = await getMe(request, token);
    const title = `Brief journey ${Date.now().toString(36)}`;
    const today = new Date().toISOString().slice(0, 10);
    const made = await request.post('/api/tasks/', {
      headers: bearer(token),
      data: { title, priority: 'Urgent', status: 'To Do', due_date: today, assigned_to_user_id: me.id },
    });
    expect(made.status(), await made.text()).toBe(201);

    await test.step('the schedule is off until turned on in the profile', async () => {
      await page.goto('/app/profile');
      const on = page.getByRole('checkbox', { name: 'Send me a scheduled brief' });
      await expect(on).not.toBeChecked();
      await expect(page.getByLabel('Time', { exact: true })).toHaveValue('07:30');
      await on.check();
      await page.getByRole('button', { name: 'Save schedule' }).click();
      await expect(toast(page, 'Brief schedule saved')).toBeVisible();
      const saved = (await getMe(request, token)) as unknown as { brief_schedule: Record<string, unknown> };
      expect(saved.brief_schedule).toMatchObject({ enabled: true, weekdays: [1, 2, 3, 4, 5], time: '07:30' });
    });

    await test.step('the dashboard card leads to the Brief page, where a brief is generated', async () => {
      await page.goto('/app/ceodashboard');
      await expect(page.getByText("Today's brief")).toBeVisible();
      await page.getByRole('link', { name: 'Open brief' }).click();
      await expect(page).toHaveURL(/\/app\/brief/);
      await page.getByRole('button', { name: 'Generate brief now' }).click();
      await expect(toast(page, 'Your brief is ready')).toBeVisible();
      const brief = page.getByRole('article', { name: 'Brief' });
      await expect(brief.getByRole('heading', { name: 'Top actions' })).toBeVisible();
      await expect(factOf(page, `Task “${title}” (Urgent) is due ${today}.`)).toBeVisible();
    });

    await test.step('a citation chip opens its record', async () => {
      await factOf(page, `Task “${title}”`)
        .getByRole('link', { name: `Task: ${title}` })
        .click();
      await expect(page).toHaveURL(/\/app\/my-tasks/);
      const dialog = page.getByRole('dialog');
      await expect(dialog.getByLabel('Title')).toHaveValue(title);
    });

    await test.step('an action opens the record it acts on', async () => {
      await page.goto('/app/brief');
      const first = page
        .getByRole('article', { name: 'Brief' })
        .getByRole('heading', { name: 'Top actions' })
        .locator('xpath=following-sibling::ol[1]')
        .getByRole('link')
        .first();
      await expect(first).toBeVisible();
      const href = await first.getAttribute('href');
      expect(href).toMatch(/^\/app\//);
      await first.click();
      await expect(page).toHaveURL(new RegExp((href as string).split(/[?#]/)[0]));
    });
  });
});
