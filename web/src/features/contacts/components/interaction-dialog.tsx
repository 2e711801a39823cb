import {
  INTERACTION_DATE_REQUIRED,
  INTERACTION_TITLE_REQUIRED,
  type TInteractionRequest,
  type TPastInteraction,
} from '@cc/contract';
import { useEffect, useState } from 'react';
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
import { Spinner } from '../../../components/ui/spinner';
import { Textarea } from '../../../components/ui/textarea';
import { todayIso } from '../api';

interface InteractionDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The interaction being edited; absent when adding one. */
  interaction?: TPastInteraction | null;
  contactName: string;
  pending: boolean;
  onSubmit: (body: TInteractionRequest) => void;
}

/** Add or edit a past interaction: Date and Title required, submit disabled while either is empty. */
export function InteractionDialog({
  open,
  onOpenChange,
  interaction,
  contactName,
  pending,
  onSubmit,
}: InteractionDialogProps) {
  const editing = Boolean(interaction);
  const [date, setDate] = useState(todayIso());
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const [touched, setTouched] = useState({ date: false, title: false });

  useEffect(() => {
    if (!open) return;
    setDate(interaction?.date.slice(0, 10) ?? todayIso());
    setTitle(interaction?.summary ?? '');
    setContent(interaction?.notes ?? '');
    setTouched({ date: false, title: false });
  }, [open, interaction]);

  const dateError = touched.date && date.trim() === '' ? INTERACTION_DATE_REQUIRED : undefined;
  const titleError = touched.title && title.trim() === '' ? INTERACTION_TITLE_REQUIRED : undefined;
  const incomplete = date.trim() === '' || title.trim() === '';

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setTouched({ date: true, title: true });
    if (incomplete || pending) return;
    const body: TInteractionRequest = { date: date.trim(), summary: title.trim() };
    if (content.trim() !== '') body.notes = content;
    else if (interaction?.notes) body.notes = null;
    onSubmit(body);
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{editing ? 'Edit Past Interaction' : 'Add New Interaction'}</DialogTitle>
          <DialogDescription>A meeting, call or message with {contactName}.</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="flex flex-col gap-4">
          <FormField id="interaction-date" label="Date" error={dateError} className="sm:max-w-56">
            <Input
              type="date"
              aria-required="true"
              value={date}
              onChange={(e) => {
                setDate(e.target.value);
                setTouched((t) => ({ ...t, date: true }));
              }}
              onBlur={() => setTouched((t) => ({ ...t, date: true }))}
              {...fieldA11y('interaction-date', dateError)}
            />
          </FormField>
          <FormField id="interaction-title" label="Title" error={titleError}>
            <Input
              aria-required="true"
              autoComplete="off"
              value={title}
              onChange={(e) => setTitle(e.target.value)}
              onBlur={() => setTouched((t) => ({ ...t, title: true }))}
              placeholder="Quarterly review call"
              {...fieldA11y('interaction-title', titleError)}
            />
          </FormField>
          <FormField id="interaction-content" label="Content">
            <Textarea
              id="interaction-content"
              rows={5}
              value={content}
              onChange={(e) => setContent(e.target.value)}
              placeholder="What was discussed, agreed or promised"
            />
          </FormField>
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" disabled={incomplete || pending}>
              {pending ? <Spinner /> : null}
              {editing ? 'Save Interaction' : 'Add Interaction'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
