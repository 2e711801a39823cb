import { everyone, made, orgEditors, orgWide, ownerOnly, type Row, type World } from './matrix.ts';

/**
 * Strategic advice: the owner's advice belongs to org A. Members read it; the owner and org
 * managers/admins change it. Generate Advice runs are their starter's.
 */
const advice = async (w: World) =>
  (
    await made(w, 'owner', 'POST', '/api/strategic-advice/', {
      content: 'Matrix advice',
      organization_id: w.orgA,
    })
  ).id;

export const adviceRows: Row[] = [
  {
    op: 'GET /api/strategic-advice',
    target: () => ({ url: '/api/strategic-advice/' }),
    expect: everyone(200),
  },
  {
    op: 'POST /api/strategic-advice',
    target: () => ({ url: '/api/strategic-advice/', body: { content: 'A' } }),
    expect: everyone(201),
  },
  {
    op: 'GET /api/strategic-advice/{id}',
    target: async (w) => ({ url: `/api/strategic-advice/${await advice(w)}` }),
    expect: orgWide(200),
  },
  {
    op: 'PUT /api/strategic-advice/{id}',
    target: async (w) => ({ url: `/api/strategic-advice/${await advice(w)}`, body: { content: 'Edited' } }),
    expect: orgEditors(200),
  },
  {
    op: 'PATCH /api/strategic-advice/{id}/feedback',
    target: async (w) => ({
      url: `/api/strategic-advice/${await advice(w)}/feedback`,
      body: { feedback: 'Useful' },
    }),
    expect: orgEditors(200),
  },
  {
    op: 'DELETE /api/strategic-advice/{id}',
    target: async (w) => ({ url: `/api/strategic-advice/${await advice(w)}` }),
    expect: orgEditors(204),
  },
  {
    op: 'POST /api/flow/run/strategic_flow',
    target: () => ({ url: '/api/flow/run/strategic_flow', body: {} }),
    expect: everyone(202),
  },
  {
    op: 'GET /api/flow/runs/{id}',
    target: async (w) => ({
      url: `/api/flow/runs/${(await made(w, 'owner', 'POST', '/api/flow/run/strategic_flow', {})).id}`,
    }),
    expect: ownerOnly(200),
  },
];
