import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from '../support/axe.ts';
import { DEMO, loginViaApi } from '../support/auth.ts';
import { toast } from '../support/ui.ts';

test.describe('conversations and chat', () => {
  test('start a conversation, watch a reply stream in, stop a reply, rename and delete', async ({
    page,
  }, testInfo) => {
    await loginViaApi(page, DEMO.maya.email, DEMO.maya.password);
    await page.goto('/app/run');
    await expect(page.getByRole('heading', { name: 'Run', exact: true })).toBeVisible();

    await test.step('New Interaction opens a conversation named after the local date and time', async () => {
      await page.getByRole('button', { name: 'New Interaction' }).click();
      await expect(page).toHaveURL(/\/app\/conversations\/[0-9a-f-]{36}$/);
      await expect(page.getByRole('heading', { name: /^Conversation \d/ })).toBeVisible();
      await expect(page.getByText('Start a new conversation')).toBeVisible();
      await expectNoSeriousA11yViolations(page, testInfo);
    });

    const log = page.getByRole('log', { name: 'Messages' });
    const replies = log.locator('[data-sender="assistant"]');

    await test.step('a message gets a streamed, grounded reply', async () => {
      await page.getByRole('button', { name: 'More Settings' }).click();
      await page.getByLabel('Internal Search').check();
      await expect(page.getByLabel('Context Messages')).toHaveValue('3');
      await expectNoSeriousA11yViolations(page, testInfo);
      // Record every length the reply goes through, to see it arrive piece by piece.
      await page.evaluate(() => {
        const w = window as unknown as { __lengths: number[] };
        w.__lengths = [];
        const target = document.querySelector('[role="log"]') as HTMLElement;
        new MutationObserver(() => {
          const all = target.querySelectorAll('[data-sender="assistant"]');
          const last = all[all.length - 1];
          if (last) w.__lengths.push(last.textContent?.length ?? 0);
        }).observe(target, { subtree: true, childList: true, characterData: true });
      });
      const input = page.getByLabel('Message', { exact: true });
      await input.fill('  What are my goals and open tasks?  ');
      await input.press('Shift+Enter');
      await input.pressSequentially('Keep it short.');
      await input.press('Enter');
      await expect(input).toHaveValue('');
      await expect(log.locator('[data-sender="user"]').first()).toContainText(
        'What are my goals and open tasks?\nKeep it short.',
      );
      await expect(replies.first()).toHaveAttribute('data-status', 'complete', { timeout: 30_000 });
      await expect(replies.first()).toContainText('Offline engine');
      await expect(replies.first()).toContainText('Sources:');
      const lengths = await page.evaluate(() => (window as unknown as { __lengths: number[] }).__lengths);
      const distinct = new Set(lengths.filter((n) => n > 0));
      expect(distinct.size, `reply lengths seen: ${lengths.join(',')}`).toBeGreaterThan(2);
      await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeVisible();
      await expectNoSeriousA11yViolations(page, testInfo);
    });

    await test.step('the stop button stops a reply and keeps what was written', async () => {
      const input = page.getByLabel('Message', { exact: true });
      await input.fill('Tell me everything about my goals, KPIs, tasks and notes.');
      // The offline engine answers in well under a second: press Stop from inside the page as soon as
      // the server's reply row arrives (its first state), as a person would while it streams.
      const pressed = page.evaluate(
        () =>
          new Promise<string>((resolve) => {
            const log = document.querySelector('[role="log"]') as HTMLElement;
            const observer = new MutationObserver(() => {
              const rows = log.querySelectorAll('[data-sender="assistant"]:not([data-local])');
              const row = rows[1];
              const stop = document.querySelector('button[aria-label="Stop"]') as HTMLButtonElement | null;
              if (row && stop) {
                observer.disconnect();
                stop.click();
                resolve(row.getAttribute('data-status') ?? '');
              }
            });
            observer.observe(log, { subtree: true, childList: true, attributes: true });
          }),
      );
      await input.press('Enter');
      expect(await pressed).toBe('streaming');
      await expect(replies.nth(1)).toHaveAttribute('data-status', 'stopped', { timeout: 15_000 });
      await expect(replies.nth(1)).toContainText('Stopped.');
      await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeVisible();
      // The stop reached the server: after a reload the reply is stored as stopped, not complete.
      await page.reload();
      await expect(log.locator('[data-sender="assistant"]').nth(1)).toHaveAttribute('data-status', 'stopped');
    });

    await test.step('rename inline: a blank or unchanged title is not sent', async () => {
      await page.getByRole('button', { name: /^Conversation \d/ }).click();
      const title = page.getByLabel('Conversation title');
      await title.fill('   ');
      await title.press('Enter');
      await expect(page.getByRole('heading', { name: /^Conversation \d/ })).toBeVisible();
      await page.getByRole('button', { name: /^Conversation \d/ }).click();
      await page.getByLabel('Conversation title').fill('Quarterly planning chat');
      await page.getByLabel('Conversation title').press('Enter');
      await expect(page.getByRole('heading', { name: 'Quarterly planning chat' })).toBeVisible();
      await page.reload();
      await expect(page.getByRole('heading', { name: 'Quarterly planning chat' })).toBeVisible();
      await page.goto('/app/run');
      await expect(page.getByRole('link', { name: /Quarterly planning chat/ })).toBeVisible();
      await expectNoSeriousA11yViolations(page, testInfo);
      await page.getByRole('link', { name: /Quarterly planning chat/ }).click();
      await expect(page.getByRole('heading', { name: 'Quarterly planning chat' })).toBeVisible();
    });

    await test.step('/app/conversations opens the most recently updated conversation', async () => {
      const url = page.url();
      await page.goto('/app/conversations');
      await expect(page).toHaveURL(url);
    });

    await test.step('delete after the confirmation', async () => {
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      const dialog = page.getByRole('alertdialog');
      await expect(dialog).toContainText(
        'Are you sure you want to delete this conversation? This action cannot be undone.',
      );
      await expectNoSeriousA11yViolations(page, testInfo);
      await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
      await expect(toast(page, 'Conversation Deleted')).toBeVisible();
      await expect(page).toHaveURL(/\/app\/run$/);
      await expect(page.getByRole('link', { name: /Quarterly planning chat/ })).toHaveCount(0);
    });
  });
  test('attach a text file to a conversation, ask about it, the reply names it', async ({
    page,
  }, testInfo) => {
    await loginViaApi(page, DEMO.leo.email, DEMO.leo.password);
    await page.goto('/app/run');
    await page.getByRole('button', { name: 'New Interaction' }).click();
    await expect(page).toHaveURL(/\/app\/conversations\/[0-9a-f-]{36}$/);

    const name = `osprey-brief-${Date.now()}.txt`;
    await test.step('"Attach files" uploads into the conversation and shows it as a chip', async () => {
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: 'Attach files' }).click();
      await (await chooser).setFiles({
        name,
        mimeType: 'text/plain',
        buffer: Buffer.from('Project Osprey\nThe Osprey budget is 73000 euros.\nKick-off: 9 June.\n'),
      });
      await expect(page.getByRole('list', { name: 'Attached files' }).getByText(name)).toBeVisible();
      await expectNoSeriousA11yViolations(page, testInfo);
    });

    await test.step('the reply uses the file and cites it by name', async () => {
      const input = page.getByLabel('Message', { exact: true });
      await input.fill('What is the Osprey budget?');
      await input.press('Enter');
      const reply = page.getByRole('log', { name: 'Messages' }).locator('[data-sender="assistant"]').first();
      await expect(reply).toHaveAttribute('data-status', 'complete', { timeout: 30_000 });
      await expect(reply).toContainText(`File “${name}”`);
      await expect(reply).toContainText('73000 euros');
      await expect(reply).toContainText('Sources:');
    });

    await test.step('after a reload the attachment is still listed', async () => {
      await page.reload();
      await expect(page.getByRole('list', { name: 'Attached files' }).getByText(name)).toBeVisible();
    });
  });
});
