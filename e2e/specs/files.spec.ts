import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from '../support/axe.ts';
import { DEMO, loginViaApi } from '../support/auth.ts';

// A 1x1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** Drops a file on the drop zone the way a browser does (a DataTransfer carrying a File). */
async function dropFile(page: Page, name: string, text: string) {
  const dataTransfer = await page.evaluateHandle(
    ({ name, text }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], name, { type: 'text/plain' }));
      return dt;
    },
    { name, text },
  );
  const zone = page.getByTestId('file-drop-zone');
  await zone.dispatchEvent('dragenter', { dataTransfer });
  await zone.dispatchEvent('dragover', { dataTransfer });
  await zone.dispatchEvent('drop', { dataTransfer });
}

test.describe('files', () => {
  test('upload (picker and drag and drop), preview, download and delete files', async ({
    page,
  }, testInfo) => {
    const tag = Date.now().toString(36);
    const textName = `brief-${tag}.txt`;
    const imageName = `chart-${tag}.png`;
    const droppedName = `dropped-${tag}.md`;
    const text = 'Board brief: grow ARR by 30 percent.';

    await loginViaApi(page, DEMO.ceo.email, DEMO.ceo.password);
    await page.goto('/app/files');
    await expect(page.getByRole('heading', { name: 'Files', exact: true })).toBeVisible();
    await expectNoSeriousA11yViolations(page, testInfo);

    await test.step('upload two files with the picker, each with its own progress', async () => {
      await page.getByLabel('Files to upload').setInputFiles([
        { name: textName, mimeType: 'text/plain', buffer: Buffer.from(text) },
        { name: imageName, mimeType: 'image/png', buffer: PNG },
      ]);
      const uploads = page.getByRole('list').filter({ hasText: textName }).first();
      await expect(uploads.getByText('Uploaded')).toHaveCount(2);
      await expect(page.getByRole('progressbar', { name: `Upload progress of ${textName}` })).toHaveAttribute(
        'aria-valuenow',
        '100',
      );
      const row = page.getByTestId('file-row').filter({ hasText: textName });
      await expect(row).toBeVisible();
      await expect(row).toContainText(`${text.length} Bytes`);
      await expect(page.getByTestId('file-row').filter({ hasText: imageName })).toContainText('PNG image');
    });

    await test.step('upload by drag and drop', async () => {
      await dropFile(page, droppedName, '# Dropped\n');
      await expect(page.getByTestId('file-row').filter({ hasText: droppedName })).toBeVisible();
    });

    await test.step('search by name', async () => {
      await page.getByLabel('Search files').fill(`chart-${tag}`);
      await expect(page.getByTestId('file-row')).toHaveCount(1);
      await expect(page.getByTestId('file-row')).toContainText(imageName);
      await page.getByLabel('Search files').fill('');
      await expect(page.getByTestId('file-row').filter({ hasText: textName })).toBeVisible();
    });

    await test.step('preview text and an image (axe with the dialog open)', async () => {
      await page.getByRole('button', { name: `Preview ${textName}` }).click();
      let dialog = page.getByRole('dialog', { name: textName });
      await expect(dialog.getByRole('region', { name: `Content of ${textName}` })).toHaveText(text);
      // A one-line text sizes the dialog to itself, not to the 896 px a PDF gets.
      await expect.poll(async () => (await dialog.boundingBox())?.width ?? 0).toBeLessThan(700);
      await expectNoSeriousA11yViolations(page, testInfo);
      await dialog.getByRole('button', { name: 'Close' }).first().click();
      await expect(dialog).toBeHidden();

      await page.getByRole('button', { name: `Preview ${imageName}` }).click();
      dialog = page.getByRole('dialog', { name: imageName });
      const img = dialog.getByRole('img', { name: `Preview of ${imageName}` });
      await expect(img).toBeVisible();
      await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(1);
      await expect.poll(async () => (await dialog.boundingBox())?.width ?? 0).toBeLessThan(700);
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
    });

    await test.step('download saves the file under its name with its bytes', async () => {
      const downloading = page.waitForEvent('download');
      await page.getByRole('button', { name: `Download ${textName}` }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toBe(textName);
      const saved = await download.path();
      expect(await readFile(saved, 'utf8')).toBe(text);
    });

    await test.step('delete with confirmation', async () => {
      await page.getByRole('button', { name: `More actions for ${textName}` }).click();
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Delete file?' });
      await expect(confirm).toContainText(textName);
      await expectNoSeriousA11yViolations(page, testInfo);
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await expect(confirm).toBeHidden();
      await expect(page.getByTestId('file-row').filter({ hasText: textName })).toHaveCount(0);
      await expect(page.getByTestId('file-row').filter({ hasText: imageName })).toBeVisible();
    });

    await test.step('fits a 360 px screen', async () => {
      await page.setViewportSize({ width: 360, height: 740 });
      await expect(page.getByTestId('file-row').filter({ hasText: imageName })).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await expectNoSeriousA11yViolations(page, testInfo);
    });
  });
});
