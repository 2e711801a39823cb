import {
  everyone,
  type Expected,
  made,
  orgWide as orgWideMembers,
  platformAdminOnly,
  type Row,
  type World,
} from './matrix.ts';

/** Budgets of org A: its admins (the org admin, its ceo) and the platform admin; members 403; tenant B 404. */
const orgSpendAdmins = (code: number): Expected => ({
  ...everyone(403),
  orgAdmin: code,
  ceo: code,
  otherCeo: 404,
  platformAdmin: code,
});

/** A private crew or flow of tenant A's ceo (an estimate is its creator's, like the item itself). */
async function runnable(w: World, kind: 'crews' | 'flows'): Promise<string> {
  const body =
    kind === 'crews'
      ? { name: `Crew ${Math.random().toString(36).slice(2, 7)}`, version: '1' }
      : {
          name: `Flow ${Math.random().toString(36).slice(2, 7)}`,
          steps: [{ title: 'a', kind: 'wait_for_human' }],
        };
  return (await made(w, 'ceo', 'POST', `/api/${kind}/`, body)).id;
}
const creatorOnly = (code: number): Expected => ({ ...everyone(404), ceo: code });

/** Spend governance: only administrators see others' usage; everyone sees their own. */
export const usageRows: Row[] = [
  {
    op: 'GET /api/admin/model-prices',
    target: () => ({ url: '/api/admin/model-prices' }),
    expect: platformAdminOnly(200),
  },
  {
    op: 'PUT /api/admin/model-prices',
    target: () => ({
      url: '/api/admin/model-prices',
      body: { models: [{ model: 'gpt-5-mini', input_per_million_usd: 0.25, output_per_million_usd: 2 }] },
    }),
    expect: platformAdminOnly(200),
  },
  {
    op: 'GET /api/organizations/{id}/budget',
    target: (w) => ({ url: `/api/organizations/${w.orgA}/budget` }),
    expect: orgSpendAdmins(200),
  },
  {
    op: 'PUT /api/organizations/{id}/budget',
    target: (w) => ({ url: `/api/organizations/${w.orgA}/budget`, body: { monthly_usd: 500 } }),
    expect: orgSpendAdmins(200),
  },
  {
    op: 'GET /api/organizations/{id}/users/{userId}/budget',
    target: (w) => ({ url: `/api/organizations/${w.orgA}/users/${w.users.member.id}/budget` }),
    expect: orgSpendAdmins(200),
  },
  {
    op: 'PUT /api/organizations/{id}/users/{userId}/budget',
    target: (w) => ({
      url: `/api/organizations/${w.orgA}/users/${w.users.member.id}/budget`,
      body: { monthly_usd: 50 },
    }),
    expect: orgSpendAdmins(200),
  },
  {
    op: 'GET /api/usage/summary',
    target: () => ({ url: '/api/usage/summary?group_by=user' }),
    expect: platformAdminOnly(200),
  },
  {
    op: 'GET /api/usage/export',
    target: () => ({ url: '/api/usage/export?format=csv' }),
    expect: platformAdminOnly(200),
  },
  {
    op: 'PUT /api/users/me/run-threshold',
    target: () => ({ url: '/api/users/me/run-threshold', body: { run_confirm_usd: 2 } }),
    expect: everyone(200),
  },
  {
    op: 'PUT /api/users/me/primary-organization',
    target: (w) => ({ url: '/api/users/me/primary-organization', body: { organization_id: w.orgA } }),
    // Only a member of org A may choose it; for anyone else it does not exist.
    expect: orgWideMembers(200),
  },
  {
    op: 'GET /api/crews/{id}/estimate',
    target: async (w) => ({ url: `/api/crews/${await runnable(w, 'crews')}/estimate` }),
    expect: creatorOnly(200),
  },
  {
    op: 'GET /api/flows/{id}/estimate',
    target: async (w) => ({ url: `/api/flows/${await runnable(w, 'flows')}/estimate` }),
    expect: creatorOnly(200),
  },
  { op: 'GET /api/users/me/usage', target: () => ({ url: '/api/users/me/usage' }), expect: everyone(200) },
];
