import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from '../support/axe.ts';
import { DEMO, loginViaApi } from '../support/auth.ts';
import { toast } from '../support/ui.ts';

// The demo workspace's goals have lagging KPIs (e.g. "EU customers signed": 1 of 5), which the
// offline engine names in its advice and turns into task suggestions.

test.describe('AI advice and task suggestions (offline engine)', () => {
  test('Generate Advice on the dashboard: the new advice appears without a reload', async ({
    page,
  }, testInfo) => {
    await loginViaApi(page, DEMO.ceo.email, DEMO.ceo.password);
    await page.goto('/app/ceodashboard');
    await expect(page.getByRole('button', { name: 'Generate Advice' })).toBeEnabled();

    await page.getByRole('button', { name: 'Generate Advice' }).click();
    await expect(toast(page, 'Advice generation started')).toBeVisible();
    const latest = page.getByRole('article', { name: 'Latest strategic advice' });
    // The run finishes in the background; the dashboard polls it and shows the advice it wrote.
    await expect(latest.getByRole('heading', { name: /^Close the gap on / })).toBeVisible({
      timeout: 20_000,
    });
    await expect(latest).toContainText('KPI gaps');
    await expect(latest).toContainText('EU customers signed');
    await expect(latest).toContainText('Offline engine');
    await expect(toast(page, 'New strategic advice is ready')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Generate Advice' })).toBeEnabled();
    await expectNoSeriousA11yViolations(page, testInfo);
  });

  test('the ceo generates, edits, approves and rejects task suggestions', async ({ page }, testInfo) => {
    // Two 4-second "Tasks ready!" cycles and three axe scans.
    test.setTimeout(120_000);
    const edited = `E2E suggested task ${Date.now().toString(36)}`;
    await loginViaApi(page, DEMO.ceo.email, DEMO.ceo.password);
    await page.goto('/app/my-tasks');
    await expect(page.getByRole('heading', { name: 'Tasks', exact: true })).toBeVisible();

    await test.step('Generate tasks: generating, then "Tasks ready!", then idle after 4 s', async () => {
      await page.getByRole('button', { name: 'Generate tasks' }).click();
      await expect(page.getByRole('button', { name: 'Tasks ready!' })).toBeVisible();
      await expect(page.getByText(/AI task suggestions? (is|are) ready for review/)).toBeVisible();
      await expect(page.getByRole('button', { name: 'Generate tasks' })).toBeEnabled({ timeout: 8_000 });
    });

    await test.step('generating again brings nothing new', async () => {
      await page.getByRole('button', { name: 'Generate tasks' }).click();
      await expect(toast(page, 'No new suggestions')).toBeVisible();
    });

    const dialog = page.getByRole('dialog', { name: 'Review AI task suggestions' });
    await test.step('review: each suggestion says why (axe with the dialog open)', async () => {
      await page.getByRole('button', { name: 'Review suggestions' }).click();
      await expect(dialog).toBeVisible();
      await expect(dialog.getByText(/KPI “EU customers signed”/)).toBeVisible();
      await expectNoSeriousA11yViolations(page, testInfo);
    });

    const groups = dialog.getByRole('group');
    const count = await groups.count();
    expect(count).toBeGreaterThanOrEqual(2);
    const rejectedTitle = await groups.nth(1).getByLabel('Title').inputValue();

    await test.step('reject the second one with a reason', async () => {
      const second = groups.nth(1);
      await second.getByRole('button', { name: 'Reject' }).click();
      await second.getByRole('button', { name: 'Confirm rejection' }).click();
      await expect(second.getByText('A reason is required to reject a suggestion.')).toBeVisible();
      await second.getByLabel('Reason for rejecting').fill('We are handling this in the hiring plan');
      await second.getByRole('button', { name: 'Confirm rejection' }).click();
      await expect(toast(page, 'Suggestion rejected')).toBeVisible();
      await expect(dialog.getByRole('group')).toHaveCount(count - 1);
      await expect(dialog.getByRole('group').filter({ hasText: rejectedTitle })).toHaveCount(0);
    });

    await test.step('edit the first one, approve only it', async () => {
      const first = dialog.getByRole('group').first();
      await first.getByLabel('Title').fill(edited);
      await first.getByLabel('Priority').selectOption('Urgent');
      const others = dialog.getByRole('group');
      for (let i = 1; i < (await others.count()); i++) {
        await others.nth(i).getByLabel('Approve this suggestion').uncheck();
      }
      await dialog.getByRole('button', { name: 'Approve selected (1)' }).click();
      await expect(toast(page, '1 task created')).toBeVisible();
    });

    await test.step('the approved suggestion is a task now', async () => {
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      const task = page.getByRole('article', { name: edited });
      await expect(task).toBeVisible();
      await expect(task).toContainText('Urgent');
      await expectNoSeriousA11yViolations(page, testInfo);
    });

    await test.step('neither the approved nor the rejected suggestion comes back', async () => {
      await page.getByRole('button', { name: 'Generate tasks' }).click();
      await expect(toast(page, 'No new suggestions').last()).toBeVisible();
      if (count > 2) {
        await page.getByRole('button', { name: 'Review suggestions' }).click();
        await expect(dialog.getByRole('group')).toHaveCount(count - 2);
        await expect(dialog.getByRole('group').filter({ hasText: rejectedTitle })).toHaveCount(0);
      } else {
        await expect(page.getByRole('button', { name: 'Review suggestions' })).toHaveCount(0);
      }
    });
  });
});
