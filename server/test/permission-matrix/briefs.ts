import { everyone, made, ownerOnly, type Row, type World } from './matrix.ts';

/** Executive briefs are their owner's alone: anyone else's brief does not exist for them (404). */
const brief = (w: World) =>
  w.once('brief', async () => (await made(w, 'owner', 'POST', '/api/briefs/generate', {})).id);

export const briefRows: Row[] = [
  {
    op: 'POST /api/briefs/generate',
    target: () => ({ url: '/api/briefs/generate' }),
    expect: everyone(201),
  },
  { op: 'GET /api/briefs', target: () => ({ url: '/api/briefs/' }), expect: everyone(200) },
  {
    op: 'GET /api/briefs/{id}',
    target: async (w) => ({ url: `/api/briefs/${await brief(w)}` }),
    expect: ownerOnly(200),
  },
];
