import type { FormEvent, ReactNode } from 'react';
import { FormField } from '../../../components/form-field';
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
import { serverDetail } from '../../../lib/api';
import { notify } from '../../../lib/toast';
import { FormError } from './form-bits';

interface CreateDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** While saving the dialog can neither be closed nor submitted again. */
  pending: boolean;
  /** Prefix of the form's ids: the error paragraph is `${idPrefix}-form-error`. */
  idPrefix: string;
  title: string;
  description: string;
  submitLabel: string;
  error: string | null;
  onSubmit: (e: FormEvent) => void;
  className?: string;
  children: ReactNode;
}

/** The shell every "Create New …" dialog of the factory shares: header, form, error line and footer. */
export function CreateDialog({
  open,
  onOpenChange,
  pending,
  idPrefix,
  title,
  description,
  submitLabel,
  error,
  onSubmit,
  className = 'max-w-xl',
  children,
}: CreateDialogProps) {
  const errorId = `${idPrefix}-form-error`;
  return (
    <Dialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <DialogContent className={className}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-describedby={errorId}>
          {children}
          <FormError id={errorId} message={error} />
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? <Spinner /> : null}
              {submitLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** Mutation callbacks of a create dialog: toast and close on success, toast the server's detail on failure. */
export function closeOnSaved(onOpenChange: (open: boolean) => void, created: string, failed: string) {
  return {
    onSuccess: () => {
      notify.success(created);
      onOpenChange(false);
    },
    onError: (err: Error) => notify.error(failed, serverDetail(err)),
  };
}

/** Name and version side by side, then the description: the head of the crew and flow forms. */
export function NameVersionFields({
  idPrefix,
  name,
  onName,
  version,
  onVersion,
  versionRequired,
  description,
  onDescription,
}: {
  idPrefix: string;
  name: string;
  onName: (value: string) => void;
  version: string;
  onVersion: (value: string) => void;
  versionRequired?: boolean;
  description: string;
  onDescription: (value: string) => void;
}) {
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-[1fr_8rem]">
        <FormField id={`${idPrefix}-name`} label="Name">
          <Input
            id={`${idPrefix}-name`}
            aria-required="true"
            value={name}
            onChange={(e) => onName(e.target.value)}
          />
        </FormField>
        <FormField id={`${idPrefix}-version`} label="Version">
          <Input
            id={`${idPrefix}-version`}
            aria-required={versionRequired ? 'true' : undefined}
            value={version}
            onChange={(e) => onVersion(e.target.value)}
          />
        </FormField>
      </div>
      <FormField id={`${idPrefix}-description`} label="Description">
        <Textarea
          id={`${idPrefix}-description`}
          value={description}
          onChange={(e) => onDescription(e.target.value)}
        />
      </FormField>
    </>
  );
}
