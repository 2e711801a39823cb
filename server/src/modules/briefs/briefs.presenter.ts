import type { TBrief, TBriefItem, TBriefSection } from '@cc/contract';
import { type BriefRow, SENDING } from './briefs.repository.ts';

function parseList<T>(text: string): T[] {
  try {
    const v = JSON.parse(text) as unknown;
    return Array.isArray(v) ? (v as T[]) : [];
  } catch {
    return [];
  }
}

/** An e-mail still on its way (or cut by a stop while sending) is not known to have arrived. */
function presentDelivery(row: BriefRow): TBrief['delivery'] {
  if (row.delivery_status === SENDING) {
    return { status: 'not_delivered', reason: 'Being sent (or cut off while sending).', delivered_at: null };
  }
  return {
    status:
      row.delivery_status === 'sent' || row.delivery_status === 'not_delivered'
        ? row.delivery_status
        : 'not_configured',
    reason: row.delivery_error,
    delivered_at: row.delivered_at,
  };
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
    delivery: presentDelivery(row),
  };
}
