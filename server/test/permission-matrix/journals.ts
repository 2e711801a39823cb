import { everyone, made, ownerOnly, type Row, type World } from './matrix.ts';

/** Notes (journals) are private to their owner: for everyone else they do not exist. */
const note = async (w: World) =>
  (await made(w, 'owner', 'POST', '/api/journals/', { content: 'Matrix note' })).id;

export const journalRows: Row[] = [
  {
    op: 'GET /api/journals',
    target: () => ({ url: '/api/journals/?skip=0&limit=100' }),
    expect: everyone(200),
  },
  {
    op: 'POST /api/journals',
    target: () => ({ url: '/api/journals/', body: { content: 'N' } }),
    expect: everyone(201),
  },
  {
    op: 'GET /api/journals/{id}',
    target: async (w) => ({ url: `/api/journals/${await note(w)}` }),
    expect: ownerOnly(200),
  },
  {
    op: 'PUT /api/journals/{id}',
    target: async (w) => ({ url: `/api/journals/${await note(w)}`, body: { content: 'Edited' } }),
    expect: ownerOnly(200),
  },
  {
    op: 'DELETE /api/journals/{id}',
    target: async (w) => ({ url: `/api/journals/${await note(w)}` }),
    expect: ownerOnly(204),
  },
];
