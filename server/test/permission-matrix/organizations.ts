import { everyone, made, orgWide, type Row, uniqueEmail, type World } from './matrix.ts';

/**
 * Organizations, their members and invitations, under the rules of issue 16 §2: org rights come
 * from the membership, not the global level. Renaming or deleting needs the platform admin or a ceo
 * who is an org `admin` member; org `admin` members manage members; adding an e-mail always creates
 * an invitation, which only the invitee sees, accepts or declines. Tenant B and the platform admin
 * are no members of org A: its members' list does not exist for tenant B (404).
 */

/** An organization shaped like org A (same members, same levels), for calls that change or delete it. */
async function freshOrg(w: World): Promise<string> {
  const id = await w.t.createOrg(w.users.ceo, `Fresh ${Math.random().toString(36).slice(2, 7)}`);
  await w.t.addToOrg(w.users.ceo, id, w.users.owner, 'user');
  await w.t.addToOrg(w.users.ceo, id, w.users.member, 'user');
  await w.t.addToOrg(w.users.ceo, id, w.users.manager, 'manager');
  await w.t.addToOrg(w.users.ceo, id, w.users.orgAdmin, 'admin');
  await w.t.addToOrg(w.users.ceo, id, w.users.ceoMember, 'user');
  return id;
}

/** A new plain member of org A, the subject of the member calls. */
async function newMember(w: World): Promise<string> {
  const u = await w.t.createUser('user');
  await w.t.addToOrg(w.users.ceo, w.orgA, u, 'user');
  return u.id;
}

/** Tenant A's ceo invites tenant B's ceo into a new organization; returns the invitation's id. */
async function invitationOfOtherCeo(w: World): Promise<string> {
  const org = await w.t.createOrg(w.users.ceo, `Inviting ${Math.random().toString(36).slice(2, 7)}`);
  await made(w, 'ceo', 'POST', `/api/organizations/${org}/users`, { email: w.users.otherCeo.email });
  const res = await w.t.req({
    method: 'GET',
    url: '/api/users/me/invitations',
    token: w.users.otherCeo.token,
  });
  type Invitation = { id: string; organization_id?: string; organization?: { id: string } };
  const body = res.json() as Invitation[] | { invitations?: Invitation[] };
  const list = Array.isArray(body) ? body : (body.invitations ?? []);
  const found = list.find((i) => (i.organization_id ?? i.organization?.id) === org);
  if (!found) throw new Error(`no invitation to ${org} for tenant B's ceo: ${res.statusCode} ${res.body}`);
  return found.id;
}

/** Tenant A's ceo invites tenant B's ceo; returns the secret of the invitation's link (no mail server here). */
async function invitationLinkOfOtherCeo(w: World): Promise<string> {
  const org = await w.t.createOrg(w.users.ceo, `Linking ${Math.random().toString(36).slice(2, 7)}`);
  const sent = await made<{ invite_link: string }>(w, 'ceo', 'POST', `/api/organizations/${org}/users`, {
    email: w.users.otherCeo.email,
  });
  return new URLSearchParams(new URL(sent.invite_link).hash.slice(1)).get('token') ?? '';
}

/** Org-level admins of org A (its ceo, the `admin` member) and the platform admin; the rest of A 403, tenant B 404. */
const memberManagers = (code: number) => ({
  ...orgWide(403),
  orgAdmin: code,
  ceo: code,
  platformAdmin: code,
});

/** The platform admin or a ceo who is an org `admin` member. */
const orgOwners = (code: number) => ({ ...memberManagers(code), orgAdmin: 403 });

/** Only the invitee: anyone else finds no such invitation. */
const inviteeOnly = (code: number) => ({ ...everyone(404), otherCeo: code });

export const organizationRows: Row[] = [
  { op: 'GET /api/organizations', target: () => ({ url: '/api/organizations' }), expect: everyone(200) },
  {
    op: 'POST /api/organizations',
    target: () => ({ url: '/api/organizations', body: { name: `New ${uniqueEmail('o')}` } }),
    // Creating an organization is for the global levels ceo and admin.
    expect: { ...everyone(403), ceo: 201, ceoMember: 201, otherCeo: 201, platformAdmin: 201 },
  },
  {
    op: 'PATCH /api/organizations/{id}',
    target: async (w) => ({ url: `/api/organizations/${await freshOrg(w)}`, body: { name: 'Renamed Co' } }),
    expect: orgOwners(200),
  },
  {
    op: 'DELETE /api/organizations/{id}',
    target: async (w) => ({ url: `/api/organizations/${await freshOrg(w)}` }),
    expect: orgOwners(204),
  },
  {
    op: 'GET /api/organizations/{id}/users',
    target: (w) => ({ url: `/api/organizations/${w.orgA}/users` }),
    expect: { ...orgWide(200), platformAdmin: 200 },
  },
  {
    op: 'POST /api/organizations/{id}/users',
    target: async (w) => {
      const invitee = await w.t.createUser('user');
      return { url: `/api/organizations/${w.orgA}/users`, body: { email: invitee.email } };
    },
    expect: memberManagers(201),
  },
  {
    op: 'PATCH /api/organizations/{id}/users/{userId}',
    target: async (w) => ({
      url: `/api/organizations/${w.orgA}/users/${await newMember(w)}`,
      body: { org_access_level: 'manager' },
    }),
    expect: memberManagers(200),
  },
  {
    op: 'DELETE /api/organizations/{id}/users/{userId}',
    target: async (w) => ({ url: `/api/organizations/${w.orgA}/users/${await newMember(w)}` }),
    expect: memberManagers(204),
  },
  {
    op: 'GET /api/users/me/invitations',
    target: () => ({ url: '/api/users/me/invitations' }),
    expect: everyone(200),
  },
  {
    op: 'POST /api/users/me/invitations/{id}/accept',
    target: async (w) => ({ url: `/api/users/me/invitations/${await invitationOfOtherCeo(w)}/accept` }),
    expect: inviteeOnly(204),
  },
  {
    // The link of an invitation sent to an account opens it for that account only.
    op: 'POST /api/users/me/invitations/claim',
    target: async (w) => ({
      url: '/api/users/me/invitations/claim',
      body: { token: await invitationLinkOfOtherCeo(w) },
    }),
    expect: inviteeOnly(200),
  },
  {
    op: 'POST /api/users/me/invitations/{id}/decline',
    target: async (w) => ({ url: `/api/users/me/invitations/${await invitationOfOtherCeo(w)}/decline` }),
    expect: inviteeOnly(204),
  },
];
