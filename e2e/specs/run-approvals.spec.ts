import { expect, type Page, test } from '@playwright/test';
import { bearer, DEMO, loginViaApi } from '../support/auth.ts';

/**
 * Issue 19 §1: a flow whose POST tool needs approval pauses before the call; the run page shows the
 * exact call and the run resumes live once it is decided. The endpoint is a loopback address the
 * server refuses (no allow-list in e2e): the journey is about the gate, not the call.
 */
async function pausedFlow(page: Page, token: string, tag: string) {
  const tool = await page.request.post('/api/tools/', {
    headers: bearer(token),
    data: { name: `E2E hook ${tag}`, http: { url: 'http://127.0.0.1:9/e2e-hook' } },
  });
  expect(tool.status(), await tool.text()).toBe(201);
  expect((await tool.json()).requires_approval).toBe(true);
  const flow = await page.request.post('/api/flows/', {
    headers: bearer(token),
    data: {
      name: `E2E gated ${tag}`,
      steps: [{ title: 'Send it', kind: 'tool', tool_id: (await tool.json()).id }],
    },
  });
  expect(flow.status(), await flow.text()).toBe(201);
  const run = await page.request.post('/api/flow-runs/', {
    headers: bearer(token),
    data: { flow_id: (await flow.json()).id, inputs: { amount: '42' } },
  });
  expect(run.status(), await run.text()).toBe(201);
  return (await run.json()).flow_run_id as string;
}

test.describe('approval gates on the run page', () => {
  test('the run waits with the exact call; Approve resumes it live; Reject needs a reason', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const tag = Date.now().toString(36);
    const token = await loginViaApi(page, DEMO.ceo.email, DEMO.ceo.password);

    await test.step('approve', async () => {
      const runId = await pausedFlow(page, token, `${tag}a`);
      await page.goto(`/app/runs/flow/${runId}`);
      const panel = page.getByRole('region', { name: 'Approval needed' });
      await expect(panel).toBeVisible({ timeout: 30_000 });
      await expect(page.getByTestId('run-status')).toHaveText('Flow: Paused');
      await expect(panel.getByText('http://127.0.0.1:9/e2e-hook')).toBeVisible();
      await expect(panel.getByText('"amount": "42"')).toBeVisible();
      await panel.getByRole('button', { name: 'Approve' }).click();
      await expect(panel).toBeHidden();
      // The approved call goes out and is refused (127.0.0.1 is not allow-listed): the failed call
      // fails the run, with the reason on its timeline (issue 46 row 9).
      await expect(page.getByTestId('run-status')).toHaveText('Flow: Failed', { timeout: 30_000 });
      await expect(page.getByRole('log').getByText(/^Approved: E2E hook/)).toBeVisible();
      await expect(
        page
          .getByRole('log')
          .getByText(/Flow failed: Step "Send it": E2E hook \S+ failed: Refused to connect/),
      ).toBeVisible();
    });

    await test.step('reject with a reason', async () => {
      const runId = await pausedFlow(page, token, `${tag}r`);
      await page.goto(`/app/runs/flow/${runId}`);
      const panel = page.getByRole('region', { name: 'Approval needed' });
      await expect(panel).toBeVisible({ timeout: 30_000 });
      await panel.getByRole('button', { name: 'Reject' }).click();
      await panel.getByRole('button', { name: 'Reject call' }).click();
      await expect(panel.getByRole('alert')).toHaveText('A reason is required');
      await panel.getByLabel('Reason for rejecting').fill('Not this vendor');
      await panel.getByRole('button', { name: 'Reject call' }).click();
      await expect(page.getByTestId('run-status')).toHaveText('Flow: Completed', { timeout: 30_000 });
      await expect(page.getByRole('region', { name: 'Result' })).toContainText('Not this vendor');
    });
  });
});
