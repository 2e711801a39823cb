import { Eye, PencilLine } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Markdown } from '../../../components/markdown/markdown';
import { StaleVersionBanner } from '../../../components/stale-version-banner';
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
import { Label } from '../../../components/ui/label';
import { Spinner } from '../../../components/ui/spinner';
import { Textarea } from '../../../components/ui/textarea';
import { cn } from '../../../lib/utils';
import { type NoteEntry, todayIso } from '../api';

export interface NoteDraft {
  content: string;
  entry_date: string;
}

interface NoteEditorDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The entry being edited; absent when writing a new one. */
  entry?: NoteEntry | null;
  pending: boolean;
  onSubmit: (draft: NoteDraft) => void;
  /** The entry as stored now, after a save was refused because it changed since the editor opened. */
  stale?: NoteEntry | null;
  onUseTheirs?: () => void;
}

type Mode = 'write' | 'preview';

/** Write or edit a note entry: markdown with a Write/Preview toggle and an entry date (today by default). */
export function NoteEditorDialog({
  open,
  onOpenChange,
  entry,
  pending,
  onSubmit,
  stale,
  onUseTheirs,
}: NoteEditorDialogProps) {
  const editing = Boolean(entry);
  const ids = useId();
  const [content, setContent] = useState('');
  const [entryDate, setEntryDate] = useState(todayIso());
  const [mode, setMode] = useState<Mode>('write');

  useEffect(() => {
    if (!open) return;
    setContent(entry?.content ?? '');
    setEntryDate(entry?.entry_date.slice(0, 10) ?? todayIso());
    setMode('write');
  }, [open, entry]);

  const blank = content.trim() === '';
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (blank || pending) return;
    const draft = { content, entry_date: entryDate || todayIso() };
    // Saving over someone else's newer version keeps their date unless this form changed it.
    if (stale && entry && draft.entry_date === entry.entry_date.slice(0, 10))
      draft.entry_date = stale.entry_date;
    onSubmit(draft);
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>{editing ? 'Edit note entry' : 'New note entry'}</DialogTitle>
          <DialogDescription>
            Write in markdown: headings, lists, links and emphasis all work.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="flex flex-col gap-4">
          {stale ? (
            <StaleVersionBanner
              fields={[
                ['Entry date', stale.entry_date.slice(0, 10)],
                ['Content', stale.content],
              ]}
              onUseTheirs={() => onUseTheirs?.()}
            />
          ) : null}
          <div className="flex flex-col gap-2 sm:max-w-56">
            <Label htmlFor={`${ids}-date`}>Entry date</Label>
            <Input
              id={`${ids}-date`}
              type="date"
              value={entryDate}
              onChange={(e) => setEntryDate(e.target.value)}
              required
            />
          </div>
          <div className="flex flex-col gap-2">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <Label htmlFor={`${ids}-content`}>Content</Label>
              <fieldset className="inline-flex rounded-md border border-border p-0.5">
                <legend className="sr-only">Editor mode</legend>
                <ModeButton active={mode === 'write'} onClick={() => setMode('write')}>
                  <PencilLine aria-hidden="true" />
                  Write
                </ModeButton>
                <ModeButton active={mode === 'preview'} onClick={() => setMode('preview')}>
                  <Eye aria-hidden="true" />
                  Preview
                </ModeButton>
              </fieldset>
            </div>
            {mode === 'write' ? (
              <Textarea
                id={`${ids}-content`}
                value={content}
                onChange={(e) => setContent(e.target.value)}
                placeholder="What happened today? What did you decide, learn or notice?"
                className="min-h-64 font-mono text-[13px] sm:min-h-80"
                aria-describedby={`${ids}-hint`}
                autoFocus
              />
            ) : (
              <section
                aria-label="Preview"
                className="min-h-64 rounded-md border border-border bg-input/40 px-4 py-3 sm:min-h-80"
              >
                {blank ? (
                  <p className="text-sm text-muted-foreground">Nothing to preview yet.</p>
                ) : (
                  <Markdown content={content} />
                )}
              </section>
            )}
            <p id={`${ids}-hint`} className="text-xs text-muted-foreground">
              {blank ? 'Write something to save this entry.' : `${content.trim().length} characters`}
            </p>
          </div>
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" disabled={blank || pending}>
              {pending ? <Spinner /> : null}
              {editing ? 'Save changes' : 'Save entry'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function ModeButton({
  active,
  onClick,
  children,
}: {
  active: boolean;
  onClick: () => void;
  children: React.ReactNode;
}) {
  return (
    <button
      type="button"
      aria-pressed={active}
      onClick={onClick}
      className={cn(
        'inline-flex items-center gap-1.5 rounded px-2.5 py-1 text-xs font-medium transition-colors focus-visible:outline-2 focus-visible:outline-ring [&_svg]:size-3.5',
        active ? 'bg-secondary text-foreground' : 'text-muted-foreground hover:text-foreground',
      )}
    >
      {children}
    </button>
  );
}
