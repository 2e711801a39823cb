import { Sparkles } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Button } from '../../../../components/ui/button';
import { Card } from '../../../../components/ui/card';
import { useAuth } from '../../../../lib/auth';
import { useAssignableUsers } from '../../api';
import { assignablePeople } from '../people';
import { useTaskSuggestions } from './api';
import { GenerateTasksButton } from './generate-tasks-button';
import { ReviewDialog } from './review-dialog';

/**
 * The ceo's AI task suggestions on the Tasks page: the Generate tasks button, and a review banner
 * while suggestions wait for review, opening the review dialog.
 */
export function TaskSuggestions() {
  const { user } = useAuth();
  const suggestions = useTaskSuggestions(true);
  const assignable = useAssignableUsers();
  const people = useMemo(() => assignablePeople(user, assignable.data ?? []), [user, assignable.data]);
  const [reviewing, setReviewing] = useState(false);
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
