import { expect, type Locator, type Page, type TestInfo, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from '../support/axe.ts';
import { DEMO, loginViaApi } from '../support/auth.ts';

/**
 * Issue 17 §1: while a run waits for a person and after it ends, the message log, the composer and
 * the run's state are all usable, at a laptop size and a phone size (checked by bounding boxes), and
 * axe finds nothing serious in each state of the conversation page.
 */
const FLOW = 'Task Plan with Approval';
const RUN_TIMEOUT = 30_000;

const SIZES = [
  { name: 'wide', width: 1366, height: 850 },
  { name: 'mobile', width: 375, height: 800 },
] as const;

/** The element lies wholly inside the viewport (2 px of rounding allowed). */
async function expectInViewport(page: Page, target: Locator, what: string): Promise<void> {
  const box = await target.boundingBox();
  const view = page.viewportSize();
  expect(box, `${what} has a box`).not.toBeNull();
  if (!box || !view) return;
  expect(box.y, `${what} top`).toBeGreaterThanOrEqual(-2);
  expect(box.x, `${what} left`).toBeGreaterThanOrEqual(-2);
  expect(box.y + box.height, `${what} bottom`).toBeLessThanOrEqual(view.height + 2);
  expect(box.x + box.width, `${what} right`).toBeLessThanOrEqual(view.width + 2);
}

/** The composer fits the viewport, and the latest message's end shows inside the log and the viewport. */
async function expectLogAndComposerUsable(page: Page, state: string): Promise<void> {
  await expectInViewport(page, page.getByLabel('Message', { exact: true }), `composer (${state})`);
  const log = page.getByRole('log', { name: 'Messages' });
  const logBox = await log.boundingBox();
  const view = page.viewportSize();
  expect(logBox && view, `log (${state})`).toBeTruthy();
  if (!logBox || !view) return;
  // A log squeezed to a sliver is not usable: at least 150 px of messages show.
  expect(logBox.height, `log height (${state})`).toBeGreaterThanOrEqual(150);
  const latest = log.getByTestId('chat-message').last();
  await expect(latest).toBeVisible();
  // The log follows the latest message: wait for it to settle at the bottom, then measure.
  await expect
    .poll(async () => {
      const box = await latest.boundingBox();
      return box ? Math.round(box.y + box.height) : -1;
    })
    .toBeLessThanOrEqual(Math.min(logBox.y + logBox.height, view.height) + 2);
  const box = await latest.boundingBox();
  expect(box, `latest message (${state})`).not.toBeNull();
  if (!box) return;
  expect(box.y + box.height, `latest message end below the log top (${state})`).toBeGreaterThan(logBox.y);
}

async function axe(page: Page, testInfo: TestInfo) {
  await expectNoSeriousA11yViolations(page, testInfo);
}

for (const size of SIZES) {
  test(`conversation with a run at ${size.width}×${size.height}: log, composer and run state all usable`, async ({
    page,
  }, testInfo) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    await loginViaApi(page, DEMO.ceo.email, DEMO.ceo.password);
    await page.goto('/app/run');
    await page.getByRole('button', { name: 'New Interaction' }).click();
    await expect(page).toHaveURL(/\/app\/conversations\/[0-9a-f-]{36}$/);
    await expect(page.getByText('Start a new conversation')).toBeVisible();
    const log = page.getByRole('log', { name: 'Messages' });
    const status = page.getByTestId('run-status');

    await test.step('idle', async () => {
      await axe(page, testInfo);
    });

    await test.step('streaming: the reply is on its way', async () => {
      // Hold the request until axe has looked at the page with the reply pending.
      let release: () => void = () => {};
      const held = new Promise<void>((r) => (release = r));
      await page.route('**/api/conversations/*/chat', async (route) => {
        await held;
        await route.continue();
      });
      const input = page.getByLabel('Message', { exact: true });
      await input.fill('What should I focus on this week?');
      await input.press('Enter');
      await expect(log.locator('[data-sender="assistant"][data-status="streaming"]')).toBeVisible();
      await axe(page, testInfo);
      release();
      await expect(log.locator('[data-sender="assistant"]').last()).toHaveAttribute(
        'data-status',
        'complete',
        {
          timeout: RUN_TIMEOUT,
        },
      );
      await page.unroute('**/api/conversations/*/chat');
    });

    await test.step('run active: the flow starts from the picker, which shows display names', async () => {
      await page.getByRole('button', { name: 'Start crew or flow' }).click();
      const picker = page.getByRole('dialog', { name: 'Start a crew or flow' });
      await expect(picker.getByRole('button', { name: /Strategic advice flow/ })).toBeVisible();
      await expect(picker.getByText('strategic_flow', { exact: true })).toHaveCount(0);
      await picker.getByLabel('Search crews and flows').fill(FLOW);
      await picker.getByRole('button', { name: new RegExp(FLOW) }).click();
      await expect(picker).toBeHidden();
      await expect(status).toHaveText(/^Flow: /, { timeout: RUN_TIMEOUT });
      await axe(page, testInfo);
    });

    await test.step('waiting for input: the plan, the question and the answer box are in reach', async () => {
      await expect(status).toHaveText('Flow: Paused', { timeout: RUN_TIMEOUT });
      // The log's run lines are labelled by what ran.
      await expect(log.locator('[data-sender="crew"]').last()).toContainText('Flow');
      await expectLogAndComposerUsable(page, 'waiting');
      await axe(page, testInfo);
      // Issue 47 item 4: on a phone too, nothing is opened first: the question, the output it asks
      // about and the composer are all in the viewport.
      const question = page.getByLabel(/Do you approve this plan\?/);
      await expect(question).toBeVisible();
      await expectInViewport(page, question, 'the answer box');
      const form = page.getByRole('form', { name: "Answer the run's question" });
      await expectInViewport(
        page,
        form.locator('label', { hasText: /Do you approve this plan\?/ }),
        'the question',
      );
      const about = page.getByRole('region', { name: 'What the question is about' });
      await expect(about).toBeVisible();
      await expect(about).not.toBeEmpty();
      await expectInViewport(page, about, 'the output the question is about');
      await expectInViewport(
        page,
        page.getByLabel('Message', { exact: true }),
        'composer beside the question',
      );
      await page.screenshot({ path: testInfo.outputPath(`waiting-${size.name}.png`) });
      const approve = page.getByRole('button', { name: 'Approve' });
      await expectInViewport(page, approve, 'Approve');
      await axe(page, testInfo);
      await approve.click();
      await expect(question).toBeHidden();
    });

    await test.step('finished: the log shows the result with the composer in view', async () => {
      await expect(status).toHaveText('Flow: Completed', { timeout: RUN_TIMEOUT });
      await expect(log.locator('[data-sender="crew"]').last()).toContainText('completed', {
        timeout: RUN_TIMEOUT,
      });
      await expectLogAndComposerUsable(page, 'finished');
      await axe(page, testInfo);
    });
  });
}
