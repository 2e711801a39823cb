import type { ReactNode } from 'react';
import { Button } from './ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from './ui/dialog';

export interface ReadField {
  label: string;
  /** Shown as text; null or '' reads as an em dash. */
  value: ReactNode;
}

interface RecordReadDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** What the record is ("Task", "Note"), shown above its title (the dialog is named by the title). */
  kind: string;
  title: string;
  fields: readonly ReadField[];
  /** Long text below the fields: a string is kept as written; a note passes its rendered markdown. */
  body?: ReactNode;
  /** Opens the record's edit form; left out when the reader may not edit it (no dead button). */
  onEdit?: () => void;
}

/**
 * A record shown to read (issue 47 item 4): what a citation or a link opens, so following a source
 * never lands in an edit form with the title selected. Edit opens the record's own form.
 */
export function RecordReadDialog({
  open,
  onOpenChange,
  kind,
  title,
  fields,
  body,
  onEdit,
}: RecordReadDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogDescription>{kind}</DialogDescription>
          <DialogTitle className="break-words">{title}</DialogTitle>
        </DialogHeader>
        {fields.length ? (
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            {fields.map((f) => (
              <div key={f.label} className="contents">
                <dt className="text-muted-foreground">{f.label}</dt>
                <dd className="min-w-0 break-words">{f.value === null || f.value === '' ? '—' : f.value}</dd>
              </div>
            ))}
          </dl>
        ) : null}
        {typeof body === 'string' ? (
          body ? (
            <p className="whitespace-pre-wrap break-words text-sm">{body}</p>
          ) : null
        ) : body ? (
          <div className="min-w-0 break-words text-sm">{body}</div>
        ) : null}
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Close
          </Button>
          {onEdit ? <Button onClick={onEdit}>Edit</Button> : null}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
