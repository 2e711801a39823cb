import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
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

interface OrganizationDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The current name when renaming; absent when creating. */
  initialName?: string;
  pending: boolean;
  onSubmit: (name: string) => void;
}

/** Create or rename an organization; the name must not be blank. */
export function OrganizationDialog({
  open,
  onOpenChange,
  initialName,
  pending,
  onSubmit,
}: OrganizationDialogProps) {
  const renaming = initialName !== undefined;
  const { register, handleSubmit, reset, formState } = useForm<{ name: string }>({
    defaultValues: { name: initialName ?? '' },
  });
  const error = formState.errors.name?.message;

  useEffect(() => {
    if (open) reset({ name: initialName ?? '' });
  }, [open, initialName, reset]);

  return (
    <Dialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{renaming ? 'Rename organization' : 'New organization'}</DialogTitle>
          <DialogDescription>
            {renaming ? 'Members keep their access.' : 'You become its first admin and can add members next.'}
          </DialogDescription>
        </DialogHeader>
        <form
          onSubmit={handleSubmit(({ name }) => onSubmit(name.trim()))}
          noValidate
          className="flex flex-col gap-4"
        >
          <FormField id="organization-name" label="Organization name" error={error}>
            <Input
              autoComplete="organization"
              {...fieldA11y('organization-name', error)}
              {...register('name', {
                validate: (v) => v.trim().length > 0 || 'Organization name is required',
              })}
            />
          </FormField>
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? <Spinner /> : null}
              {renaming ? 'Save name' : 'Create organization'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
