import { everyone, made, orgEditors, orgWide, type Row, type World } from './matrix.ts';

/**
 * Contacts: the owner's contact is shared with org A. Members read it; the owner and org
 * managers/admins edit it and its interactions; only the owner deletes it.
 */
const contact = async (w: World) =>
  (await made(w, 'owner', 'POST', '/api/contacts/', { name: 'Matrix Contact', shared_org_ids: [w.orgA] })).id;

/** A contact with one past interaction. */
async function interaction(w: World): Promise<string> {
  const id = await contact(w);
  const withOne = await made<{ past_interactions: { id: string }[] }>(
    w,
    'owner',
    'POST',
    `/api/contacts/${id}/past-interactions`,
    { date: '2026-01-02', summary: 'Call' },
  );
  return `/api/contacts/${id}/past-interactions/${withOne.past_interactions[0].id}`;
}

export const contactRows: Row[] = [
  {
    op: 'GET /api/contacts',
    target: () => ({ url: '/api/contacts/?search=a&limit=5' }),
    expect: everyone(200),
  },
  {
    op: 'GET /api/contacts/assignable',
    target: () => ({ url: '/api/contacts/assignable' }),
    expect: everyone(200),
  },
  {
    op: 'POST /api/contacts',
    target: () => ({ url: '/api/contacts/', body: { name: 'New Contact' } }),
    expect: everyone(201),
  },
  {
    op: 'GET /api/contacts/{id}',
    target: async (w) => ({ url: `/api/contacts/${await contact(w)}` }),
    expect: orgWide(200),
  },
  {
    op: 'PATCH /api/contacts/{id}',
    target: async (w) => ({ url: `/api/contacts/${await contact(w)}`, body: { role: 'Chair' } }),
    expect: orgEditors(200),
  },
  {
    op: 'DELETE /api/contacts/{id}',
    target: async (w) => ({ url: `/api/contacts/${await contact(w)}` }),
    expect: { ...orgWide(403), owner: 204 },
  },
  {
    op: 'POST /api/contacts/{id}/past-interactions',
    target: async (w) => ({
      url: `/api/contacts/${await contact(w)}/past-interactions`,
      body: { date: '2026-01-01', summary: 'Met' },
    }),
    expect: orgEditors(201),
  },
  {
    op: 'PUT /api/contacts/{id}/past-interactions/{interactionId}',
    target: async (w) => ({ url: await interaction(w), body: { date: '2026-01-03', summary: 'Met again' } }),
    expect: orgEditors(200),
  },
  {
    op: 'DELETE /api/contacts/{id}/past-interactions/{interactionId}',
    target: async (w) => ({ url: await interaction(w) }),
    expect: orgEditors(204),
  },
];
