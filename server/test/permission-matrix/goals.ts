import { everyone, made, orgEditors, orgWide, type Row, type World } from './matrix.ts';

/** Strategic goals: the owner's goal belongs to org A. Members read it; the owner and org managers/admins change it. */
const goal = async (w: World) =>
  (
    await made(w, 'owner', 'POST', '/api/strategic-goals/', {
      title: 'Matrix goal',
      due_date: '2027-01-01',
      organization_id: w.orgA,
    })
  ).id;

export const goalRows: Row[] = [
  { op: 'GET /api/strategic-goals', target: () => ({ url: '/api/strategic-goals/' }), expect: everyone(200) },
  {
    op: 'POST /api/strategic-goals',
    target: () => ({ url: '/api/strategic-goals/', body: { title: 'G', due_date: '2027-02-01' } }),
    expect: everyone(201),
  },
  {
    op: 'GET /api/strategic-goals/{id}',
    target: async (w) => ({ url: `/api/strategic-goals/${await goal(w)}` }),
    expect: orgWide(200),
  },
  {
    op: 'PUT /api/strategic-goals/{id}',
    target: async (w) => ({
      url: `/api/strategic-goals/${await goal(w)}`,
      body: { title: 'Renamed', due_date: '2027-03-01' },
    }),
    expect: orgEditors(200),
  },
  {
    op: 'DELETE /api/strategic-goals/{id}',
    target: async (w) => ({ url: `/api/strategic-goals/${await goal(w)}` }),
    expect: orgEditors(204),
  },
];
