import { everyone, made, ownerOnly, type Row, type World } from './matrix.ts';

/**
 * Comms threads belong to their participants: the owner starts a thread with the plain member of
 * org A. Both may use it; for everyone else (the rest of org A included) it does not exist.
 */
const thread = async (w: World) =>
  (await made(w, 'owner', 'POST', '/api/comms/threads', { participant_ids: [w.users.member.id] })).id;

/** A thread with a suggestion waiting (brought by the screen, as the web does). */
async function withSuggestion(w: World): Promise<string> {
  const id = await thread(w);
  await made(w, 'owner', 'PUT', `/api/comms/threads/${id}/suggestion`, { text: 'Shall we meet?' });
  return id;
}

const participants = (code: number) => ({ ...ownerOnly(code), member: code });

export const commsRows: Row[] = [
  { op: 'GET /api/comms/threads', target: () => ({ url: '/api/comms/threads' }), expect: everyone(200) },
  {
    op: 'POST /api/comms/threads',
    target: async (w) => {
      // A new colleague in org A: no thread with them exists yet.
      const colleague = await w.t.createUser('user');
      await w.t.addToOrg(w.users.ceo, w.orgA, colleague, 'user');
      return { url: '/api/comms/threads', body: { participant_ids: [colleague.id] } };
    },
    // Only approved members of one's own organizations can be messaged (400 with the reason).
    expect: { ...everyone(201), otherCeo: 400, platformAdmin: 400 },
  },
  {
    op: 'GET /api/comms/threads/{id}',
    target: async (w) => ({ url: `/api/comms/threads/${await thread(w)}` }),
    expect: participants(200),
  },
  {
    op: 'PATCH /api/comms/threads/{id}',
    target: async (w) => ({ url: `/api/comms/threads/${await thread(w)}`, body: { name: 'Board' } }),
    expect: participants(200),
  },
  {
    op: 'DELETE /api/comms/threads/{id}',
    target: async (w) => ({ url: `/api/comms/threads/${await thread(w)}` }),
    expect: participants(204),
  },
  {
    op: 'GET /api/comms/threads/{id}/messages',
    target: async (w) => ({ url: `/api/comms/threads/${await thread(w)}/messages` }),
    expect: participants(200),
  },
  {
    op: 'POST /api/comms/threads/{id}/messages',
    target: async (w) => ({ url: `/api/comms/threads/${await thread(w)}/messages`, body: { text: 'Hi' } }),
    expect: participants(201),
  },
  {
    op: 'GET /api/comms/threads/{id}/events',
    target: async (w) => ({ url: `/api/comms/threads/${await thread(w)}/events` }),
    expect: participants(200),
    stream: true,
  },
  {
    op: 'GET /api/comms/threads/{id}/suggestion',
    target: async (w) => ({ url: `/api/comms/threads/${await withSuggestion(w)}/suggestion` }),
    expect: participants(200),
  },
  {
    op: 'PUT /api/comms/threads/{id}/suggestion',
    target: async (w) => ({
      url: `/api/comms/threads/${await thread(w)}/suggestion`,
      body: { text: 'Lunch?' },
    }),
    expect: participants(200),
  },
  {
    op: 'POST /api/comms/threads/{id}/suggestion/use',
    target: async (w) => ({
      url: `/api/comms/threads/${await withSuggestion(w)}/suggestion/use`,
      body: { text: 'Shall we meet?' },
    }),
    expect: participants(201),
  },
  {
    op: 'POST /api/comms/threads/{id}/suggestion/dismiss',
    target: async (w) => ({ url: `/api/comms/threads/${await withSuggestion(w)}/suggestion/dismiss` }),
    // A suggestion is for one participant: the other has none to dismiss.
    expect: ownerOnly(201),
  },
];
