import { type APIRequestContext, expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from '../support/axe.ts';
import { apiToken, bearer, createUserViaApi, loginViaApi, newUserData } from '../support/auth.ts';
import { toast } from '../support/ui.ts';

// A ceo of their own (not the demo one, whose suggestions other journeys review) with a lagging KPI:
// the offline engine turns it into task suggestions, and accepting one is the AI-created task.

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** Generates suggestions and accepts the first under `title`: the task the AI created for the ceo. */
async function aiCreatedTask(request: APIRequestContext, token: string, title: string): Promise<string> {
  const gen = await request.post('/api/task-suggestions/generate', { headers: bearer(token) });
  expect(gen.status(), await gen.text()).toBe(200);
  const pending = await request.get('/api/task-suggestions/', { headers: bearer(token) });
  const [first] = (await pending.json()) as { id: string }[];
  expect(first, 'a task suggestion').toBeTruthy();
  const ok = await request.post('/api/task-suggestions/approve', {
    headers: bearer(token),
    data: [{ id: first.id, title }],
  });
  expect(ok.status(), await ok.text()).toBe(200);
  return ((await ok.json()) as { tasks: { id: string }[] }).tasks[0].id;
}

test('undo an AI-created task from the Activity page; a task edited since is left alone', async ({
  page,
  request,
}, testInfo) => {
  const ceo = newUserData('activity-ceo', 'Ada');
  await createUserViaApi(request, ceo, 'ceo');
  const token = await apiToken(request, ceo.email, ceo.password);
  const goal = await request.post('/api/strategic-goals/', {
    headers: bearer(token),
    data: {
      title: 'Open the Nordic office',
      // Most of its plan gone by with little done: behind its straight line, so it lags.
      start_date: day(-300),
      due_date: day(20),
      kpis: [
        { name: 'Nordic customers', current_value: 1, target_value: 8 },
        { name: 'Nordic hires', current_value: 0, target_value: 4 },
      ],
    },
  });
  expect(goal.status(), await goal.text()).toBe(201);
  const undoable = `E2E AI task ${Date.now().toString(36)}`;
  await aiCreatedTask(request, token, undoable);

  await loginViaApi(page, ceo.email, ceo.password);
  await page.goto('/app/my-tasks');
  await expect(page.getByRole('article', { name: undoable })).toBeVisible();

  await test.step('the profile menu leads to Activity, which shows what the AI did', async () => {
    await page.getByRole('button', { name: /^Profile menu/ }).click();
    await page.getByRole('menuitem', { name: 'Activity' }).click();
    await expect(page).toHaveURL(/\/app\/activity$/);
    await expect(page.getByRole('heading', { name: 'Activity', exact: true })).toBeVisible();
    const entry = page.getByTestId('activity-entry').filter({ hasText: undoable });
    await expect(entry).toContainText('AI');
    await expectNoSeriousA11yViolations(page, testInfo);
  });

  await test.step('Undo deletes the task and marks the entry undone', async () => {
    const entry = page.getByTestId('activity-entry').filter({ hasText: `Created the task "${undoable}"` });
    await entry.getByRole('button', { name: /^Undo: / }).click();
    await expect(toast(page, 'Change undone')).toBeVisible();
    await expect(entry.getByText('Undone')).toBeVisible();
    await expect(entry.getByRole('button', { name: /^Undo: / })).toHaveCount(0);
    await page.goto('/app/my-tasks');
    await expect(page.getByRole('heading', { name: 'Tasks', exact: true })).toBeVisible();
    await expect(page.getByRole('article', { name: undoable })).toHaveCount(0);
  });

  await test.step('a task someone edited after the AI made it is not undone: the page says what changed', async () => {
    const title = `E2E AI task edited ${Date.now().toString(36)}`;
    const id = await aiCreatedTask(request, token, title);
    const edit = await request.put(`/api/tasks/${id}`, { headers: bearer(token), data: { priority: 'Low' } });
    expect(edit.status(), await edit.text()).toBe(200);
    await page.goto('/app/activity');
    const entry = page.getByTestId('activity-entry').filter({ hasText: `Created the task "${title}"` });
    await entry.getByRole('button', { name: /^Undo: / }).click();
    await expect(toast(page, 'Undo failed')).toBeVisible();
    await expect(page.getByText('The task was changed since (priority): it was not undone.')).toBeVisible();
    await page.goto('/app/my-tasks');
    await expect(page.getByRole('article', { name: title })).toBeVisible();
  });
});
