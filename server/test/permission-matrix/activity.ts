import { everyone, made, ownerOnly, platformAdminOnly, type Row, type World } from './matrix.ts';

/** An undoable entry of the owner's: a memory the AI stored for them (its undo forgets it). */
async function ownersEntry(w: World): Promise<string> {
  await made(w, 'owner', 'POST', '/api/memory/mine', {
    content: `My office is in Oslo ${Math.random().toString(36).slice(2, 7)}.`,
  });
  const row = await w.t.ctx.db
    .selectFrom('activity')
    .select('id')
    .where('actor_user_id', '=', w.users.owner.id)
    .where('action', '=', 'memory.created')
    .orderBy('seq', 'desc')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The ledger: everyone reads their own trail; the export is the platform admin's; undo is the entry owner's (or the admin's). */
export const activityRows: Row[] = [
  { op: 'GET /api/activity/', target: () => ({ url: '/api/activity/' }), expect: everyone(200) },
  {
    op: 'GET /api/activity/export',
    target: () => ({ url: '/api/activity/export?format=jsonl' }),
    expect: platformAdminOnly(200),
  },
  {
    op: 'POST /api/activity/{id}/undo',
    target: async (w) => ({ url: `/api/activity/${await ownersEntry(w)}/undo` }),
    expect: { ...ownerOnly(200), platformAdmin: 200 },
  },
];
