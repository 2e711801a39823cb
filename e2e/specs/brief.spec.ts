import { expect, type Page, test } from '@playwright/test';
import { bearer, DEMO, getMe, loginViaApi } from '../support/auth.ts';
import { expectNoSeriousA11yViolations } from '../support/axe.ts';
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
    // The brief writes a day as the app prints it elsewhere: "29 Nov 2026".
    const [y, m, d] = today.split('-').map(Number);
    const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
    const todayText = `${d} ${MONTHS[m - 1]} ${y}`;
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
      await expect(factOf(page, `Task “${title}” (Urgent) is due ${todayText}.`)).toBeVisible();
    });

    await test.step('the history marks the brief shown, readably (axe: no serious violation)', async () => {
      const chosen = page.getByRole('list', { name: 'Earlier briefs' }).locator('[aria-current="true"]');
      await expect(chosen).toHaveCount(1);
      await expectNoSeriousA11yViolations(page, test.info());
    });

    await test.step('a citation chip opens its record', async () => {
      await factOf(page, `Task “${title}”`)
        .getByRole('link', { name: `Task: ${title}` })
        .click();
      await expect(page).toHaveURL(/\/app\/my-tasks/);
      // The chip opens the task to read (issue 47 item 4); its Edit opens the form.
      const read = page.getByRole('dialog', { name: title });
      await expect(read.getByRole('textbox')).toHaveCount(0);
      await read.getByRole('button', { name: 'Edit' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit task' });
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

test('an action about a waiting item opens it in the inbox, focused, where the ceo approves it', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const token = await loginViaApi(page, DEMO.ceo.email, DEMO.ceo.password);
  const taskTitle = `Brief inbox task ${Date.now().toString(36)}`;
  const suggestionTitle = `Find an owner for “${taskTitle}”`;
  let itemId = '';

  await test.step('a task suggestion is the one item waiting in the ceo inbox', async () => {
    const task = await request.post('/api/tasks/', {
      headers: bearer(token),
      data: { title: taskTitle, priority: 'Urgent' },
    });
    expect(task.status(), await task.text()).toBe(201);
    const generated = await request.post('/api/task-suggestions/generate', { headers: bearer(token) });
    expect(generated.status(), await generated.text()).toBe(200);
    const inbox = await request.get('/api/inbox/?limit=100', { headers: bearer(token) });
    const items = (await inbox.json()).items as { id: string; title: string }[];
    const ours = items.find((i) => i.title === suggestionTitle);
    expect(ours, 'the suggestion waits in the inbox').toBeDefined();
    itemId = ours?.id ?? '';
    // Everything else the demo ceo has waiting is settled, so this item is the brief's first waiting fact.
    for (const other of items.filter((i) => i.id !== itemId)) {
      await request.post(`/api/inbox/${other.id}/reject`, {
        headers: bearer(token),
        data: { reason: 'Cleared by the brief journey' },
      });
    }
  });

  await test.step('the brief lists it and its action links to the inbox item', async () => {
    await page.goto('/app/brief');
    await page.getByRole('button', { name: 'Generate brief now' }).click();
    await expect(toast(page, 'Your brief is ready')).toBeVisible();
    await expect(factOf(page, `Task suggestion “${suggestionTitle}” waits for your approval.`)).toBeVisible();
    await expect(
      factOf(page, `Task suggestion “${suggestionTitle}”`).getByRole('link', {
        name: `Inbox item: ${suggestionTitle}`,
      }),
    ).toHaveAttribute('href', `/app/inbox?item=${itemId}`);
    const action = page
      .getByRole('article', { name: 'Brief' })
      .getByRole('link', { name: `Decide on “${suggestionTitle}” in your inbox.` });
    await expect(action).toHaveAttribute('href', `/app/inbox?item=${itemId}`);
    await action.click();
  });

  await test.step('the inbox shows that item focused and marked; the ceo approves it there', async () => {
    await expect(page).toHaveURL(/\/app\/inbox$/);
    const current = page.locator('li[aria-current="true"]');
    await expect(current).toHaveCount(1);
    await expect(current.getByRole('heading', { name: suggestionTitle })).toBeVisible();
    await expect(current).toBeFocused();
    await expect(page.getByText('This item is no longer waiting for you.')).toHaveCount(0);
    await current.getByRole('button', { name: 'Approve' }).click();
    await expect(toast(page, 'Approved')).toBeVisible();
    await expect(page.getByRole('listitem').filter({ hasText: suggestionTitle })).toHaveCount(0);
    const after = await request.get('/api/inbox/', { headers: bearer(token) });
    expect(((await after.json()).items as { id: string }[]).map((i) => i.id)).not.toContain(itemId);
  });

  await test.step('followed again, the link says the item no longer waits', async () => {
    await page.goto(`/app/inbox?item=${itemId}`);
    await expect(page.getByText('This item is no longer waiting for you.')).toBeVisible();
    await expect(page).toHaveURL(/\/app\/inbox$/);
  });
});
