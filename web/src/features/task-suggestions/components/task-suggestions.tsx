import { useQueryClient } from '@tanstack/react-query';
import { Sparkles } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { useAuth } from '../../../lib/auth';
import { assignablePeople } from '../../../lib/assignable-people';
import { useAssignableUsers } from '../../../lib/queries/users';
import { useLinkedRecord } from '../../../lib/use-linked-record';
import { taskSuggestionsQuery, useTaskSuggestions } from '../api';
import { GenerateTasksButton } from './generate-tasks-button';
import { ReviewDialog } from './review-dialog';

/**
 * AI task suggestions (spec: ceo only — fetch GET /api/task-suggestions/, a review banner and a
 * "Generate tasks" button idle → generating → done → idle after 4 s). Nothing for other users.
 */
export function TaskSuggestions() {
  const { user } = useAuth();
  return user?.user_level === 'ceo' ? <TaskSuggestionsPanel /> : null;
}

/**
 * The ceo's panel on the Tasks page: the Generate tasks button, and a review banner while
 * suggestions wait for review, opening the review dialog.
 */
function TaskSuggestionsPanel() {
  const { user } = useAuth();
  const suggestions = useTaskSuggestions();
  const assignable = useAssignableUsers();
  const people = useMemo(() => assignablePeople(user, assignable.data ?? []), [user, assignable.data]);
  const [reviewing, setReviewing] = useState(false);
  const queryClient = useQueryClient();
  // A citation link (?suggestion=<id>, the brief's waiting items) opens the review while it is pending.
  useLinkedRecord(
    'suggestion',
    'suggestion',
    async (id) => (await queryClient.fetchQuery(taskSuggestionsQuery())).find((s) => s.id === id) ?? null,
    () => setReviewing(true),
  );
  const pending = suggestions.data ?? [];
  const n = pending.length;

  return (
    <Card className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between sm:p-5">
      <div className="flex min-w-0 items-start gap-3">
        <Sparkles className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
        {n > 0 ? (
          <section aria-label="AI task suggestions" className="flex flex-col gap-1">
            <p className="font-medium">
              {n === 1 ? '1 AI task suggestion is' : `${n} AI task suggestions are`} ready for review
            </p>
            <p className="text-sm text-muted-foreground">
              Drawn from lagging KPIs, overdue goals and unassigned work.
            </p>
          </section>
        ) : (
          <p className="text-sm text-muted-foreground">
            Let AI suggest tasks from lagging KPIs, overdue goals and unassigned work.
          </p>
        )}
      </div>
      <div className="flex flex-wrap gap-2">
        {n > 0 ? (
          <Button variant="secondary" onClick={() => setReviewing(true)}>
            Review suggestions
          </Button>
        ) : null}
        <GenerateTasksButton />
      </div>
      <ReviewDialog open={reviewing} onOpenChange={setReviewing} suggestions={pending} people={people} />
    </Card>
  );
}
