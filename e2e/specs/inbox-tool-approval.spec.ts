import { expect, test } from '@playwright/test';
import { bearer, DEMO, loginViaApi } from '../support/auth.ts';
import { toast } from '../support/ui.ts';

/**
 * Issue 19: a tool call waiting for approval is approved from the inbox while the run page, open in
 * another tab, shows the run resuming live. The endpoint is a loopback address the server refuses (no
 * allow-list in e2e): the journey is about the decision, not the call.
 */
test('approving a tool call in the inbox resumes the run live on its page', async ({ page, context }) => {
  test.setTimeout(120_000);
  const tag = Date.now().toString(36);
  const token = await loginViaApi(page, DEMO.ceo.email, DEMO.ceo.password);

  const tool = await page.request.post('/api/tools/', {
    headers: bearer(token),
    data: { name: `Inbox hook ${tag}`, http: { url: 'http://127.0.0.1:9/inbox-hook' } },
  });
  expect(tool.status(), await tool.text()).toBe(201);
  const flow = await page.request.post('/api/flows/', {
    headers: bearer(token),
    data: {
      name: `Inbox gated ${tag}`,
      steps: [{ title: 'Send it', kind: 'tool', tool_id: (await tool.json()).id }],
    },
  });
  expect(flow.status(), await flow.text()).toBe(201);
  const started = await page.request.post('/api/flow-runs/', {
    headers: bearer(token),
    data: { flow_id: (await flow.json()).id, inputs: { amount: '7' } },
  });
  expect(started.status(), await started.text()).toBe(201);
  const runId = (await started.json()).flow_run_id as string;

  // The first tab stores the session; the run page opens in a second tab of it and waits with the call.
  await page.goto('/app/inbox');
  const runPage = await context.newPage();
  await runPage.goto(`/app/runs/flow/${runId}`);
  await expect(runPage.getByRole('region', { name: 'Approval needed' })).toBeVisible({ timeout: 30_000 });
  await expect(runPage.getByTestId('run-status')).toHaveText('Flow: Paused');

  // The inbox shows the same call, with where it came from.
  await page.reload();
  const item = page.getByRole('listitem').filter({ hasText: `Approve a call of Inbox hook ${tag}` });
  await expect(item).toBeVisible({ timeout: 30_000 });
  await expect(item.getByText('Tool call to approve')).toBeVisible();
  await expect(item.getByText(/POST http:\/\/127\.0\.0\.1:9\/inbox-hook/)).toBeVisible();
  // Decided as shown: the body that goes out is on the card, and its arguments cannot be edited here.
  await expect(item.getByText(/"amount": "7"/)).toBeVisible();
  await expect(item.getByRole('button', { name: 'Edit' })).toHaveCount(0);
  await item.getByRole('button', { name: 'Approve' }).click();
  await expect(toast(page, 'Approved')).toBeVisible();
  await expect(item).toHaveCount(0);

  // The run page heard it over the run's stream: no reload.
  await expect(runPage.getByRole('region', { name: 'Approval needed' })).toBeHidden({ timeout: 30_000 });
  // The approved call is refused (127.0.0.1 is not allow-listed), so the run fails (issue 46 row 9).
  await expect(runPage.getByTestId('run-status')).toHaveText('Flow: Failed', { timeout: 30_000 });
  await expect(runPage.getByRole('log').getByText(`Approved: Inbox hook ${tag}`)).toBeVisible();
});
