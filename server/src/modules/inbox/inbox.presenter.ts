import type { TInboxItem, TInboxKind } from '@cc/contract';
import type { InboxItemsTable } from '../../db/types.ts';

function parseDetails(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function presentInboxItem(row: InboxItemsTable): TInboxItem {
  return {
    id: row.id,
    kind: row.kind as TInboxKind,
    title: row.title,
    summary: row.summary,
    created_at: row.created_at,
    source: { type: row.source_type, id: row.source_id, url: row.source_url },
    assignee_user_id: row.assignee_user_id,
    details: parseDetails(row.details),
  };
}
