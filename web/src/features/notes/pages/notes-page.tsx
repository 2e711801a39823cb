import { NotebookPen, Plus, Search, X } from 'lucide-react';
import { useDeferredValue, useMemo, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { PageHeader } from '../../../components/page-header';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Select } from '../../../components/ui/select';
import { Skeleton } from '../../../components/ui/skeleton';
import { serverDetail } from '../../../lib/api';
import { notify } from '../../../lib/toast';
import {
  EMPTY_NOTE_FILTERS,
  filterNotes,
  formatDay,
  type NoteEntry,
  type NoteFilters,
  type NoteSort,
  useCreateNote,
  useDeleteNote,
  useNotes,
  readNote,
  useUpdateNote,
} from '../api';
import { useDebounced } from '../../../lib/use-debounced';
import { useLinkedRecord } from '../../../lib/use-linked-record';
import { useStaleVersion } from '../../../lib/use-stale-version';
import { NoteCard } from '../components/note-card';
import { type NoteDraft, NoteEditorDialog } from '../components/note-editor-dialog';
import { NoteReadDialog } from '../components/note-read-dialog';

const ENTRY_ERROR = 'Error creating/updating/deleting entry.';

export default function NotesPage() {
  const [filters, setFilters] = useState<NoteFilters>(EMPTY_NOTE_FILTERS);
  const search = useDebounced(filters.search, 250);
  const serverFilters = useDeferredValue(useMemo(() => ({ ...filters, search }), [filters, search]));
  const notes = useNotes(serverFilters);
  const create = useCreateNote();
  const update = useUpdateNote();
  const remove = useDeleteNote();
  const [editorOpen, setEditorOpen] = useState(false);
  const [editing, setEditing] = useState<NoteEntry | null>(null);
  const [deleting, setDeleting] = useState<NoteEntry | null>(null);

  const visible = useMemo(() => filterNotes(notes.data ?? [], filters), [notes.data, filters]);
  const groups = useMemo(() => {
    const out: { day: string; entries: NoteEntry[] }[] = [];
    for (const e of visible) {
      const day = e.entry_date.slice(0, 10);
      const last = out[out.length - 1];
      if (last && last.day === day) last.entries.push(e);
      else out.push({ day, entries: [e] });
    }
    return out;
  }, [visible]);

  const filtered = filters.search.trim() !== '' || filters.from !== '' || filters.to !== '';
  const set = <K extends keyof NoteFilters>(key: K, value: NoteFilters[K]) =>
    setFilters((f) => ({ ...f, [key]: value }));

  const openNew = () => {
    setEditing(null);
    setEditorOpen(true);
  };
  const openEdit = (entry: NoteEntry) => {
    setEditing(entry);
    setEditorOpen(true);
  };

  // A citation link (?note=<id>) opens the entry to read; its Edit opens the editor (issue 47 item 4).
  const [reading, setReading] = useState<NoteEntry | null>(null);
  useLinkedRecord('note', 'note', readNote, setReading);

  const stale = useStaleVersion(readNote);
  const setOpen = (open: boolean) => {
    if (!open) stale.clear();
    setEditorOpen(open);
  };

  const onSubmit = (draft: NoteDraft) => {
    if (editing) {
      update.mutate(
        { id: editing.id, body: draft, ifMatch: stale.version(editing) },
        {
          onSuccess: () => {
            setOpen(false);
            notify.success('Note entry updated.');
          },
          onError: async (err) => {
            // Changed meanwhile: the editor shows both versions instead of an error.
            if (await stale.onSaveError(err, editing.id)) return;
            notify.error(ENTRY_ERROR, serverDetail(err) ?? 'The entry could not be updated.');
          },
        },
      );
    } else {
      create.mutate(draft, {
        onSuccess: () => {
          setEditorOpen(false);
          notify.success('Note entry created.');
        },
        onError: (err) => notify.error(ENTRY_ERROR, serverDetail(err) ?? 'The entry could not be created.'),
      });
    }
  };

  const onDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        setDeleting(null);
        notify.success('Note entry deleted.');
      },
      onError: (err) => notify.error(ENTRY_ERROR, serverDetail(err) ?? 'The entry could not be deleted.'),
    });
  };

  const rangeInverted = filters.from !== '' && filters.to !== '' && filters.from > filters.to;

  return (
    <div className="mx-auto flex w-full max-w-4xl flex-col gap-6">
      <PageHeader
        title="Notes"
        description="Your private journal. Only you can read these entries."
        actions={
          <Button onClick={openNew}>
            <Plus aria-hidden="true" />
            New entry
          </Button>
        }
      />

      <Card className="flex flex-col gap-3 p-4">
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-[minmax(0,1fr)_10rem_10rem_10rem]">
          <div className="flex flex-col gap-1.5 sm:col-span-2 lg:col-span-1">
            <Label htmlFor="notes-search">Search</Label>
            <div className="relative">
              <Search
                className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
                aria-hidden="true"
              />
              <Input
                id="notes-search"
                type="search"
                value={filters.search}
                onChange={(e) => set('search', e.target.value)}
                placeholder="Search your entries"
                className="pl-9"
              />
            </div>
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="notes-from">From</Label>
            <Input
              id="notes-from"
              type="date"
              value={filters.from}
              max={filters.to || undefined}
              onChange={(e) => set('from', e.target.value)}
            />
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="notes-to">To</Label>
            <Input
              id="notes-to"
              type="date"
              value={filters.to}
              min={filters.from || undefined}
              onChange={(e) => set('to', e.target.value)}
            />
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="notes-sort">Sort</Label>
            <Select
              id="notes-sort"
              value={filters.sort}
              onChange={(e) => set('sort', e.target.value as NoteSort)}
            >
              <option value="newest">Newest first</option>
              <option value="oldest">Oldest first</option>
            </Select>
          </div>
        </div>
        {filtered ? (
          <div className="flex flex-wrap items-center justify-between gap-2 text-xs text-muted-foreground">
            <span aria-live="polite">
              {rangeInverted
                ? 'The start date is after the end date.'
                : `${visible.length} ${visible.length === 1 ? 'entry' : 'entries'} match`}
            </span>
            <Button
              variant="ghost"
              size="sm"
              onClick={() => setFilters((f) => ({ ...EMPTY_NOTE_FILTERS, sort: f.sort }))}
            >
              <X aria-hidden="true" />
              Clear filters
            </Button>
          </div>
        ) : null}
      </Card>

      {notes.isPending ? (
        <div className="flex flex-col gap-4" role="status">
          <span className="sr-only">Loading notes…</span>
          <Skeleton className="h-5 w-48" />
          <Skeleton className="h-28" />
          <Skeleton className="h-28" />
          <Skeleton className="h-5 w-40" />
          <Skeleton className="h-28" />
        </div>
      ) : notes.isError ? (
        <Alert>Could not load your notes: {notes.error.message}</Alert>
      ) : groups.length === 0 ? (
        <Card className="flex flex-col items-center gap-3 px-6 py-14 text-center">
          <NotebookPen className="size-8 text-muted-foreground" aria-hidden="true" />
          {filtered ? (
            <>
              <p className="font-medium">No entries match these filters.</p>
              <p className="text-sm text-muted-foreground">Try other words or a wider date range.</p>
            </>
          ) : (
            <>
              <p className="font-medium">Your journal is empty.</p>
              <p className="text-sm text-muted-foreground">
                Capture decisions, meetings and ideas as they happen.
              </p>
              <Button variant="outline" onClick={openNew}>
                <Plus aria-hidden="true" />
                Write your first entry
              </Button>
            </>
          )}
        </Card>
      ) : (
        <div className="flex flex-col gap-8" aria-busy={notes.isFetching || undefined}>
          {groups.map((g) => (
            <section key={g.day} aria-labelledby={`day-${g.day}`} className="flex flex-col gap-3">
              <h2
                id={`day-${g.day}`}
                className="sticky top-0 z-10 -mx-1 bg-background/90 px-1 py-1 text-sm font-semibold tracking-wide text-muted-foreground backdrop-blur"
              >
                <time dateTime={g.day}>{formatDay(g.day)}</time>
              </h2>
              <ul className="flex flex-col gap-3">
                {g.entries.map((e) => (
                  <li key={e.id}>
                    <NoteCard entry={e} onEdit={() => openEdit(e)} onDelete={() => setDeleting(e)} />
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      )}

      <NoteReadDialog
        entry={reading}
        onClose={() => setReading(null)}
        onEdit={(entry) => {
          setReading(null);
          openEdit(entry);
        }}
      />
      <NoteEditorDialog
        open={editorOpen}
        onOpenChange={setOpen}
        entry={editing}
        pending={create.isPending || update.isPending}
        onSubmit={onSubmit}
        stale={stale.fresh}
        onUseTheirs={() => {
          // The editor resets to the entry it is given: the fresh one.
          if (stale.fresh) setEditing(stale.fresh);
          stale.clear();
        }}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete this note entry?"
        description="The entry will be removed from your journal. This cannot be undone."
        confirmLabel="Delete entry"
        pending={remove.isPending}
        onConfirm={onDelete}
      />
    </div>
  );
}
