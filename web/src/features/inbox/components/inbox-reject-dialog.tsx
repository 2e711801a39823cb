import { INBOX_REASON_REQUIRED } from '@cc/contract';
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
import { Textarea } from '../../../components/ui/textarea';

/** Reject: a non-blank reason is required (the source keeps it, e.g. the dismissed suggestion). */
export function InboxRejectDialog({
  title,
  open,
  onOpenChange,
  onReject,
  pending,
}: {
  title: string;
  open: boolean;
  onOpenChange(open: boolean): void;
  onReject(reason: string): void;
  pending: boolean;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!reason.trim()) return setError(INBOX_REASON_REQUIRED);
    setError(undefined);
    onReject(reason.trim());
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        if (o) {
          setReason('');
          setError(undefined);
        }
        onOpenChange(o);
      }}
    >
      <DialogContent>
        <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>Reject</DialogTitle>
            <DialogDescription>{title}</DialogDescription>
          </DialogHeader>
          <FormField id="inbox-reject-reason" label="Reason" error={error}>
            <Textarea
              {...fieldA11y('inbox-reject-reason', error)}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
            />
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" disabled={pending}>
              Reject
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
