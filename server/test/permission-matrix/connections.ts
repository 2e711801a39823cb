import { everyone, made, ownerOnly, type Row, type World } from './matrix.ts';

/**
 * Connections are their owner's alone: for everyone else they do not exist. The fixture's ICS address
 * is a loopback one the outbound policy refuses, so its sync and test never leave the machine. One
 * person may have 20 connections: the rows that leave a connection in place share one.
 */
export const MATRIX_ICS_URL = 'http://127.0.0.1:9/matrix.ics';
const connection = async (w: World) =>
  (
    await made(w, 'owner', 'POST', '/api/connections/', {
      kind: 'ics',
      name: 'Matrix calendar',
      url: MATRIX_ICS_URL,
    })
  ).id;
const shared = (w: World) => w.once('connection', () => connection(w));

export const connectionRows: Row[] = [
  { op: 'GET /api/connections/', target: () => ({ url: '/api/connections/' }), expect: everyone(200) },
  {
    op: 'POST /api/connections/',
    target: () => ({ url: '/api/connections/', body: { kind: 'ics', name: 'Cal', url: MATRIX_ICS_URL } }),
    expect: everyone(201),
  },
  {
    op: 'PATCH /api/connections/{id}',
    target: async (w) => ({ url: `/api/connections/${await shared(w)}`, body: { name: 'Renamed' } }),
    expect: ownerOnly(200),
    fresh: false,
  },
  {
    op: 'DELETE /api/connections/{id}',
    target: async (w) => ({ url: `/api/connections/${await connection(w)}` }),
    expect: ownerOnly(204),
  },
  {
    op: 'POST /api/connections/{id}/test',
    target: async (w) => ({ url: `/api/connections/${await shared(w)}/test` }),
    expect: ownerOnly(200),
    fresh: false,
  },
  {
    op: 'POST /api/connections/{id}/sync',
    target: async (w) => ({ url: `/api/connections/${await shared(w)}/sync` }),
    expect: ownerOnly(202),
    fresh: false,
  },
];
