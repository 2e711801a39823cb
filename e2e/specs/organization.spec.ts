import { expect, test } from '@playwright/test';
import { apiToken, bearer, DEMO, loginViaApi, uniqueEmail } from '../support/auth.ts';
import { closeInviteLink, rowWith, toast } from '../support/ui.ts';

interface OrgRow {
  id: string;
  name: string;
}
interface MemberRow {
  email: string;
  user_id: string | null;
  is_invite: boolean;
}

test.describe('organizations', () => {
  test('the ceo creates an organization and invites an existing user and an unknown e-mail; the user accepts', async ({
    page,
    request,
    browser,
    baseURL,
  }) => {
    const orgName = `E2E Holdings ${Date.now().toString(36)}`;
    const invitee = uniqueEmail('invitee');
    await loginViaApi(page, DEMO.ceo.email, DEMO.ceo.password);
    await page.goto('/app/organization');
    await expect(page.getByRole('heading', { name: /^organization/i }).first()).toBeVisible();

    await test.step('create the organization', async () => {
      await page.getByRole('button', { name: /^(new|create) organization$/i }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel(/name/i).fill(orgName);
      await dialog.getByRole('button', { name: /^(create( organization)?|save)$/i }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByRole('heading', { name: orgName })).toBeVisible();
    });

    await test.step('add an existing user by e-mail: an invitation that shows nothing of the account', async () => {
      await page.getByRole('button', { name: /^add (member|user)$/i }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel(/^email/i).fill(DEMO.maya.email);
      await dialog.getByRole('button', { name: /^(add (member|user)|save|add)$/i }).click();
      // No mail server in this run: the inviter is shown the invitation's link to pass on.
      await closeInviteLink(page);
      await expect(toast(page, 'Invitation Sent')).toBeVisible();
      const row = rowWith(page, DEMO.maya.email);
      await expect(row).toContainText('invited');
      await expect(row).not.toContainText(DEMO.maya.firstName);
    });

    await test.step('add an unknown e-mail: it shows as "invited" and cannot be edited or removed', async () => {
      await page.getByRole('button', { name: /^add (member|user)$/i }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel(/^email/i).fill(invitee);
      await dialog.getByRole('button', { name: /^(add (member|user)|save|add)$/i }).click();
      await closeInviteLink(page);
      const row = rowWith(page, invitee);
      await expect(row).toContainText('invited');
      await expect(row.getByRole('button', { name: /edit|remove|delete/i })).toHaveCount(0);
    });

    await test.step('the server has both memberships, and they survive a reload', async () => {
      const token = await apiToken(request, DEMO.ceo.email, DEMO.ceo.password);
      const orgs = (await (
        await request.get('/api/organizations', { headers: bearer(token) })
      ).json()) as OrgRow[];
      const org = orgs.find((o) => o.name === orgName);
      expect(org, `${orgName} in GET /api/organizations`).toBeTruthy();
      const res = await request.get(`/api/organizations/${org!.id}/users`, { headers: bearer(token) });
      expect(res.status()).toBe(200);
      const members = (await res.json()) as MemberRow[];
      expect(members.find((m) => m.email === DEMO.maya.email)).toMatchObject({
        is_invite: true,
        user_id: null,
      });
      expect(members.find((m) => m.email === invitee)).toMatchObject({ is_invite: true, user_id: null });

      await page.reload();
      await page
        .getByRole('navigation', { name: /organizations/i })
        .getByText(orgName)
        .click();
      await expect(rowWith(page, DEMO.maya.email)).toContainText('invited');
      await expect(rowWith(page, invitee)).toContainText('invited');
    });

    await test.step('the invited user accepts in the Invitations panel and sees the organization read-only', async () => {
      const context = await browser.newContext({ baseURL });
      const p = await context.newPage();
      await loginViaApi(p, DEMO.maya.email, DEMO.maya.password);
      await p.goto('/app/organization');
      const invitation = p
        .getByRole('region', { name: 'Invitations' })
        .getByRole('listitem', { name: `Invitation to ${orgName}` });
      await invitation.getByRole('button', { name: 'Accept' }).click();
      await expect(toast(p, 'Invitation Accepted')).toBeVisible();
      await p
        .getByRole('navigation', { name: /organizations/i })
        .getByText(orgName)
        .click();
      await expect(p.getByRole('heading', { name: orgName })).toBeVisible();
      await expect(rowWith(p, DEMO.maya.email)).toBeVisible();
      await expect(p.getByRole('button', { name: /^(new|create) organization$/i })).toHaveCount(0);
      await expect(p.getByRole('button', { name: /^add (member|user)$/i })).toHaveCount(0);
      await context.close();
    });
  });

  test('"No organization assigned." for a user without any', async ({ page, request }) => {
    const email = uniqueEmail('loner');
    const adminToken = await apiToken(request, DEMO.admin.email, DEMO.admin.password);
    const res = await request.post('/api/users/', {
      headers: bearer(adminToken),
      data: { email, password: 'e2e-password-1', first_name: 'Lone', last_name: 'Wolf', user_level: 'user' },
    });
    expect(res.status(), await res.text()).toBeLessThan(300);
    await loginViaApi(page, email, 'e2e-password-1');
    await page.goto('/app/organization');
    await expect(page.getByText('No organization assigned.')).toBeVisible();
    await expect(toast(page, /error|failed/i)).toHaveCount(0);
  });
});

test.describe('organizations on a phone', () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test('at 375 px the members list fits the screen and every row keeps its actions in view', async ({
    page,
  }) => {
    await loginViaApi(page, DEMO.ceo.email, DEMO.ceo.password);
    await page.goto('/app/organization');
    const table = page.getByRole('table');
    await expect(table.getByText(DEMO.maya.email)).toBeVisible();
    const box = await table.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    const edit = table.getByRole('button', { name: /^Edit / }).first();
    await expect(edit).toBeInViewport();
    const editBox = await edit.boundingBox();
    expect(editBox && editBox.x + editBox.width <= 375).toBe(true);
  });
});
