import type { TActivityEntry } from '@cc/contract';
import type { ActivityRow } from './activity.repository.ts';

export const parse = (text: string | null): unknown => {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

export function actorName(r: ActivityRow): string | null {
  const name = [r.actor_first_name, r.actor_last_name].filter(Boolean).join(' ');
  return name || r.actor_email || null;
}

/** An entry for the caller: `can_undo` when it is undoable, not yet undone, and theirs (or they are the admin). */
export function presentEntry(r: ActivityRow, caller: { id: string; isAdmin: boolean }): TActivityEntry {
  const undoable = r.undoable === 1;
  const undone = r.undone_by !== null;
  return {
    id: r.id,
    ts: r.ts,
    actor_user_id: r.actor_user_id,
    actor_name: actorName(r),
    via: r.via,
    action: r.action,
    entity_type: r.entity_type,
    entity_id: r.entity_id,
    summary: r.summary,
    before: parse(r.before),
    after: parse(r.after),
    undoable,
    undone,
    can_undo: undoable && !undone && (caller.isAdmin || r.actor_user_id === caller.id),
  };
}

export const EXPORT_COLUMNS = [
  'id',
  'ts',
  'actor_user_id',
  'actor_name',
  'via',
  'action',
  'entity_type',
  'entity_id',
  'summary',
  'before',
  'after',
  'undoable',
  'undone',
] as const;

/** One CSV field: quoted when needed; a leading =, +, - or @ is defused so a spreadsheet never runs it. */
export function csvField(value: unknown): string {
  let text =
    value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(e: TActivityEntry): string {
  return `${EXPORT_COLUMNS.map((c) => csvField(e[c])).join(',')}\r\n`;
}
