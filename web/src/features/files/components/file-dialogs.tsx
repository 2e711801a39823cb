import {
  FILE_NAME_INVALID,
  FILE_NAME_REQUIRED,
  MAX_FILE_NAME_LENGTH,
  type TFileItem,
  type TOrganization,
} from '@cc/contract';
import { useEffect, useState } from 'react';
import { FormField, fieldA11y } from '../../../components/form-field';
import { Button } from '../../../components/ui/button';
import { OrgChecklist } from '../../../components/org-checklist';
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

/** The same rule as the server's: no slashes, no control characters, not "." or "..". */
export function fileNameError(raw: string): string | undefined {
  const name = raw.trim();
  if (!name) return FILE_NAME_REQUIRED;
  if (name.length > MAX_FILE_NAME_LENGTH) return `File names are at most ${MAX_FILE_NAME_LENGTH} characters.`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[/\\\u0000-\u001f\u007f]/.test(name) || name === '.' || name === '..') return FILE_NAME_INVALID;
  return undefined;
}

interface RenameDialogProps {
  file: TFileItem | null;
  pending: boolean;
  error?: string;
  onClose: () => void;
  onRename: (file: TFileItem, name: string) => void;
}

export function RenameDialog({ file, pending, error, onClose, onRename }: RenameDialogProps) {
  const [name, setName] = useState('');
  const [touched, setTouched] = useState(false);
  useEffect(() => {
    setName(file?.name ?? '');
    setTouched(false);
  }, [file]);
  const invalid = fileNameError(name);
  const shown = (touched ? invalid : undefined) ?? error;
  return (
    <Dialog open={file !== null} onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Rename file</DialogTitle>
          <DialogDescription>The stored file keeps its content; only its name changes.</DialogDescription>
        </DialogHeader>
        <form
          className="flex flex-col gap-4"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            setTouched(true);
            if (file && !invalid) onRename(file, name.trim());
          }}
        >
          <FormField id="file-name" label="File name" error={shown}>
            <Input
              {...fieldA11y('file-name', shown)}
              value={name}
              onChange={(e) => setName(e.target.value)}
              onBlur={() => setTouched(true)}
              autoFocus
              maxLength={MAX_FILE_NAME_LENGTH + 10}
            />
          </FormField>
          <DialogFooter>
            <Button variant="outline" onClick={onClose} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending || name.trim() === file?.name}>
              {pending ? <Spinner /> : null}
              Save name
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

interface ShareDialogProps {
  file: TFileItem | null;
  organizations: readonly TOrganization[];
  loading: boolean;
  pending: boolean;
  onClose: () => void;
  onShare: (file: TFileItem, ids: string[]) => void;
}

export function ShareFileDialog({
  file,
  organizations,
  loading,
  pending,
  onClose,
  onShare,
}: ShareDialogProps) {
  const [selected, setSelected] = useState<string[]>([]);
  useEffect(() => setSelected(file?.shared_org_ids ?? []), [file]);
  // Organizations already shared with stay listed even if the owner has left them.
  const choices = [
    ...organizations.map((o) => ({ id: o.id, name: o.name })),
    ...(file?.shared_organizations ?? []).filter((s) => !organizations.some((o) => o.id === s.id)),
  ];
  const toggle = (id: string, on: boolean) =>
    setSelected((prev) => (on ? [...new Set([...prev, id])] : prev.filter((x) => x !== id)));
  return (
    <Dialog open={file !== null} onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Share file</DialogTitle>
          <DialogDescription className="break-all">{file?.name}</DialogDescription>
        </DialogHeader>
        <form
          className="flex flex-col gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            if (file) onShare(file, selected);
          }}
        >
          {loading ? (
            <p className="text-sm text-muted-foreground" role="status">
              Loading organizations…
            </p>
          ) : choices.length === 0 ? (
            <p className="text-sm text-muted-foreground">You do not belong to any organization.</p>
          ) : (
            <OrgChecklist
              legend="Members of these organizations can view and download it"
              idPrefix="file-share"
              choices={choices}
              selected={selected}
              onToggle={toggle}
            />
          )}
          <DialogFooter>
            <Button variant="outline" onClick={onClose} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending || loading}>
              {pending ? <Spinner /> : null}
              Save sharing
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
