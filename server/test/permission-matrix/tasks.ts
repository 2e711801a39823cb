import { everyone, made, orgEditors, orgWide, type Row, type World } from './matrix.ts';

/**
 * Tasks: the owner's task is shared with org A. Members read it; the creator and org managers/admins
 * edit and assign it (a global ceo member assigns too); sharing and deleting are the creator's.
 */
const task = async (w: World) =>
  (await made(w, 'owner', 'POST', '/api/tasks/', { title: 'Matrix task', shared_org_ids: [w.orgA] })).id;

export const taskRows: Row[] = [
  { op: 'GET /api/tasks', target: () => ({ url: '/api/tasks/' }), expect: everyone(200) },
  { op: 'GET /api/tasks/urgent', target: () => ({ url: '/api/tasks/urgent' }), expect: everyone(200) },
  {
    op: 'POST /api/tasks',
    target: () => ({ url: '/api/tasks/', body: { title: 'New task' } }),
    expect: everyone(201),
  },
  {
    op: 'GET /api/tasks/{id}',
    target: async (w) => ({ url: `/api/tasks/${await task(w)}` }),
    expect: orgWide(200),
  },
  {
    op: 'PUT /api/tasks/{id}',
    target: async (w) => ({ url: `/api/tasks/${await task(w)}`, body: { title: 'Renamed' } }),
    expect: orgEditors(200),
  },
  {
    op: 'PUT /api/tasks/{id}/assign',
    target: async (w) => ({
      url: `/api/tasks/${await task(w)}/assign`,
      body: { assigned_to_user_id: w.users.member.id },
    }),
    // Assigning is also open to a global ceo who is a plain member.
    expect: { ...orgEditors(200), ceoMember: 200 },
  },
  {
    op: 'DELETE /api/tasks/{id}',
    target: async (w) => ({ url: `/api/tasks/${await task(w)}` }),
    expect: { ...orgWide(403), owner: 204 },
  },
  {
    op: 'POST /api/tasks/{id}/share/orgs',
    target: async (w) => ({ url: `/api/tasks/${await task(w)}/share/orgs`, body: { ids: [] } }),
    expect: { ...orgWide(403), owner: 200 },
  },
  {
    op: 'GET /api/tasks/{id}/shares',
    target: async (w) => ({ url: `/api/tasks/${await task(w)}/shares` }),
    expect: orgWide(200),
  },
];
