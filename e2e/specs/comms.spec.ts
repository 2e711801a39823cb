import { expect, type Page, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from '../support/axe.ts';
import { DEMO, loginViaApi, pageAs } from '../support/auth.ts';

const OLIVIA = `${DEMO.ceo.firstName} ${DEMO.ceo.lastName}`;
const MAYA = `${DEMO.maya.firstName} ${DEMO.maya.lastName}`;

const threadButton = (page: Page, name: string) =>
  page.getByRole('list', { name: 'Conversations' }).getByRole('button', { name: new RegExp(`^${name}`) });

async function openThread(page: Page, name: string) {
  await threadButton(page, name).click();
  await expect(page.getByRole('heading', { name, exact: true })).toBeVisible();
  await expect(page.getByTestId('comms-stream-status')).toHaveAttribute('data-status', 'open');
}

test.describe('comms center', () => {
  test('two people chat live, use and dismiss AI suggestions, and a demo colleague answers', async ({
    page,
    browser,
    baseURL,
  }, testInfo) => {
    test.setTimeout(180_000);
    const stamp = Date.now().toString(36);
    await loginViaApi(page, DEMO.ceo.email, DEMO.ceo.password);
    await page.goto('/app/comms');
    await expect(page.getByRole('heading', { name: 'Comms Center' })).toBeVisible();

    await test.step('the seeded conversations are listed with previews', async () => {
      await expect(threadButton(page, 'Sofia Rossi')).toContainText('VP of Sales');
      await expect(threadButton(page, MAYA)).toBeVisible();
      await expectNoSeriousA11yViolations(page, testInfo);
    });

    const maya = await pageAs(browser, baseURL as string, DEMO.maya.email, DEMO.maya.password);
    try {
      await maya.page.goto('/app/comms');
      await openThread(maya.page, OLIVIA);
      await openThread(page, MAYA);

      const hello = `Hello Maya, can we schedule a call? ${stamp}`;
      await test.step('a message typed by one appears live for the other', async () => {
        const composer = page.getByPlaceholder('Type a message...');
        await expect(page.getByRole('button', { name: 'Send message' })).toBeDisabled();
        await composer.fill(hello);
        await composer.press('Enter');
        await expect(composer).toHaveValue('');
        await expect(page.getByTestId('comms-message').filter({ hasText: hello })).toHaveAttribute(
          'data-own',
          'true',
        );
        await expect(maya.page.getByTestId('comms-message').filter({ hasText: hello })).toHaveAttribute(
          'data-own',
          'false',
        );
      });

      const reply = `Tomorrow at 10 works ${stamp}`;
      await test.step('the recipient edits and uses the AI suggestion', async () => {
        await expect(maya.page.getByRole('button', { name: 'AI suggestion available...' })).toBeVisible();
        const field = maya.page.getByLabel('Suggested reply');
        await expect(field).not.toHaveValue('');
        await expectNoSeriousA11yViolations(maya.page, testInfo);
        await field.fill(reply);
        await maya.page.getByRole('button', { name: 'Use Suggestion' }).click();
        await expect(maya.page.getByRole('button', { name: 'AI suggestion available...' })).toBeHidden();
        await expect(maya.page.getByTestId('comms-message').filter({ hasText: reply })).toHaveAttribute(
          'data-own',
          'true',
        );
        await expect(page.getByTestId('comms-message').filter({ hasText: reply })).toBeVisible();
      });

      await test.step('the other side ignores its suggestion', async () => {
        await expect(page.getByRole('button', { name: 'AI suggestion available...' })).toBeVisible();
        await page.getByRole('button', { name: 'Ignore' }).click();
        await expect(page.getByText('AI suggestion dismissed by user.').last()).toBeVisible();
        await expect(page.getByRole('button', { name: 'AI suggestion available...' })).toBeHidden();
        // The note is for the person who ignored it.
        await expect(maya.page.getByText('AI suggestion dismissed by user.')).toHaveCount(0);
      });
    } finally {
      await maya.context.close();
    }

    await test.step('a demo colleague replies by script', async () => {
      await page.getByRole('button', { name: 'Back to conversations' }).click();
      await openThread(page, 'Sofia Rossi');
      const before = await page.getByTestId('comms-message').count();
      const composer = page.getByPlaceholder('Type a message...');
      await composer.fill(`Sofia, any news on the pipeline? ${stamp}`);
      await page.getByRole('button', { name: 'Send message' }).click();
      await expect(page.getByTestId('comms-message')).toHaveCount(before + 2, { timeout: 5000 });
      await expect(page.getByTestId('comms-message').last()).toHaveAttribute('data-own', 'false');
      await expect(page.getByTestId('comms-message').last()).toContainText('Sofia Rossi');
    });

    await test.step('Create Conversation: Create is disabled until someone is ticked', async () => {
      await page.getByRole('button', { name: 'New Message' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create Conversation' });
      await expect(dialog.getByRole('button', { name: 'Create' })).toBeDisabled();
      await dialog.getByRole('searchbox', { name: 'Search contacts' }).fill('nobody-like-this');
      await expect(dialog.getByText('No contacts found')).toBeVisible();
      await dialog.getByRole('searchbox', { name: 'Search contacts' }).fill('technology');
      await dialog.getByRole('checkbox', { name: 'James Okafor' }).check();
      await expectNoSeriousA11yViolations(page, testInfo);
      await dialog.getByRole('button', { name: 'Create' }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByRole('heading', { name: 'James Okafor', exact: true })).toBeVisible();
    });

    await test.step('Edit Name renames the conversation for me', async () => {
      await page.getByRole('button', { name: 'Conversation options' }).click();
      await page.getByRole('menuitem', { name: 'Edit Name' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit Name' });
      await dialog.getByLabel('Conversation name').fill(`Tech sync ${stamp}`);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByRole('heading', { name: `Tech sync ${stamp}` })).toBeVisible();
    });

    await test.step('Delete Chat removes it from my list', async () => {
      await page.getByRole('button', { name: 'Conversation options' }).click();
      await page.getByRole('menuitem', { name: 'Delete Chat' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
      await expect(threadButton(page, `Tech sync ${stamp}`)).toHaveCount(0);
    });
  });

  test('a message arriving while a suggestion is open comes into view above it; scrolled up, "Latest" appears', async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const stamp = Date.now().toString(36);
    await loginViaApi(page, DEMO.ceo.email, DEMO.ceo.password);
    await page.goto('/app/comms');
    const maya = await pageAs(browser, baseURL as string, DEMO.maya.email, DEMO.maya.password);
    try {
      await maya.page.setViewportSize({ width: 1280, height: 720 });
      await maya.page.goto('/app/comms');
      await openThread(maya.page, OLIVIA);
      await openThread(page, MAYA);
      const composer = page.getByPlaceholder('Type a message...');
      const send = async (text: string) => {
        await composer.fill(text);
        await composer.press('Enter');
        // Sent and the composer cleared before the next one is typed.
        await expect(page.getByTestId('comms-message').filter({ hasText: text })).toHaveCount(1);
        await expect(composer).toHaveValue('');
        await expect(maya.page.getByTestId('comms-message').filter({ hasText: text })).toHaveCount(1);
      };
      // Enough messages that Maya's list scrolls.
      for (let i = 1; i <= 14; i++) await send(`Line ${i} of the agenda, ${stamp}`);
      const log = maya.page.getByRole('log', { name: 'Messages' });
      const inLog = async (text: string) => {
        // The bubble with the text (its sender's name above it may be cut at the log's top edge).
        const box = await log.getByText(text, { exact: true }).boundingBox();
        const area = await log.boundingBox();
        return !!box && !!area && box.y >= area.y - 1 && box.y + box.height <= area.y + area.height + 1;
      };

      await test.step('with the suggestion panel open, a new message is in view above it', async () => {
        await expect(maya.page.getByLabel('Suggested reply')).toBeVisible();
        const question = `Can you send the board deck by Friday? ${stamp}`;
        await send(question);
        await expect(maya.page.getByLabel('Suggested reply')).toBeVisible();
        await expect.poll(() => inLog(question)).toBe(true);
      });

      await test.step('scrolled up, the reader keeps their place and "Latest" takes them down', async () => {
        await log.evaluate((el) => {
          el.scrollTop = 0;
        });
        const later = `One more thing about the offsite ${stamp}`;
        await send(later);
        const latest = maya.page.getByRole('button', { name: 'Jump to latest message' });
        await expect(latest).toBeVisible();
        expect(await inLog(later)).toBe(false);
        await latest.click();
        await expect.poll(() => inLog(later)).toBe(true);
        await expect(latest).toBeHidden();
      });
    } finally {
      await maya.context.close();
    }
  });

  test('at 360 px the list and the thread take turns', async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await loginViaApi(page, DEMO.ceo.email, DEMO.ceo.password);
    await page.goto('/app/comms');
    await expect(threadButton(page, 'Sofia Rossi')).toBeVisible();
    await threadButton(page, 'Sofia Rossi').click();
    await expect(page.getByRole('heading', { name: 'Sofia Rossi', exact: true })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Conversations' })).toBeHidden();
    await expect(page.getByPlaceholder('Type a message...')).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectNoSeriousA11yViolations(page, testInfo);
    await page.getByRole('button', { name: 'Back to conversations' }).click();
    await expect(page.getByRole('list', { name: 'Conversations' })).toBeVisible();
  });
});
