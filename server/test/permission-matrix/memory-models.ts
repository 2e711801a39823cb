import { everyone, made, ownerOnly, type Row, type World } from './matrix.ts';

/** The AI's memory of a user is theirs alone; the model list and capabilities are for every approved user. */
async function memory(w: World): Promise<string> {
  const mined = await made<{ added: { id: string }[] }>(w, 'owner', 'POST', '/api/memory/mine', {
    content: `My team is in Berlin ${Math.random().toString(36).slice(2, 7)}.`,
  });
  return mined.added[0].id;
}

export const memoryModelRows: Row[] = [
  {
    op: 'POST /api/memory/mine',
    target: () => ({ url: '/api/memory/mine', body: { content: 'I prefer morning meetings.' } }),
    expect: everyone(200),
  },
  { op: 'GET /api/memory/', target: () => ({ url: '/api/memory/' }), expect: everyone(200) },
  {
    op: 'DELETE /api/memory/{id}',
    target: async (w) => ({ url: `/api/memory/${await memory(w)}` }),
    expect: ownerOnly(204),
  },
  { op: 'GET /api/models', target: () => ({ url: '/api/models' }), expect: everyone(200) },
  { op: 'GET /api/ai/capabilities', target: () => ({ url: '/api/ai/capabilities' }), expect: everyone(200) },
];
