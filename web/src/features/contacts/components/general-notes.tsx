import { Pencil } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { Textarea } from '../../../components/ui/textarea';

/**
 * General Notes, edited in place: a click (or Enter) turns the text into a field, and leaving the
 * field saves it, only when it changed. Escape cancels.
 */
export function GeneralNotes({
  notes,
  canEdit,
  pending,
  onSave,
}: {
  notes: string | null;
  canEdit: boolean;
  pending: boolean;
  onSave: (notes: string | null) => void;
}) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(notes ?? '');
  const cancelled = useRef(false);

  useEffect(() => {
    if (!editing) setDraft(notes ?? '');
  }, [notes, editing]);

  const finish = () => {
    setEditing(false);
    if (cancelled.current) {
      cancelled.current = false;
      setDraft(notes ?? '');
      return;
    }
    if (draft === (notes ?? '')) return;
    onSave(draft.trim() === '' ? null : draft);
  };

  return (
    <section aria-labelledby="contact-general-notes" className="flex flex-col gap-2">
      <div className="flex items-center gap-2">
        <h3 id="contact-general-notes" className="text-sm font-semibold">
          General Notes
        </h3>
        {pending ? <Spinner label="Saving notes" /> : null}
      </div>
      {editing ? (
        <Textarea
          aria-label="General Notes"
          value={draft}
          rows={4}
          autoFocus
          onChange={(e) => setDraft(e.target.value)}
          onBlur={finish}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.preventDefault();
              e.stopPropagation();
              cancelled.current = true;
              e.currentTarget.blur();
            }
          }}
        />
      ) : canEdit ? (
        <button
          type="button"
          onClick={() => setEditing(true)}
          className="group flex w-full items-start justify-between gap-3 rounded-md border border-dashed border-border px-3 py-2 text-left text-sm transition-colors hover:border-[#3a4a6d] hover:bg-muted/50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
        >
          <span className={notes ? 'whitespace-pre-wrap break-words' : 'text-muted-foreground italic'}>
            <span className="sr-only">Edit general notes: </span>
            {notes || 'No general notes.'}
          </span>
          <Pencil className="mt-0.5 size-3.5 shrink-0 text-muted-foreground" aria-hidden="true" />
        </button>
      ) : (
        <p
          className={
            notes ? 'text-sm whitespace-pre-wrap break-words' : 'text-sm text-muted-foreground italic'
          }
        >
          {notes || 'No general notes.'}
        </p>
      )}
    </section>
  );
}
