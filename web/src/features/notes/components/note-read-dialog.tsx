import { Markdown } from '../../../components/markdown/markdown';
import { RecordReadDialog } from '../../../components/record-read-dialog';
import { formatDateTime, formatDay } from '../../../lib/format';
import type { NoteEntry } from '../api';

/** A linked note entry (a citation), shown to read; Edit opens the entry in the editor. */
export function NoteReadDialog({
  entry,
  onClose,
  onEdit,
}: {
  entry: NoteEntry | null;
  onClose: () => void;
  onEdit: (entry: NoteEntry) => void;
}) {
  const edited = entry !== null && entry.updated_at !== entry.created_at;
  return (
    <RecordReadDialog
      open={entry !== null}
      onOpenChange={(open) => !open && onClose()}
      kind="Note"
      title={entry ? `Note of ${formatDay(entry.entry_date)}` : ''}
      fields={
        entry
          ? [
              { label: 'Written', value: formatDateTime(entry.created_at) },
              ...(edited ? [{ label: 'Edited', value: formatDateTime(entry.updated_at) }] : []),
            ]
          : []
      }
      body={entry ? <Markdown content={entry.content} /> : null}
      // Only the owner can read a note at all (notes are private), so the reader may always edit it.
      onEdit={entry ? () => onEdit(entry) : undefined}
    />
  );
}
