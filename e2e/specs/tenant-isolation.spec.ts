import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { apiToken, bearer, DEMO, loginViaApi, pageAs, uniqueEmail } from '../support/auth.ts';
import { closeInviteLink, rowWith, toast } from '../support/ui.ts';

// Organizations are sealed off from each other (issue 16 §2), seen from the browser. Every actor is a
// fresh account with a fresh organization, so the journeys leave the shared demo workspace alone.

const PASSWORD = 'e2e-tenant-pass-1';

interface Person {
  id: string;
  email: string;
  token: string;
  name: string;
}

async function person(request: APIRequestContext, level: 'user' | 'ceo', first: string): Promise<Person> {
  const admin = await apiToken(request, DEMO.admin.email, DEMO.admin.password);
  const email = uniqueEmail(first.toLowerCase());
  const res = await request.post('/api/users/', {
    headers: bearer(admin),
    data: { email, password: PASSWORD, first_name: first, last_name: 'Tenant', user_level: level },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { id } = (await res.json()) as { id: string };
  return { id, email, token: await apiToken(request, email, PASSWORD), name: `${first} Tenant` };
}

async function organization(request: APIRequestContext, owner: Person, name: string): Promise<string> {
  const res = await request.post('/api/organizations', { headers: bearer(owner.token), data: { name } });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** `by` invites `who` and `who` accepts, both through the API. */
async function join(request: APIRequestContext, by: Person, orgId: string, who: Person, level: string) {
  const inv = await request.post(`/api/organizations/${orgId}/users`, {
    headers: bearer(by.token),
    data: { email: who.email, org_access_level: level },
  });
  expect(inv.status(), await inv.text()).toBe(201);
  const { id } = (await inv.json()) as { id: string };
  const ok = await request.post(`/api/users/me/invitations/${id}/accept`, { headers: bearer(who.token) });
  expect(ok.status(), await ok.text()).toBe(204);
}

async function openOrganization(page: Page, name: string) {
  await page.goto('/app/organization');
  await page
    .getByRole('navigation', { name: /organizations/i })
    .getByText(name)
    .click();
  await expect(page.getByRole('heading', { name })).toBeVisible();
}

const invitationTo = (page: Page, orgName: string) =>
  page
    .getByRole('region', { name: 'Invitations' })
    .getByRole('listitem', { name: `Invitation to ${orgName}` });

test.describe('tenant isolation', () => {
  test('a ceo of B invites a user of A: no account fields to change, and the invitee decides', async ({
    page,
    request,
    browser,
    baseURL,
  }) => {
    const suffix = Date.now().toString(36);
    const ceoA = await person(request, 'ceo', 'Ada');
    const ceoB = await person(request, 'ceo', 'Bert');
    const victim = await person(request, 'user', 'Vera');
    const orgA = await organization(request, ceoA, `Tenant A ${suffix}`);
    const orgBName = `Tenant B ${suffix}`;
    const orgB = await organization(request, ceoB, orgBName);
    await join(request, ceoA, orgA, victim, 'user');

    await loginViaApi(page, ceoB.email, PASSWORD);
    await openOrganization(page, orgBName);

    await test.step('B invites the user of A: an invitation that shows nothing of the account', async () => {
      await page.getByRole('button', { name: 'Add member' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Email').fill(victim.email);
      await dialog.getByRole('button', { name: 'Add member' }).click();
      await expect(toast(page, 'Invitation Sent')).toBeVisible();
      await closeInviteLink(page);
      const row = rowWith(page, victim.email);
      await expect(row).toContainText('invited');
      await expect(row).not.toContainText('Vera');
      await expect(row.getByRole('button')).toHaveCount(0);
    });

    const invitee = await pageAs(browser, baseURL!, victim.email, PASSWORD);
    await test.step('the invitee declines in the Invitations panel', async () => {
      await invitee.page.goto('/app/organization');
      await invitationTo(invitee.page, orgBName).getByRole('button', { name: 'Decline' }).click();
      await expect(toast(invitee.page, 'Invitation Declined')).toBeVisible();
      await expect(invitee.page.getByRole('region', { name: 'Invitations' })).toHaveCount(0);
      await page.reload();
      await expect(rowWith(page, victim.email)).toHaveCount(0);
    });

    await test.step('invited again, the invitee accepts; the organization appears in their list', async () => {
      await page.getByRole('button', { name: 'Add member' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Email').fill(victim.email);
      await dialog.getByRole('button', { name: 'Add member' }).click();
      await expect(toast(page, 'Invitation Sent')).toBeVisible();
      await closeInviteLink(page);
      await invitee.page.reload();
      await invitationTo(invitee.page, orgBName).getByRole('button', { name: 'Accept' }).click();
      await expect(toast(invitee.page, 'Invitation Accepted')).toBeVisible();
      await expect(
        invitee.page.getByRole('navigation', { name: /organizations/i }).getByText(orgBName),
      ).toBeVisible();
    });

    await test.step("B's Edit dialog of that member offers no e-mail or password field", async () => {
      await page.reload();
      await page.getByRole('button', { name: `Edit ${victim.name}` }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog.getByText(/not managed by this organization/)).toBeVisible();
      await expect(dialog.getByLabel('New password')).toHaveCount(0);
      await expect(dialog.getByLabel('Email')).toHaveCount(0);
      await expect(dialog.getByLabel('Access level')).toBeVisible();
      // and the server refuses it anyway
      const res = await request.patch(`/api/organizations/${orgB}/users/${victim.id}`, {
        headers: bearer(ceoB.token),
        data: { password: 'attacker-pass-1' },
      });
      expect(res.status()).toBe(403);
      const signIn = await request.post('/api/auth/token', {
        form: { username: victim.email, password: 'attacker-pass-1' },
      });
      expect(signIn.status()).toBe(401);
    });
    await invitee.context.close();
  });

  test('a ceo who is only a plain member of an organization sees it read-only', async ({ page, request }) => {
    const owner = await person(request, 'ceo', 'Olga');
    const plainCeo = await person(request, 'ceo', 'Carl');
    const orgName = `Plain Member Co ${Date.now().toString(36)}`;
    const orgId = await organization(request, owner, orgName);
    await join(request, owner, orgId, plainCeo, 'user');

    await loginViaApi(page, plainCeo.email, PASSWORD);
    await openOrganization(page, orgName);
    await expect(page.getByText('Read-only')).toBeVisible();
    await expect(rowWith(page, owner.email)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add member' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Rename' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Delete' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: `Edit ${owner.name}` })).toHaveCount(0);
    await expect(page.getByRole('button', { name: `Remove ${owner.name}` })).toHaveCount(0);
  });

  test("an org admin cannot demote or remove the organization's ceo: the screen offers no such control", async ({
    page,
    request,
  }) => {
    const ceo = await person(request, 'ceo', 'Cora');
    const lead = await person(request, 'user', 'Lena');
    const staff = await person(request, 'user', 'Sam');
    const orgName = `Demotion Co ${Date.now().toString(36)}`;
    const orgId = await organization(request, ceo, orgName);
    await join(request, ceo, orgId, lead, 'admin');
    await join(request, ceo, orgId, staff, 'user');

    await loginViaApi(page, lead.email, PASSWORD);
    await openOrganization(page, orgName);
    await expect(rowWith(page, ceo.email)).toContainText('Admin');
    await expect(page.getByRole('button', { name: `Edit ${ceo.name}` })).toHaveCount(0);
    await expect(page.getByRole('button', { name: `Remove ${ceo.name}` })).toHaveCount(0);

    await test.step('the org admin still manages the other members (access level only)', async () => {
      await page.getByRole('button', { name: `Edit ${staff.name}` }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog.getByLabel('New password')).toHaveCount(0);
      await dialog.getByLabel('Access level').selectOption('manager');
      await dialog.getByRole('button', { name: 'Save changes' }).click();
      await expect(toast(page, 'User Updated')).toBeVisible();
      await expect(rowWith(page, staff.email)).toContainText('Manager');
    });

    await test.step('and the server refuses the demotion of the ceo', async () => {
      const res = await request.patch(`/api/organizations/${orgId}/users/${ceo.id}`, {
        headers: bearer(lead.token),
        data: { org_access_level: 'user' },
      });
      expect(res.status()).toBe(403);
      expect(((await res.json()) as { detail: string }).detail).toContain(
        "Only a platform administrator can change or remove the organization's CEO",
      );
    });
  });
});
