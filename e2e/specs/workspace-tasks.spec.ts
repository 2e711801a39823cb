import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from '../support/axe.ts';
import { DEMO, loginViaApi, pageAs } from '../support/auth.ts';

const MAYA = `${DEMO.maya.firstName} ${DEMO.maya.lastName}`;

test.describe('tasks', () => {
  test('create, filter, assign, share, complete and delete a task as two users', async ({
    page,
    browser,
    baseURL,
  }, testInfo) => {
    const title = `E2E task ${Date.now().toString(36)}`;
    await loginViaApi(page, DEMO.ceo.email, DEMO.ceo.password);
    await page.goto('/app/my-tasks');
    await expect(page.getByRole('heading', { name: 'Tasks', exact: true })).toBeVisible();

    await test.step('the create form requires a title (axe with the dialog open)', async () => {
      await page.getByRole('button', { name: 'New task' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Create task' }).click();
      await expect(dialog.getByText('Title is required')).toBeVisible();
      await expectNoSeriousA11yViolations(page, testInfo);
    });

    await test.step('the ceo creates a high-priority task', async () => {
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Title').fill(title);
      await dialog.getByLabel('Description').fill('Prepare the board deck');
      await dialog.getByLabel('Priority').selectOption('high');
      await dialog.getByLabel('Due date').fill('2031-01-15');
      await dialog.getByRole('button', { name: 'Create task' }).click();
      await expect(dialog).toBeHidden();
      const card = page.getByRole('article', { name: title });
      await expect(card).toContainText('High');
      await expect(card).toContainText('To Do');
      await expect(card).toContainText('Unassigned');
      await expectNoSeriousA11yViolations(page, testInfo);
    });

    await test.step('filters: search and priority', async () => {
      await page.getByLabel('Search tasks').fill(title);
      await expect(page.getByRole('article')).toHaveCount(1);
      await page.getByLabel('Priority').selectOption('Low');
      await expect(page.getByText('No tasks match the current filters.')).toBeVisible();
      await page.getByLabel('Priority').selectOption('High');
      await expect(page.getByRole('article', { name: title })).toBeVisible();
    });

    await test.step('share with Northwind Ventures and assign to Maya', async () => {
      await page.getByRole('button', { name: `Share ${title}` }).click();
      let dialog = page.getByRole('dialog', { name: 'Share task' });
      await dialog.getByLabel(DEMO.orgName).check();
      await dialog.getByRole('button', { name: 'Save sharing' }).click();
      await expect(dialog).toBeHidden();
      const card = page.getByRole('article', { name: title });
      await expect(card).toContainText(`Shared with:${DEMO.orgName}`);

      await page.getByRole('button', { name: `Assign ${title}` }).click();
      dialog = page.getByRole('dialog', { name: 'Assign task' });
      await dialog.getByLabel('Assignee').selectOption({ label: MAYA });
      await dialog.getByRole('button', { name: 'Save assignee' }).click();
      await expect(dialog).toBeHidden();
      await expect(card).toContainText(`Assignee:${MAYA}`);

      // The ceo's assignee filter finds it.
      await page.getByLabel('Assigned to').selectOption({ label: MAYA });
      await expect(page.getByRole('article', { name: title })).toBeVisible();
    });

    await test.step('Maya sees it, marks it Done; it shows only with "Include completed tasks"', async () => {
      const maya = await pageAs(browser, baseURL!, DEMO.maya.email, DEMO.maya.password);
      const p = maya.page;
      await p.goto('/app/my-tasks');
      await expect(p.getByLabel('Assigned to')).toHaveCount(0);
      const card = p.getByRole('article', { name: title });
      await expect(card).toBeVisible();
      await expect(card.getByRole('button', { name: `Delete ${title}` })).toHaveCount(0);
      await card.getByRole('button', { name: `Change status of ${title}` }).click();
      await expect(p.getByRole('menuitem')).toHaveCount(6);
      await p.getByRole('menuitem', { name: 'Done' }).click();
      await expect(card).toHaveCount(0);
      await p.getByLabel('Include completed tasks').check();
      await expect(card).toBeVisible();
      await expect(card).toContainText('Done');
      await maya.context.close();
    });

    await test.step('the ceo deletes it after confirmation', async () => {
      await page.reload();
      await expect(page.getByRole('article', { name: title })).toHaveCount(0);
      await page.getByLabel('Include completed tasks').check();
      const card = page.getByRole('article', { name: title });
      await expect(card).toContainText('Done');
      await card.getByRole('button', { name: `Delete ${title}` }).click();
      const confirm = page.getByRole('alertdialog');
      await expectNoSeriousA11yViolations(page, testInfo);
      await confirm.getByRole('button', { name: 'Delete task' }).click();
      await expect(card).toHaveCount(0);
    });
  });
});
