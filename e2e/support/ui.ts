import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Picks an option in a select control, whether it is a native <select> or a Radix/shadcn Select
 * (a combobox button that opens a listbox).
 */
export async function chooseOption(page: Page, control: Locator, option: RegExp): Promise<void> {
  const tag = await control.evaluate((el) => el.tagName.toLowerCase());
  if (tag === 'select') {
    const label = await control.locator('option').evaluateAll(
      (opts, src) => {
        const re = new RegExp(src.source, src.flags);
        const hit = (opts as HTMLOptionElement[]).find((o) => re.test(o.label) || re.test(o.value));
        return hit ? hit.value : null;
      },
      { source: option.source, flags: option.flags },
    );
    expect(label, `an option matching ${option} in the select`).not.toBeNull();
    await control.selectOption(label!);
    return;
  }
  await control.click();
  await page.getByRole('option', { name: option }).click();
}

/** A toast (sonner) with this title. */
export function toast(page: Page, title: string | RegExp): Locator {
  return page.locator('[data-sonner-toast]').filter({ hasText: title });
}

/** The table row (or list item) that mentions `text`. */
export function rowWith(page: Page, text: string | RegExp): Locator {
  return page.getByRole('row').filter({ hasText: text });
}

export function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The dialog that shows an invitation's one-time link (no SMTP configured), closed: no dialog left. */
export async function closeInviteLink(page: Page): Promise<void> {
  const linkDialog = page.getByRole('dialog', { name: 'Send this invitation link' });
  await expect(linkDialog.getByLabel('Invitation link')).toHaveValue(/\/invitation#token=/);
  await linkDialog.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
}
