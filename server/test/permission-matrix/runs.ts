import { everyone, made, ownerOnly, type Row, type World } from './matrix.ts';

/**
 * Crew and flow runs are their starter's. The owner runs a public crew and a public flow of the
 * platform administrator (only they make items public). The matrix app runs no run worker, so runs
 * stay queued: continuing a run that is not waiting for input answers 409 to its owner (past the
 * access check), 404 to everyone else.
 */
function publicDefinitions(w: World) {
  return w.once('public run definitions', async () => ({
    crew: (
      await made(w, 'platformAdmin', 'POST', '/api/crews/', {
        name: 'Matrix crew',
        version: '1',
        is_public: true,
        tasks: [{ description: 'Summarise the week' }],
      })
    ).id,
    flow: (
      await made(w, 'platformAdmin', 'POST', '/api/flows/', {
        name: 'Matrix flow',
        is_public: true,
        steps: [{ title: 'Wait', kind: 'wait_for_human' }],
      })
    ).id,
  }));
}

const conversation = async (w: World) =>
  (await made(w, 'owner', 'POST', '/api/conversations/', { name: 'Run chat' })).id;

async function run(w: World, kind: 'crew' | 'flow'): Promise<string> {
  const defs = await publicDefinitions(w);
  const started = await made<Record<string, string>>(w, 'owner', 'POST', `/api/${kind}-runs/`, {
    [`${kind}_id`]: defs[kind],
  });
  return started[`${kind}_run_id`];
}

function kindRows(kind: 'crew' | 'flow'): Row[] {
  return [
    {
      op: `POST /api/${kind}-runs`,
      target: async (w) => ({
        url: `/api/${kind}-runs/`,
        body: { [`${kind}_id`]: (await publicDefinitions(w))[kind] },
      }),
      expect: everyone(201),
    },
    {
      op: `GET /api/${kind}-runs`,
      target: async (w) => ({ url: `/api/${kind}-runs/?conversation_id=${await conversation(w)}` }),
      expect: ownerOnly(200),
    },
    {
      op: `GET /api/${kind}-runs/{id}`,
      target: async (w) => ({ url: `/api/${kind}-runs/${await run(w, kind)}` }),
      expect: ownerOnly(200),
    },
    {
      op: `GET /api/${kind}-runs/{id}/timeline`,
      target: async (w) => ({ url: `/api/${kind}-runs/${await run(w, kind)}/timeline` }),
      expect: ownerOnly(200),
    },
    {
      op: `POST /api/${kind}-runs/{id}/continue`,
      target: async (w) => ({
        url: `/api/${kind}-runs/${await run(w, kind)}/continue`,
        body: { user_input: 'Go on' },
      }),
      expect: ownerOnly(409),
    },
    {
      op: `POST /api/${kind}-runs/{id}/stop`,
      target: async (w) => ({ url: `/api/${kind}-runs/${await run(w, kind)}/stop` }),
      expect: ownerOnly(200),
    },
    {
      op: `GET /api/${kind}-runs/{id}/events`,
      target: async (w) => ({ url: `/api/${kind}-runs/${await run(w, kind)}/events` }),
      expect: ownerOnly(200),
      stream: true,
    },
  ];
}

export const runRows: Row[] = [
  ...kindRows('crew'),
  ...kindRows('flow'),
  {
    op: 'POST /api/conversations/{id}/crew-runs',
    target: async (w) => ({
      url: `/api/conversations/${await conversation(w)}/crew-runs`,
      body: { crew_id: (await publicDefinitions(w)).crew },
    }),
    expect: ownerOnly(201),
  },
];
