import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from '../support/axe.ts';
import { bearer, DEMO, loginViaApi } from '../support/auth.ts';
import { toast } from '../support/ui.ts';

// The approvals inbox (issue 19 section 2): a task suggestion rejected from the inbox is dismissed
// with the reason, and leaves the inbox in every open tab (live over the inbox stream).

test('the ceo rejects a task suggestion from the inbox; a second tab drops it live', async ({
  page,
  context,
}, testInfo) => {
  test.setTimeout(90_000);
  const token = await loginViaApi(page, DEMO.ceo.email, DEMO.ceo.password);
  const taskTitle = `E2E inbox task ${Date.now().toString(36)}`;
  const suggestionTitle = `Find an owner for “${taskTitle}”`;

  await test.step('an unassigned task gives a suggestion to review', async () => {
    const task = await page.request.post('/api/tasks/', {
      headers: bearer(token),
      data: { title: taskTitle, priority: 'Urgent' },
    });
    expect(task.status()).toBe(201);
    const generated = await page.request.post('/api/task-suggestions/generate', { headers: bearer(token) });
    expect(generated.status()).toBe(200);
    const titles = ((await generated.json()).suggestions as { title: string }[]).map((s) => s.title);
    expect(titles).toContain(suggestionTitle);
  });

  await page.goto('/app/inbox');
  await expect(page.getByRole('heading', { name: 'Inbox', exact: true })).toBeVisible();
  // A second tab of the same session (the first one stored the token).
  const other = await context.newPage();
  await other.goto('/app/inbox');
  const otherItem = other.getByRole('listitem').filter({ hasText: suggestionTitle });
  await expect(otherItem).toBeVisible();

  const inboxLink = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Inbox/ });
  await expect(inboxLink).toHaveAccessibleName(/^Inbox\W*\d+ waiting$/);
  const before = Number((await inboxLink.textContent())?.match(/(\d+) waiting/)?.[1]);
  const item = page.getByRole('listitem').filter({ hasText: suggestionTitle });
  await expect(item.getByText('Task suggestion')).toBeVisible();
  await expect(item.getByText(`Task “${taskTitle}”`).first()).toBeVisible();
  await expect(item.getByRole('link', { name: 'Open the suggestions' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, testInfo);

  await test.step('reject needs a reason', async () => {
    await item.getByRole('button', { name: 'Reject' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reject' });
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await expect(dialog.getByText('A reason is required to reject.')).toBeVisible();
    await dialog.getByLabel('Reason').fill('Maya already owns this');
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await expect(toast(page, 'Rejected')).toBeVisible();
    await expect(dialog).toBeHidden();
  });

  await expect(item).toHaveCount(0);
  // The other tab heard it over the inbox stream: no reload.
  await expect(otherItem).toHaveCount(0);
  await expect(inboxLink).toHaveAccessibleName(
    before > 1 ? new RegExp(`^Inbox\\W*${before - 1} waiting$`) : 'Inbox',
  );

  const pending = await page.request.get('/api/task-suggestions/', { headers: bearer(token) });
  expect(((await pending.json()) as { title: string }[]).map((s) => s.title)).not.toContain(suggestionTitle);
});
