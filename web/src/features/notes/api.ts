import {
  NOTES_PAGE_SIZE,
  type TCreateJournalRequest,
  type TJournal,
  type TNoteSort,
  type TUpdateJournalRequest,
} from '@cc/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { formatDayLong } from '../../lib/format';

export type NoteEntry = TJournal;
export type NoteSort = TNoteSort;

export interface NoteFilters {
  /** Text in the content, case-insensitive. */
  search: string;
  /** YYYY-MM-DD, inclusive (from the start of that day). */
  from: string;
  /** YYYY-MM-DD, inclusive (to the end of that day). */
  to: string;
  sort: NoteSort;
}

export const EMPTY_NOTE_FILTERS: NoteFilters = { search: '', from: '', to: '', sort: 'newest' };

export const noteKeys = {
  all: ['journals'] as const,
  list: (filters: NoteFilters) => [...noteKeys.all, 'list', filters] as const,
};

const JOURNALS = '/api/journals/';
const journalPath = (id: string) => `/api/journals/${encodeURIComponent(id)}`;

export const notesQuery = (filters: NoteFilters) =>
  queryOptions({
    queryKey: noteKeys.list(filters),
    queryFn: ({ signal }) =>
      api<NoteEntry[]>(JOURNALS, {
        signal,
        query: {
          skip: 0,
          limit: NOTES_PAGE_SIZE,
          search: filters.search.trim() || undefined,
          from: filters.from || undefined,
          to: filters.to || undefined,
          sort: filters.sort,
        },
      }),
  });

/** The entries matching the filters; the previous list stays on screen while a new one loads. */
export function useNotes(filters: NoteFilters) {
  return useQuery({ ...notesQuery(filters), placeholderData: keepPreviousData });
}

/**
 * The same filters applied on the client: the server already filters, and this keeps the list
 * consistent with the controls while a new answer is on its way (search on content, case-insensitive;
 * the date range from the start of `from` to the end of `to`; newest or oldest first).
 */
export function filterNotes(entries: readonly NoteEntry[], filters: NoteFilters): NoteEntry[] {
  const needle = filters.search.trim().toLowerCase();
  const out = entries.filter((e) => {
    if (needle && !e.content.toLowerCase().includes(needle)) return false;
    const day = e.entry_date.slice(0, 10);
    if (filters.from && day < filters.from) return false;
    if (filters.to && day > filters.to) return false;
    return true;
  });
  const dir = filters.sort === 'oldest' ? 1 : -1;
  return out.sort((a, b) => {
    const byDay = a.entry_date.slice(0, 10).localeCompare(b.entry_date.slice(0, 10));
    if (byDay !== 0) return byDay * dir;
    return a.created_at.localeCompare(b.created_at) * dir;
  });
}

function useInvalidateNotes() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: noteKeys.all });
}

export function useCreateNote() {
  const invalidate = useInvalidateNotes();
  return useMutation({
    mutationFn: (body: TCreateJournalRequest) => api<NoteEntry>(JOURNALS, { method: 'POST', json: body }),
    onSuccess: invalidate,
  });
}

/** One entry as stored now (the editor's fresh version after a refused save). */
export const readNote = (id: string) => api<NoteEntry>(journalPath(id));

export function useUpdateNote() {
  const invalidate = useInvalidateNotes();
  return useMutation({
    mutationFn: ({ id, body, ifMatch }: { id: string; body: TUpdateJournalRequest; ifMatch?: string }) =>
      api<NoteEntry>(journalPath(id), { method: 'PUT', json: body, ifMatch }),
    onSuccess: invalidate,
  });
}

export function useDeleteNote() {
  const invalidate = useInvalidateNotes();
  return useMutation({
    mutationFn: (id: string) => api<void>(journalPath(id), { method: 'DELETE' }),
    onSuccess: invalidate,
  });
}

/** Today as YYYY-MM-DD in the user's own time zone. */
export function todayIso(now = new Date()): string {
  const y = now.getFullYear();
  const m = String(now.getMonth() + 1).padStart(2, '0');
  const d = String(now.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

/** "Friday, 21 November 2026" (in the reader's locale) for a YYYY-MM-DD day: a day's heading. */
export const formatDay = (iso: string): string => formatDayLong(iso);
