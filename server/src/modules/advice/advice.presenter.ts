import type { TAdvice, TRecordCitation } from '@cc/contract';
import type { StrategicAdviceTable } from '../../db/types.ts';

/** The API shape of a strategic advice item. */
export function presentAdvice(
  row: StrategicAdviceTable,
  rights: { canEdit: boolean },
  /** Its citations the reader may see (ai/citations.ts visibleCitations). */
  citations: TRecordCitation[] = [],
): TAdvice {
  return {
    id: row.id,
    advice_title: row.advice_title,
    content: row.content,
    feedback: row.feedback,
    crew_run_id: row.crew_run_id,
    user_id: row.user_id,
    organization_id: row.organization_id,
    can_edit: rights.canEdit,
    citations,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
