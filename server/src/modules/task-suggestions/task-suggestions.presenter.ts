import { TASK_PRIORITIES, type TRecordCitation, type TTaskSuggestion } from '@cc/contract';
import type { TaskSuggestionsTable } from '../../db/types.ts';

const priority = (p: string): TTaskSuggestion['priority'] =>
  (TASK_PRIORITIES as readonly string[]).includes(p) ? (p as TTaskSuggestion['priority']) : 'Medium';

/** The suggestion's citation key: `kpi:<id>`, `goal:<id>` or `task:<id>`, or null without a source. */
export const sourceKey = (row: Pick<TaskSuggestionsTable, 'source_type' | 'source_id'>) =>
  row.source_type && row.source_id ? `${row.source_type}:${row.source_id}` : null;

/** `cited`: the citations of the records the reader may see, by sourceKey. */
export function presentSuggestion(
  row: TaskSuggestionsTable,
  cited: ReadonlyMap<string, TRecordCitation> = new Map(),
): TTaskSuggestion {
  const key = sourceKey(row);
  const citation = key ? cited.get(key) : undefined;
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    assignee_user_id: row.assignee_user_id,
    priority: priority(row.priority),
    due_date: row.due_date,
    llm_context: row.llm_context,
    rejection_reason: row.rejection_reason,
    status: row.status as TTaskSuggestion['status'],
    source_type: row.source_type,
    source_id: row.source_id,
    citations: citation ? [citation] : [],
    organization_id: row.organization_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
