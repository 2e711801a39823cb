import { everyone, made, ownerOnly, platformAdminOnly, type Row, type World } from './matrix.ts';

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
  // Super Admin → Models (issue 47 item 3): the platform admin only.
  {
    op: 'GET /api/admin/model-providers',
    target: () => ({ url: '/api/admin/model-providers' }),
    expect: platformAdminOnly(200),
  },
  {
    // The default model: a change that sends no model call anywhere, unlike a key would.
    op: 'PUT /api/admin/model-providers',
    target: () => ({ url: '/api/admin/model-providers', body: { default_model: 'gpt-5-mini' } }),
    expect: platformAdminOnly(200),
  },
  {
    // The matrix has no model server to list: the admin passes the access check and gets the
    // endpoint's refusal (a loopback address outside AI_HTTP_ALLOWLIST), everyone else 403.
    op: 'POST /api/admin/model-providers/test',
    target: () => ({ url: '/api/admin/model-providers/test', body: { base_url: 'http://127.0.0.1:9/v1' } }),
    expect: platformAdminOnly(422),
  },
];
