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

// Issue 47 item 4: a run's question that asks for an approval is approved in one click from the inbox
// (the server sends the answer the question names), and its card renders the question's markdown.
test('a run question asking for approval is approved in one click, its markdown rendered', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const token = await loginViaApi(page, DEMO.ceo.email, DEMO.ceo.password);
  const tag = Date.now().toString(36);
  const flow = await page.request.post('/api/flows/', {
    headers: bearer(token),
    data: {
      name: `E2E approval ${tag}`,
      steps: [
        {
          title: 'Approval',
          kind: 'wait_for_human',
          prompt: `Do you approve **plan ${tag}**? Answer "yes" or describe the changes you want.`,
        },
      ],
    },
  });
  expect(flow.status(), await flow.text()).toBe(201);
  const started = await page.request.post('/api/flow-runs/', {
    headers: bearer(token),
    data: { flow_id: (await flow.json()).id },
  });
  expect(started.status(), await started.text()).toBe(201);
  const runId = (await started.json()).flow_run_id as string;

  await page.goto('/app/inbox');
  const item = page.getByRole('listitem').filter({ hasText: `plan ${tag}` });
  await expect(item).toBeVisible({ timeout: 30_000 });
  await expect(item.locator('strong', { hasText: `plan ${tag}` })).toBeVisible();
  await expect(item).not.toContainText('**');
  await item.getByRole('button', { name: 'Approve' }).click();
  await expect(toast(page, 'Approved')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(item).toHaveCount(0);

  await expect
    .poll(async () => {
      const res = await page.request.get(`/api/flow-runs/${runId}/timeline`, { headers: bearer(token) });
      const events = (await res.json()).timeline as { type: string; details: { user_input?: string } }[];
      return events.filter((e) => e.type === 'human_input').map((e) => e.details.user_input);
    })
    .toEqual(['yes']);
});
