import { Search } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { Skeleton } from '../../../components/ui/skeleton';
import { Spinner } from '../../../components/ui/spinner';
import type { AppContact } from '../api';
import { Avatar } from './avatar';

export const NO_CONTACTS_TEXT = 'No contacts found';

/** Name or role contains the search, case-insensitive. */
export function matchesContact(c: AppContact, search: string): boolean {
  const q = search.trim().toLowerCase();
  if (!q) return true;
  return c.name.toLowerCase().includes(q) || (c.role ?? '').toLowerCase().includes(q);
}

interface CreateConversationDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  contacts: AppContact[];
  loading: boolean;
  pending: boolean;
  onCreate: (ids: string[]) => void;
}

/** "Create Conversation": search app-user contacts, tick one or more, Create (disabled with none). */
export function CreateConversationDialog({
  open,
  onOpenChange,
  contacts,
  loading,
  pending,
  onCreate,
}: CreateConversationDialogProps) {
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const searchId = useId();
  const listId = useId();
  const shown = useMemo(() => contacts.filter((c) => matchesContact(c, search)), [contacts, search]);

  const toggle = (id: string) =>
    setChosen((cur) => (cur.includes(id) ? cur.filter((x) => x !== id) : [...cur, id]));

  const change = (next: boolean) => {
    if (!next) {
      setSearch('');
      setChosen([]);
    }
    onOpenChange(next);
  };

  return (
    <Dialog open={open} onOpenChange={change}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Create Conversation</DialogTitle>
          <DialogDescription>Choose one or more people to message.</DialogDescription>
        </DialogHeader>
        <div className="relative">
          <label htmlFor={searchId} className="sr-only">
            Search contacts
          </label>
          <Search
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          />
          <Input
            id={searchId}
            type="search"
            placeholder="Search by name or role..."
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            className="pl-9"
          />
        </div>
        <div className="max-h-72 min-h-24 overflow-y-auto rounded-lg border border-border">
          {loading ? (
            <div className="flex flex-col gap-2 p-3">
              <Skeleton className="h-8 w-full" />
              <Skeleton className="h-8 w-full" />
            </div>
          ) : shown.length === 0 ? (
            <p className="p-4 text-center text-sm text-muted-foreground">{NO_CONTACTS_TEXT}</p>
          ) : (
            <ul aria-label="App-user contacts">
              {shown.map((c) => (
                <li key={c.id}>
                  <label
                    htmlFor={`${listId}-${c.id}`}
                    className="flex cursor-pointer items-center gap-3 border-b border-border px-3 py-2 last:border-b-0 hover:bg-[#111b31]"
                  >
                    <Checkbox
                      id={`${listId}-${c.id}`}
                      checked={chosen.includes(c.id)}
                      onChange={() => toggle(c.id)}
                      aria-label={c.name}
                    />
                    <Avatar name={c.name} className="size-8 text-xs" />
                    <span className="flex min-w-0 flex-col">
                      <span className="truncate text-sm font-medium">{c.name}</span>
                      {c.role ? (
                        <span className="truncate text-xs text-muted-foreground">{c.role}</span>
                      ) : null}
                    </span>
                  </label>
                </li>
              ))}
            </ul>
          )}
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={() => change(false)} disabled={pending}>
            Cancel
          </Button>
          <Button onClick={() => onCreate(chosen)} disabled={chosen.length === 0 || pending}>
            {pending ? <Spinner /> : null}
            Create
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
