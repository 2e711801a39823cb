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
import { Select } from '../../../components/ui/select';
import { useAssignableUsers } from '../../../lib/queries/users';

export const DELEGATE_PICK_PERSON = 'Choose a person.';
export const DELEGATE_NOBODY = 'Nobody else in your organizations to delegate to.';

/** Delegate: hand the item to another member of the same organization (the people you may assign). */
export function InboxDelegateDialog({
  title,
  open,
  onOpenChange,
  onDelegate,
  pending,
}: {
  title: string;
  open: boolean;
  onOpenChange(open: boolean): void;
  onDelegate(userId: string): void;
  pending: boolean;
}) {
  const people = useAssignableUsers(open);
  const [userId, setUserId] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!userId) return setError(DELEGATE_PICK_PERSON);
    setError(undefined);
    onDelegate(userId);
  };
  const list = people.data ?? [];
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        if (o) {
          setUserId('');
          setError(undefined);
        }
        onOpenChange(o);
      }}
    >
      <DialogContent>
        <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>Delegate</DialogTitle>
            <DialogDescription>{title}</DialogDescription>
          </DialogHeader>
          {people.isSuccess && list.length === 0 ? (
            <p className="text-sm text-muted-foreground">{DELEGATE_NOBODY}</p>
          ) : (
            <FormField id="inbox-delegate-user" label="Delegate to" error={error}>
              <Select
                {...fieldA11y('inbox-delegate-user', error)}
                value={userId}
                onChange={(e) => setUserId(e.target.value)}
              >
                <option value="">Choose…</option>
                {list.map((u) => (
                  <option key={u.id} value={u.id}>
                    {u.name || u.email}
                  </option>
                ))}
              </Select>
            </FormField>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending || list.length === 0}>
              Delegate
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
