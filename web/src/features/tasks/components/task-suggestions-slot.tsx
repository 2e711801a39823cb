import { TaskSuggestions } from './suggestions/task-suggestions';

/**
 * AI task suggestions (spec: ceo only — fetch GET /api/task-suggestions/, a review banner and a
 * "Generate tasks" button idle → generating → done → idle after 4 s). Nothing for other users.
 */
export function TaskSuggestionsSlot({ enabled }: { enabled: boolean }) {
  return enabled ? <TaskSuggestions /> : null;
}
