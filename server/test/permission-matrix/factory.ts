import { everyone, made, platformAdminOnly, type Row, type World } from './matrix.ts';

/**
 * The AI Factory: agents, tools, crews and flows. Only the global levels ceo and admin create them
 * (so tenant A's ceo owns the fixtures); a private item is its creator's.
 */
type Kind = 'agents' | 'tools' | 'crews' | 'flows';

const BODY: Record<Kind, () => Record<string, unknown>> = {
  agents: () => ({ name: 'Scout', role: 'Scout', goal: 'Find leads' }),
  tools: () => ({
    name: `Lookup ${Math.random().toString(36).slice(2, 7)}`,
    http: { url: 'http://127.0.0.1:9/x' },
  }),
  crews: () => ({ name: `Crew ${Math.random().toString(36).slice(2, 7)}`, version: '1' }),
  flows: () => ({
    name: `Flow ${Math.random().toString(36).slice(2, 7)}`,
    steps: [{ title: 'a', kind: 'wait_for_human' }],
  }),
};

const item = async (w: World, kind: Kind) => (await made(w, 'ceo', 'POST', `/api/${kind}/`, BODY[kind]())).id;

/** Creating is for the global levels ceo and admin. */
const creators = (code: number) => ({
  ...everyone(403),
  ceo: code,
  ceoMember: code,
  otherCeo: code,
  platformAdmin: code,
});
/** A private item is its creator's; for everyone else, the platform admin included, it does not exist. */
const creatorOnly = (code: number) => ({ ...everyone(404), ceo: code });

function kindRows(kind: Kind): Row[] {
  return [
    { op: `GET /api/${kind}`, target: () => ({ url: `/api/${kind}/` }), expect: everyone(200) },
    {
      op: `POST /api/${kind}`,
      target: () => ({ url: `/api/${kind}/`, body: BODY[kind]() }),
      expect: creators(201),
    },
    {
      op: `GET /api/${kind}/{id}`,
      target: async (w) => ({ url: `/api/${kind}/${await item(w, kind)}` }),
      expect: creatorOnly(200),
    },
    {
      op: `PUT /api/${kind}/{id}`,
      target: async (w) => ({ url: `/api/${kind}/${await item(w, kind)}`, body: BODY[kind]() }),
      expect: creatorOnly(200),
    },
    {
      op: `DELETE /api/${kind}/{id}`,
      target: async (w) => ({ url: `/api/${kind}/${await item(w, kind)}` }),
      expect: creatorOnly(204),
    },
  ];
}

export const factoryRows: Row[] = [
  ...kindRows('agents'),
  ...kindRows('tools'),
  ...kindRows('crews'),
  ...kindRows('flows'),
  // The side-effect-free destinations (issue 46 row 5): a platform administrator's list.
  {
    op: 'GET /api/admin/outbound-allowlist',
    target: () => ({ url: '/api/admin/outbound-allowlist' }),
    expect: platformAdminOnly(200),
  },
  {
    op: 'PUT /api/admin/outbound-allowlist',
    target: () => ({
      url: '/api/admin/outbound-allowlist',
      body: { entries: [{ method: 'GET', destination: 'https://api.example.com/v1/search' }] },
    }),
    expect: platformAdminOnly(200),
  },
  {
    op: 'GET /api/crews/{id}/input-schema',
    target: async (w) => ({ url: `/api/crews/${await item(w, 'crews')}/input-schema` }),
    expect: creatorOnly(200),
  },
];
