import { expect, test } from '@playwright/test';

test('the API docs load with their operations and no console error (Content-Security-Policy included)', async ({
  page,
}) => {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto('/api/docs');
  await expect(page.locator('.opblock').first()).toBeVisible();
  await expect(page.getByText('Command Centre API').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(problems).toEqual([]);
});
