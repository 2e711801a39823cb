import { PASSWORD } from '../helpers.ts';
import { everyone, made, ownerOnly, type Row, type World } from './matrix.ts';

/** A personal API key is its owner's alone: anyone approved may make keys, only the owner revokes one. */
async function key(w: World): Promise<string> {
  const k = await made<{ id: string }>(w, 'owner', 'POST', '/api/users/me/api-keys', {
    name: `matrix ${Math.random().toString(36).slice(2, 7)}`,
    scopes: ['read:tasks'],
    // The world's sessions may be older than the recent-sign-in window by the time a row runs.
    current_password: PASSWORD,
  });
  return k.id;
}

export const apiKeyRows: Row[] = [
  {
    op: 'POST /api/users/me/api-keys',
    target: () => ({
      url: '/api/users/me/api-keys',
      body: { name: 'matrix', scopes: ['read:tasks'], current_password: PASSWORD },
    }),
    expect: everyone(201),
  },
  {
    op: 'GET /api/users/me/api-keys',
    target: () => ({ url: '/api/users/me/api-keys' }),
    expect: everyone(200),
  },
  {
    op: 'DELETE /api/users/me/api-keys/{id}',
    target: async (w) => ({ url: `/api/users/me/api-keys/${await key(w)}` }),
    expect: ownerOnly(204),
  },
];
