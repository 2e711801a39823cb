import {
  APPROVE_TASKS_FAILED,
  REJECT_SUGGESTION_FAILED,
  REJECTION_REASON_REQUIRED,
  TASK_PRIORITIES,
  TASK_TITLE_REQUIRED,
  type TApprovedSuggestion,
  type TTaskPriority,
  type TTaskSuggestion,
} from '@cc/contract';
import { useEffect, useState } from 'react';
import { CitationChips } from '../../../components/citation-chips';
import { FormField, fieldA11y } from '../../../components/form-field';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { Spinner } from '../../../components/ui/spinner';
import { Textarea } from '../../../components/ui/textarea';
import { notify } from '../../../lib/toast';
import type { Person } from '../../../lib/assignable-people';
import { useApproveSuggestions, useRejectSuggestion } from '../api';

interface Draft {
  title: string;
  description: string;
  priority: TTaskPriority;
  due_date: string;
  assignee_user_id: string;
  selected: boolean;
  /** null: not rejecting; a string: the reason being typed */
  reason: string | null;
  reasonError?: string;
  titleError?: string;
}

const toDraft = (s: TTaskSuggestion): Draft => ({
  title: s.title,
  description: s.description ?? '',
  priority: s.priority,
  due_date: s.due_date ?? '',
  assignee_user_id: s.assignee_user_id ?? '',
  selected: true,
  reason: null,
});

/** The edited suggestion as the approve call takes it. */
export function toApproved(id: string, d: Draft): TApprovedSuggestion {
  return {
    id,
    title: d.title.trim(),
    description: d.description.trim() ? d.description : null,
    priority: d.priority,
    due_date: d.due_date || null,
    assignee_user_id: d.assignee_user_id || null,
  };
}

interface ReviewDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  suggestions: TTaskSuggestion[];
  people: Person[];
}

/**
 * Review AI task suggestions: each one can be edited (title, description, priority, due date,
 * assignee), ticked for approval, or rejected with a reason. "Approve selected" turns the ticked ones
 * into tasks in one call (all or none).
 */
