import type { TBrief, TBriefItem, TBriefSection } from '@cc/contract';
import type { BriefRow } from './briefs.repository.ts';

function parseList<T>(text: string): T[] {
  try {
    const v = JSON.parse(text) as unknown;
    return Array.isArray(v) ? (v as T[]) : [];
  } catch {
    return [];
  }
}

export function presentBrief(row: BriefRow): TBrief {
  return {
    id: row.id,
    user_id: row.user_id,
    period_start: row.period_start,
    period_end: row.period_end,
    created_at: row.created_at,
    trigger: row.trigger === 'scheduled' ? 'scheduled' : 'manual',
    summary: row.summary,
    summary_status: row.summary_status === 'replaced' ? 'replaced' : 'checked',
    actions: parseList<TBriefItem>(row.actions),
    sections: parseList<TBriefSection>(row.sections),
    delivery: {
      status:
        row.delivery_status === 'sent' || row.delivery_status === 'not_delivered'
          ? row.delivery_status
          : 'not_configured',
      reason: row.delivery_error,
      delivered_at: row.delivered_at,
    },
  };
}
