import { type FormEvent, useId, useState } from 'react';
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

/** Edit Name: the caller's own name for the conversation; blank restores the people's names. */
export function RenameThreadDialog({
  open,
  onOpenChange,
  initialName,
  pending,
  onSave,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  initialName: string;
  pending: boolean;
  onSave: (name: string) => void;
}) {
  const [name, setName] = useState(initialName);
  const id = useId();
  const change = (next: boolean) => {
    if (next) setName(initialName);
    onOpenChange(next);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSave(name.trim());
  };
  return (
    <Dialog open={open} onOpenChange={change}>
      <DialogContent>
        <form onSubmit={submit} className="flex flex-col gap-4">
          <DialogHeader>
            <DialogTitle>Edit Name</DialogTitle>
            <DialogDescription>
              Only you see this name. Leave it blank to show the people's names.
            </DialogDescription>
          </DialogHeader>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={id}>Conversation name</Label>
            <Input id={id} value={name} maxLength={200} onChange={(e) => setName(e.target.value)} />
          </div>
          <DialogFooter>
            <Button variant="outline" onClick={() => change(false)} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? <Spinner /> : null}
              Save
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