export function ReviewDialog({ open, onOpenChange, suggestions, people }: ReviewDialogProps) {
  const approve = useApproveSuggestions();
  const reject = useRejectSuggestion();
  const [drafts, setDrafts] = useState<Record<string, Draft>>({});

  // New suggestions get a draft; edits of the ones still listed are kept across refetches.
  useEffect(() => {
    setDrafts((prev) => Object.fromEntries(suggestions.map((s) => [s.id, prev[s.id] ?? toDraft(s)])));
  }, [suggestions]);

  const patch = (id: string, p: Partial<Draft>) =>
    setDrafts((prev) => (prev[id] ? { ...prev, [id]: { ...prev[id], ...p } } : prev));

  const selected = suggestions.filter((s) => drafts[s.id]?.selected && drafts[s.id]?.reason === null);

  const onApprove = () => {
    let invalid = false;
    for (const s of selected) {
      if (!drafts[s.id].title.trim()) {
        patch(s.id, { titleError: TASK_TITLE_REQUIRED });
        invalid = true;
      }
    }
    if (invalid || selected.length === 0) return;
    approve.mutate(
      selected.map((s) => toApproved(s.id, drafts[s.id])),
      {
        onSuccess: (res) => {
          notify.success(res.message);
          if (selected.length === suggestions.length) onOpenChange(false);
        },
        onError: (err) => notify.error(APPROVE_TASKS_FAILED, err.message),
      },
    );
  };

  const onReject = (id: string) => {
    const reason = drafts[id]?.reason ?? '';
    if (!reason.trim()) {
      patch(id, { reasonError: REJECTION_REASON_REQUIRED });
      return;
    }
    reject.mutate(
      { id, reason: reason.trim() },
      {
        onSuccess: () => {
          notify.success('Suggestion rejected');
          if (suggestions.length === 1) onOpenChange(false);
        },
        onError: (err) => notify.error(REJECT_SUGGESTION_FAILED, err.message),
      },
    );
  };

  const assigneeOptions = (current: string) =>
    current && !people.some((p) => p.id === current)
      ? [...people, { id: current, label: 'Suggested person' }]
      : people;

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-3xl">
        <DialogHeader>
          <DialogTitle>Review AI task suggestions</DialogTitle>
          <DialogDescription>
            Edit what you need, untick what you do not want yet, then approve. Reject a suggestion with a
            reason and it will not be suggested again.
          </DialogDescription>
        </DialogHeader>
        {suggestions.length === 0 ? (
          <p className="text-sm text-muted-foreground">No suggestions to review.</p>
        ) : (
          <ul className="flex flex-col gap-4">
            {suggestions.map((s, i) => {
              const d = drafts[s.id] ?? toDraft(s);
              const id = (f: string) => `suggestion-${s.id}-${f}`;
              return (
                <li key={s.id}>
                  <fieldset className="flex flex-col gap-3 rounded-lg border border-border bg-card p-4">
                    <legend className="sr-only">
                      Suggestion {i + 1}: {s.title}
                    </legend>
                    <label htmlFor={id('selected')} className="flex items-center gap-2 text-sm font-medium">
                      <Checkbox
                        id={id('selected')}
                        checked={d.selected}
                        disabled={d.reason !== null}
                        onChange={(e) => patch(s.id, { selected: e.target.checked })}
                      />
                      Approve this suggestion
                    </label>
                    {s.llm_context ? (
                      <p className="rounded-md bg-muted px-3 py-2 text-xs text-muted-foreground">
                        <span className="font-semibold text-foreground">Why: </span>
                        {s.llm_context}
                      </p>
                    ) : null}
                    <CitationChips citations={s.citations ?? []} />
                    <FormField id={id('title')} label="Title" error={d.titleError}>
                      <Input
                        {...fieldA11y(id('title'), d.titleError)}
                        value={d.title}
                        onChange={(e) => patch(s.id, { title: e.target.value, titleError: undefined })}
                      />
                    </FormField>
                    <FormField id={id('description')} label="Description">
                      <Textarea
                        id={id('description')}
                        value={d.description}
                        onChange={(e) => patch(s.id, { description: e.target.value })}
                      />
                    </FormField>
                    <div className="grid gap-3 sm:grid-cols-3">
                      <FormField id={id('priority')} label="Priority">
                        <Select
                          id={id('priority')}
                          value={d.priority}
                          onChange={(e) => patch(s.id, { priority: e.target.value as TTaskPriority })}
                        >
                          {TASK_PRIORITIES.map((p) => (
                            <option key={p} value={p}>
                              {p}
                            </option>
                          ))}
                        </Select>
                      </FormField>
                      <FormField id={id('due')} label="Due date">
                        <Input
                          id={id('due')}
                          type="date"
                          value={d.due_date}
                          onChange={(e) => patch(s.id, { due_date: e.target.value })}
                        />
                      </FormField>
                      <FormField id={id('assignee')} label="Assignee">
                        <Select
                          id={id('assignee')}
                          value={d.assignee_user_id}
                          onChange={(e) => patch(s.id, { assignee_user_id: e.target.value })}
                        >
                          <option value="">Unassigned</option>
                          {assigneeOptions(d.assignee_user_id).map((p) => (
                            <option key={p.id} value={p.id}>
                              {p.label}
                            </option>
                          ))}
                        </Select>
                      </FormField>
                    </div>
                    {d.reason === null ? (
                      <Button
                        variant="outline"
                        size="sm"
                        className="w-fit"
                        onClick={() => patch(s.id, { reason: '', selected: false })}
                      >
                        Reject
                      </Button>
                    ) : (
                      <div className="flex flex-col gap-2">
                        <FormField id={id('reason')} label="Reason for rejecting" error={d.reasonError}>
                          <Textarea
                            {...fieldA11y(id('reason'), d.reasonError)}
                            value={d.reason}
                            onChange={(e) => patch(s.id, { reason: e.target.value, reasonError: undefined })}
                          />
                        </FormField>
                        <div className="flex gap-2">
                          <Button
                            variant="destructive"
                            size="sm"
                            onClick={() => onReject(s.id)}
                            disabled={reject.isPending && reject.variables?.id === s.id}
                          >
                            {reject.isPending && reject.variables?.id === s.id ? <Spinner /> : null}
                            Confirm rejection
                          </Button>
                          <Button
                            variant="ghost"
                            size="sm"
                            onClick={() =>
                              patch(s.id, { reason: null, reasonError: undefined, selected: true })
                            }
                          >
                            Keep it
                          </Button>
                        </div>
                      </div>
                    )}
                  </fieldset>
                </li>
              );
            })}
          </ul>
        )}
        <DialogFooter>
          <Button variant="ghost" onClick={() => onOpenChange(false)}>
            Close
          </Button>
          <Button onClick={onApprove} disabled={approve.isPending || selected.length === 0}>
            {approve.isPending ? <Spinner /> : null}
            Approve selected ({selected.length})
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
