import { made, orgEditors, orgWide, type Row, type World } from './matrix.ts';

/**
 * KPI check-ins and a goal's tasks (issue 20 §1) follow the goal's rules: the owner's goal (org A) with one KPI; members
 * read its check-ins, the owner and org managers/admins record one; other tenants get 404.
 */
const kpi = async (w: World) => {
  const goal = await made<{ id: string; kpis: { id: string }[] }>(
    w,
    'owner',
    'POST',
    '/api/strategic-goals/',
    {
      title: 'Matrix KPI goal',
      due_date: '2027-01-01',
      organization_id: w.orgA,
      kpis: [{ name: 'ARR', current_value: 1, target_value: 10 }],
    },
  );
  return `/api/strategic-goals/${goal.id}/kpis/${goal.kpis[0].id}/checkins`;
};

export const goalProgressRows: Row[] = [
  {
    op: 'GET /api/strategic-goals/{id}/kpis/{kpiId}/checkins',
    target: async (w) => ({ url: await w.once('kpi-checkins', () => kpi(w)) }),
    expect: orgWide(200),
  },
  {
    op: 'POST /api/strategic-goals/{id}/kpis/{kpiId}/checkins',
    target: async (w) => ({ url: await kpi(w), body: { value: 2 } }),
    expect: orgEditors(201),
  },
  {
    // The goal's tasks: whoever sees the goal gets the list (of the tasks they may see); others 404.
    op: 'GET /api/strategic-goals/{id}/tasks',
    target: async (w) => ({
      url: (await w.once('kpi-checkins', () => kpi(w))).replace(/\/kpis\/.*$/, '/tasks'),
    }),
    expect: orgWide(200),
  },
];
