import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from '../support/axe.ts';
import { DEMO, loginViaApi } from '../support/auth.ts';
import { toast } from '../support/ui.ts';

test.describe('strategic goals', () => {
  test('the ceo creates a goal with two KPIs and sees its average progress on the dashboard', async ({
    page,
  }, testInfo) => {
    const title = `E2E goal ${Date.now().toString(36)}`;
    await loginViaApi(page, DEMO.ceo.email, DEMO.ceo.password);
    await page.goto('/app/strategy');
    await expect(page.getByRole('heading', { name: 'Strategy Center' })).toBeVisible();

    await test.step('the goal dialog requires title and due date', async () => {
      await page.getByRole('button', { name: 'New goal' }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog.getByLabel('Status')).toHaveValue('new');
      await dialog.getByRole('button', { name: 'Save goal' }).click();
      await expect(dialog.getByText('Title and Due Date are required.')).toBeVisible();
    });

    await test.step('no serious accessibility violations with the goal dialog open', async () => {
      await page.getByRole('dialog').getByRole('button', { name: 'Add KPI' }).click();
      await expectNoSeriousA11yViolations(page, testInfo);
    });

    await test.step('create the goal with two KPIs (50 %, and churn under its ceiling: 100 %)', async () => {
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Title').fill(title);
      await dialog.getByLabel('Description').fill('Created by the goals journey');
      await dialog.getByLabel('Due date').fill('2031-06-30');
      await dialog.getByLabel('Organization').selectOption({ label: DEMO.orgName });
      await dialog.getByRole('button', { name: 'Add KPI' }).click();
      await dialog.getByLabel('KPI 1 name').fill('ARR');
      await dialog.getByLabel('Current value of KPI 1').fill('50');
      await dialog.getByLabel('Target value of KPI 1').fill('100');
      await dialog.getByLabel('Unit of KPI 1').fill('k€');
      await dialog.getByLabel('KPI 2 name').fill('Monthly churn');
      await dialog.getByLabel('Current value of KPI 2').fill('3');
      await dialog.getByLabel('Target value of KPI 2').fill('5');
      await dialog.getByLabel('Unit of KPI 2').fill('%');
      await dialog.getByLabel('Direction of KPI 2').selectOption({ label: 'Lower is better' });
      await dialog.getByRole('button', { name: 'Save goal' }).click();
      await expect(toast(page, 'Goal saved')).toBeVisible();
      await expect(dialog).toBeHidden();
      const card = page.getByRole('article', { name: title });
      await expect(card).toContainText('new');
      await expect(card).toContainText(DEMO.orgName);
      // Churn 3 % against a 5 % ceiling is met: (50 + 100) / 2 = 75.
      await expect(card.getByRole('progressbar', { name: `Progress of ${title}` })).toHaveAttribute(
        'aria-valuenow',
        '75',
      );
      await expect(card.getByRole('progressbar', { name: 'Progress of KPI Monthly churn' })).toHaveAttribute(
        'aria-valuenow',
        '100',
      );
      await expect(card).toContainText('(lower is better)');
      // Created today: its straight line starts today, so nothing is expected yet and it is not at risk.
      await expect(card).toContainText('0% expected by today');
      await expect(card.getByText('At risk')).toHaveCount(0);
      await expectNoSeriousA11yViolations(page, testInfo);
    });

    await test.step('the dashboard shows it under its organization with the rounded average', async () => {
      await page.goto('/app/ceodashboard');
      const group = page.getByRole('region', { name: DEMO.orgName });
      const link = group.getByRole('link', { name: new RegExp(title) });
      await expect(link).toContainText('75%');
      await expect(link.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '75');
      await expectNoSeriousA11yViolations(page, testInfo);
      await link.click();
      await expect(page).toHaveURL(/\/app\/strategy$/);
    });

    await test.step('delete it after confirmation', async () => {
      await page.getByRole('button', { name: `Delete ${title}` }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete goal' }).click();
      await expect(toast(page, 'Goal deleted')).toBeVisible();
      await expect(page.getByRole('article', { name: title })).toHaveCount(0);
    });
  });
});
