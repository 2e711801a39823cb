import { TASK_PRIORITIES, type TInboxItem } from '@cc/contract';
import { type FormEvent, useState } from 'react';
import { FormField, fieldA11y } from '../../../components/form-field';
import { Button } from '../../../components/ui/button';
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
import { Textarea } from '../../../components/ui/textarea';

/** The fields each kind lets a person change before approving (the rest of `details` is context). */
const FIELDS: Record<
  TInboxItem['kind'],
  { key: string; label: string; type: 'text' | 'long' | 'priority' | 'date' }[]
> = {
  task_suggestion: [
    { key: 'title', label: 'Title', type: 'text' },
    { key: 'description', label: 'Description', type: 'long' },
    { key: 'priority', label: 'Priority', type: 'priority' },
    { key: 'due_date', label: 'Due date', type: 'date' },
  ],
  run_input: [{ key: 'answer', label: 'Your answer', type: 'long' }],
  comms_draft: [{ key: 'text', label: 'Reply', type: 'long' }],
  // A tool call is approved or rejected as shown: only the run's owner changes its arguments, on the
  // run page (the server refuses a delegate's edits too).
  tool_approval: [],
  interrupted_call: [],
};

/** Whether the item has fields to change before approving (else the card offers no Edit). */
export const isEditable = (kind: TInboxItem['kind']) => FIELDS[kind].length > 0;

export const EDIT_FIELD_REQUIRED = 'This field is required.';

const initialValues = (item: TInboxItem) =>
  Object.fromEntries(
    FIELDS[item.kind].map((f) => [f.key, item.details[f.key] == null ? '' : String(item.details[f.key])]),
  );

/** Edit: change the item's fields, then approve with them. */
export function InboxEditDialog({
  item,
  open,
  onOpenChange,
  onApprove,
  pending,
}: {
  item: TInboxItem;
  open: boolean;
  onOpenChange(open: boolean): void;
  onApprove(edits: Record<string, unknown>): void;
  pending: boolean;
}) {
  const [values, setValues] = useState<Record<string, string>>(() => initialValues(item));
  const [error, setError] = useState<string | null>(null);
  const fields = FIELDS[item.kind];
  const required = fields[0]?.key;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (required && !values[required]?.trim()) return setError(EDIT_FIELD_REQUIRED);
    setError(null);
    const edits: Record<string, unknown> = {};
    for (const f of fields) {
      const v = values[f.key] ?? '';
      edits[f.key] = f.type === 'date' || f.type === 'long' ? v.trim() || null : v.trim();
    }
    if (required) edits[required] = values[required]?.trim();
    onApprove(edits);
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        if (o) setValues(initialValues(item));
        onOpenChange(o);
      }}
    >
      <DialogContent>
        <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>Edit and approve</DialogTitle>
            <DialogDescription>{item.title}</DialogDescription>
          </DialogHeader>
          {fields.map((f, i) => {
            const id = `inbox-edit-${f.key}`;
            const fieldError = i === 0 ? (error ?? undefined) : undefined;
            const set = (v: string) => setValues((old) => ({ ...old, [f.key]: v }));
            return (
              <FormField key={f.key} id={id} label={f.label} error={fieldError}>
                {f.type === 'long' ? (
                  <Textarea
                    {...fieldA11y(id, fieldError)}
                    value={values[f.key] ?? ''}
                    onChange={(e) => set(e.target.value)}
                  />
                ) : f.type === 'priority' ? (
                  <Select
                    {...fieldA11y(id)}
                    value={values[f.key] || 'Medium'}
                    onChange={(e) => set(e.target.value)}
                  >
                    {TASK_PRIORITIES.map((p) => (
                      <option key={p}>{p}</option>
                    ))}
                  </Select>
                ) : (
                  <Input
                    {...fieldA11y(id, fieldError)}
                    type={f.type === 'date' ? 'date' : 'text'}
                    value={values[f.key] ?? ''}
                    onChange={(e) => set(e.target.value)}
                  />
                )}
              </FormField>
            );
          })}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              Approve
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
