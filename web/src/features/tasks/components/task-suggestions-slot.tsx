/**
 * The seam for AI task suggestions (spec: ceo only — fetch GET /api/task-suggestions/, a review
 * banner and a "Generate tasks" button idle → generating → done → idle after 4 s). The suggestions
 * API arrives with a later issue; until then this renders nothing, so no fake UI is shown.
 */
export function TaskSuggestionsSlot(_props: { enabled: boolean }) {
  return null;
}
