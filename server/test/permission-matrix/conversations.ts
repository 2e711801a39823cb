import { everyone, made, ownerOnly, type Row, type World } from './matrix.ts';

/** Conversations (chat) are private to their owner: for everyone else they do not exist. */
const conversation = async (w: World) =>
  (await made(w, 'owner', 'POST', '/api/conversations/', { name: 'Matrix chat' })).id;

export const conversationRows: Row[] = [
  { op: 'GET /api/conversations', target: () => ({ url: '/api/conversations/' }), expect: everyone(200) },
  {
    op: 'POST /api/conversations',
    target: () => ({ url: '/api/conversations/', body: { name: 'New chat' } }),
    expect: everyone(201),
  },
  {
    op: 'GET /api/conversations/{id}',
    target: async (w) => ({ url: `/api/conversations/${await conversation(w)}` }),
    expect: ownerOnly(200),
  },
  {
    op: 'PUT /api/conversations/{id}',
    target: async (w) => ({ url: `/api/conversations/${await conversation(w)}`, body: { name: 'Renamed' } }),
    expect: ownerOnly(200),
  },
  {
    op: 'DELETE /api/conversations/{id}',
    target: async (w) => ({ url: `/api/conversations/${await conversation(w)}` }),
    expect: ownerOnly(204),
  },
  {
    op: 'GET /api/conversations/{id}/messages',
    target: async (w) => ({ url: `/api/conversations/${await conversation(w)}/messages` }),
    expect: ownerOnly(200),
  },
  {
    op: 'POST /api/conversations/{id}/chat',
    target: async (w) => ({
      url: `/api/conversations/${await conversation(w)}/chat`,
      body: { message_text: 'Hello' },
    }),
    expect: ownerOnly(200),
  },
  {
    op: 'POST /api/conversations/{id}/chat/stop',
    target: async (w) => ({ url: `/api/conversations/${await conversation(w)}/chat/stop` }),
    expect: ownerOnly(200),
  },
  {
    op: 'GET /api/conversations/{id}/events',
    target: async (w) => ({ url: `/api/conversations/${await conversation(w)}/events` }),
    expect: ownerOnly(200),
    stream: true,
  },
  {
    op: 'GET /api/conversations/{id}/attachments',
    target: async (w) => ({ url: `/api/conversations/${await conversation(w)}/attachments` }),
    expect: ownerOnly(200),
  },
];
